import type { Migration } from './migration.js';

export const v06CallStatsCells: Migration = {
  version: 6,
  name: 'call statistics in 1-hour and 5-minute cells',
  sql: `
      -- Visible calls (started, not deleted) per project, cell of started_at (width 3600 or
      -- 300 s, in microseconds; cell = started_at / width) and op: counts, latency (ms, finished
      -- calls) summary and histogram (domain/statsHistogram.ts). Read by /calls/stats and kept
      -- current by the writer connection's journal (store/sqlite/statsJournal.ts).
      CREATE TABLE call_stats_cells (
        project_id    TEXT NOT NULL,
        width         INTEGER NOT NULL,
        cell          INTEGER NOT NULL,
        op_name       TEXT NOT NULL,
        call_count    INTEGER NOT NULL,
        error_count   INTEGER NOT NULL,
        latency_count INTEGER NOT NULL,
        latency_sum   INTEGER NOT NULL,
        latency_min   INTEGER,
        latency_max   INTEGER,
        latency_hist  BLOB,
        PRIMARY KEY (project_id, width, cell, op_name)
      ) WITHOUT ROWID;

      -- The same cells per model of summary.usage: entries and token sums. A cell whose
      -- entries were all deleted keeps a row of zeros (reads skip them).
      CREATE TABLE usage_stats_cells (
        project_id                  TEXT NOT NULL,
        width                       INTEGER NOT NULL,
        cell                        INTEGER NOT NULL,
        op_name                     TEXT NOT NULL,
        model                       TEXT NOT NULL,
        entry_count                 INTEGER NOT NULL,
        input_tokens                INTEGER NOT NULL,
        output_tokens               INTEGER NOT NULL,
        total_tokens                INTEGER NOT NULL,
        total_tokens_count          INTEGER NOT NULL,
        cache_read_input_tokens     INTEGER NOT NULL,
        cache_creation_input_tokens INTEGER NOT NULL,
        PRIMARY KEY (project_id, width, cell, op_name, model)
      ) WITHOUT ROWID;

      -- Whether the cells hold the calls stored before they existed: the store folds those in
      -- once, at its first open after this migration (store/sqlite/statsJournal.ts).
      CREATE TABLE stats_rollup_state (backfilled INTEGER NOT NULL);
      INSERT INTO stats_rollup_state VALUES (0);
    `,
};
