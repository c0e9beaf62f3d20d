import type { Migration } from './migration.js';

export const v04ThreadStats: Migration = {
  version: 4,
  name: 'thread statistics kept up to date by triggers',
  sql: `
      -- Turn calls (id = turn_id) by thread, for recomputing one thread and for date filters.
      CREATE INDEX calls_turns ON calls (project_id, thread_id, started_at)
        WHERE turn_id = id AND thread_id IS NOT NULL;

      -- One row per thread: the statistics of its live turn calls, recomputed (in the same
      -- transaction) whenever one of its turns is written, ended late, moved or deleted.
      CREATE TABLE thread_stats (
        project_id           TEXT NOT NULL,
        thread_id            TEXT NOT NULL,
        turn_count           INTEGER NOT NULL,
        finished_turn_count  INTEGER NOT NULL,
        start_time           INTEGER NOT NULL,
        last_updated         INTEGER,
        first_turn_id        TEXT,
        last_turn_id         TEXT,
        p50_turn_duration_ms REAL,
        p99_turn_duration_ms REAL,
        error_count          INTEGER NOT NULL,
        total_tokens         INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id)
      ) WITHOUT ROWID;

      -- Threads whose statistics are stale; filled by the triggers below, emptied by the
      -- refresh at the end of every write transaction. No unique key on purpose: inside a
      -- trigger, the outer upsert's conflict policy would override OR IGNORE and abort, so
      -- duplicates are allowed here and removed by the refresh (SELECT DISTINCT).
      CREATE TABLE dirty_threads (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL
      );

      CREATE TRIGGER calls_turn_inserted AFTER INSERT ON calls
      WHEN NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != ''
      BEGIN
        INSERT INTO dirty_threads VALUES (NEW.project_id, NEW.thread_id);
      END;

      CREATE TRIGGER calls_turn_updated
      AFTER UPDATE OF thread_id, turn_id, started_at, ended_at, exception, summary, deleted_at ON calls
      WHEN (OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL) OR (NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL)
      BEGIN
        INSERT INTO dirty_threads SELECT OLD.project_id, OLD.thread_id
          WHERE OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL AND OLD.thread_id != '';
        INSERT INTO dirty_threads SELECT NEW.project_id, NEW.thread_id
          WHERE NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != '';
      END;
    `,
};
