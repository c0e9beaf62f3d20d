import type { Migration } from './migration.js';

export const v11ThreadSearch: Migration = {
  version: 11,
  name: 'thread content search, per-thread usage and turn facts',
  sql: `
      -- One full-text document per thread: the string values of its live turns' inputs and
      -- outputs. Contentless (the text stays in calls); rows are replaced by rowid, which
      -- thread_search_docs maps to the thread. Kept by the same refresh as thread_stats.
      CREATE VIRTUAL TABLE thread_search USING fts5(
        body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TABLE thread_search_docs (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL,
        doc_id     INTEGER NOT NULL UNIQUE,
        PRIMARY KEY (project_id, thread_id)
      ) WITHOUT ROWID;

      -- Tokens per thread and model, summed over its live turns, so a thread's cost is a few
      -- price look-ups rather than a walk over its turns' summaries.
      CREATE TABLE thread_usage (
        project_id        TEXT NOT NULL,
        thread_id         TEXT NOT NULL,
        model             TEXT NOT NULL,
        prompt_tokens     INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id, model)
      ) WITHOUT ROWID;

      -- One row per live turn: what the statistics need of it, so that statistics over the
      -- turns of a time range (a date filter) read small rows by start time instead of
      -- every turn call's JSON summary.
      CREATE TABLE thread_turn_facts (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL,
        id         TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at   INTEGER,
        failed     INTEGER NOT NULL,
        tokens     INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX thread_turn_facts_by_start ON thread_turn_facts (project_id, started_at);

      -- Threads written before this migration: every one gets its document and usage at the
      -- next write, and the store rebuilds them at open (store/sqlite/threadExtras.ts).
      INSERT INTO dirty_threads SELECT project_id, thread_id FROM thread_stats;
    `,
};
