/**
 * SQLite schema migrations, applied in order at start-up inside one transaction each.
 * `PRAGMA user_version` records the last one applied. Never edit a shipped migration:
 * add a new one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'accounts, projects and calls',
    sql: `
      CREATE TABLE users (
        username      TEXT PRIMARY KEY,
        password_hash TEXT,
        is_admin      INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL
      );
      CREATE TABLE user_entities (
        username TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        entity   TEXT NOT NULL,
        PRIMARY KEY (username, entity)
      );
      CREATE TABLE api_keys (
        key_id     TEXT PRIMARY KEY,
        username   TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        key_hash   TEXT NOT NULL,
        name       TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );

      -- A project exists once something is written to it.
      CREATE TABLE projects (
        project_id TEXT PRIMARY KEY,
        entity     TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- One row per call: the start part and the end part are merged into it in either
      -- order. A row whose start has not arrived (started_at IS NULL) is invisible.
      -- Times are epoch microseconds. JSON columns hold JSON text.
      CREATE TABLE calls (
        project_id      TEXT NOT NULL,
        id              TEXT NOT NULL,
        trace_id        TEXT,
        parent_id       TEXT,
        thread_id       TEXT,
        turn_id         TEXT,
        op_name         TEXT,
        op_base_name    TEXT,     -- op_name, or the name inside an op ref; for trace_name
        display_name    TEXT,
        started_at      INTEGER,
        ended_at        INTEGER,
        attributes      TEXT,
        inputs          TEXT,
        output          TEXT,
        summary         TEXT,
        exception       TEXT,
        otel_dump       TEXT,
        input_refs      TEXT,     -- JSON array of weave:/// refs found in inputs
        output_refs     TEXT,     -- JSON array of weave:/// refs found in output
        wb_user_id      TEXT,
        wb_run_id       TEXT,
        wb_run_step     INTEGER,
        wb_run_step_end INTEGER,
        deleted_at      INTEGER,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX calls_by_start  ON calls (project_id, started_at);
      CREATE INDEX calls_by_trace  ON calls (project_id, trace_id);
      CREATE INDEX calls_by_parent ON calls (project_id, parent_id);
      CREATE INDEX calls_by_op     ON calls (project_id, op_name, started_at);
      CREATE INDEX calls_by_thread ON calls (project_id, thread_id) WHERE thread_id IS NOT NULL;
    `,
  },
  {
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
      -- refresh at the end of every write transaction.
      CREATE TABLE dirty_threads (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL,
        PRIMARY KEY (project_id, thread_id)
      ) WITHOUT ROWID;

      CREATE TRIGGER calls_turn_inserted AFTER INSERT ON calls
      WHEN NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != ''
      BEGIN
        INSERT OR IGNORE INTO dirty_threads VALUES (NEW.project_id, NEW.thread_id);
      END;

      CREATE TRIGGER calls_turn_updated
      AFTER UPDATE OF thread_id, turn_id, started_at, ended_at, exception, summary, deleted_at ON calls
      WHEN (OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL) OR (NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL)
      BEGIN
        INSERT OR IGNORE INTO dirty_threads SELECT OLD.project_id, OLD.thread_id
          WHERE OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL AND OLD.thread_id != '';
        INSERT OR IGNORE INTO dirty_threads SELECT NEW.project_id, NEW.thread_id
          WHERE NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != '';
      END;
    `,
  },
];
