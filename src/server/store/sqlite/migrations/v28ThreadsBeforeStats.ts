import type { Migration } from './migration.js';

export const v28ThreadsBeforeStats: Migration = {
  version: 28,
  name: 'statistics for threads stored before migration 4',
  sql: `
      -- Migration 4 kept thread statistics from then on, by triggers, and never computed them for
      -- the turns already stored: a file upgraded from versions 1 to 3 listed none of its
      -- threads (upgrade.sqlite.test.ts). Marked stale here, they are computed by the next
      -- write's or read's refresh (threads.ts). Threads with statistics are left alone.
      INSERT INTO dirty_threads
        SELECT DISTINCT c.project_id, c.thread_id FROM calls AS c
        WHERE c.turn_id = c.id AND c.thread_id IS NOT NULL AND c.thread_id != ''
          AND NOT EXISTS (SELECT 1 FROM thread_stats AS s WHERE s.project_id = c.project_id AND s.thread_id = c.thread_id);
    `,
};
