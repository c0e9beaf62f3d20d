/**
 * Migration 34: thread_stats newest first by start time (then thread id, as threads.ts orderSql
 * writes it), so that sort's first page is an index walk of 50 rows instead of a sort of every
 * thread of the project: 415 ms of CPU at 10M calls before (docs/performance.md "SQLite at 10M
 * calls"). Oldest first walks it backwards, sorting only threads that start at the same time.
 */
import type { Migration } from './migration.js';

export const v34ThreadsByStartDesc: Migration = {
  version: 34,
  name: 'threads newest first without a sort',
  // IF NOT EXISTS: tests that roll a file back to an older version keep the later indexes.
  sql: `
    CREATE INDEX IF NOT EXISTS thread_stats_by_start_desc ON thread_stats (project_id, start_time DESC, thread_id ASC);
  `,
};
