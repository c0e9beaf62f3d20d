import type { Migration } from './migration.js';

/**
 * What date-filtered and attribute-filtered thread queries read instead of the turn calls
 * (store/sqlite/threadsRange.ts, threadExtras.ts):
 * - `thread_stats.last_turn_start`: with `start_time`, the span of a thread's turn starts. A
 *   thread whose span lies inside a date range has the statistics of thread_stats there, so
 *   only the few threads crossing a bound are recomputed from their turns;
 * - `thread_attributes`: every scalar leaf of every live turn's attributes, once per thread,
 *   so "threads with attribute env = prod" is an index look-up, not a scan of every turn call.
 */
export const v15ThreadRangeFacts: Migration = {
  version: 15,
  name: 'thread turn span and attribute leaves',
  sql: `
    ALTER TABLE thread_stats ADD COLUMN last_turn_start INTEGER;

    -- path is the json path the attribute filter compiles (callsFields.ts jsonPath); value keeps
    -- the SQL type json_extract gives the leaf (text, integer, real; booleans as 1/0), so it
    -- has no declared type (no affinity: '1' stays text, 1 an integer).
    CREATE TABLE thread_attributes (
      project_id TEXT NOT NULL,
      path       TEXT NOT NULL,
      value,
      thread_id  TEXT NOT NULL,
      PRIMARY KEY (project_id, path, value, thread_id)
    ) WITHOUT ROWID;
    CREATE INDEX thread_attributes_by_thread ON thread_attributes (project_id, thread_id);

    -- Rebuilt for every thread at the next open (SqliteThreadsStore refreshes dirty threads).
    INSERT INTO dirty_threads SELECT project_id, thread_id FROM thread_stats;
  `,
};
