/**
 * Migration 20: every stats cell also kept for all ops together (statsRollup.ts says why), in
 * `call_stats_totals`, the columns of `call_stats_cells` without the op. Its rows are built as
 * migration 16's are: the cells are cleared and the store refolds every visible call into both
 * tables at its next open (store/sqlite/statsJournal.ts).
 */
import type { Migration } from './migration.js';

export const v20CallStatsTotals: Migration = {
  version: 20,
  name: 'stats cells for all ops together',
  sql: `
    CREATE TABLE call_stats_totals (
      project_id    TEXT NOT NULL,
      width         INTEGER NOT NULL,
      cell          INTEGER NOT NULL,
      call_count    INTEGER NOT NULL,
      error_count   INTEGER NOT NULL,
      latency_count INTEGER NOT NULL,
      latency_sum   INTEGER NOT NULL,
      latency_min   INTEGER,
      latency_max   INTEGER,
      latency_hist  BLOB,
      PRIMARY KEY (project_id, width, cell)
    ) WITHOUT ROWID;
    DELETE FROM call_stats_cells;
    DELETE FROM usage_stats_cells;
    UPDATE stats_rollup_state SET backfilled = 0;
  `,
};
