import type { Migration } from './migration.js';

export const v01AccountsProjectsCalls: Migration = {
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
};
