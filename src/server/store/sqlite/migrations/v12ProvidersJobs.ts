import type { Migration } from './migration.js';

export const v12ProvidersJobs: Migration = {
  version: 12,
  name: 'model providers per project, and the durable background-job queue',
  sql: `
      -- OpenAI-compatible providers a project configured. api_key_sealed is AES-256-GCM under the
      -- server secret (auth/secretBox.ts); the key is never stored in the clear.
      CREATE TABLE model_providers (
        id             TEXT NOT NULL PRIMARY KEY,
        project_id     TEXT NOT NULL,
        name           TEXT NOT NULL,
        base_url       TEXT NOT NULL,
        api_key_sealed TEXT,
        api_key_mask   TEXT,
        auth_style     TEXT NOT NULL,
        extra_headers  TEXT NOT NULL,
        models         TEXT NOT NULL,
        price_ids      TEXT NOT NULL,
        created_by     TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        UNIQUE (project_id, name)
      );

      -- Background jobs (evaluate_model, calls/score, monitors); see store/JobsStore.ts.
      CREATE TABLE jobs (
        id               TEXT NOT NULL PRIMARY KEY,
        project_id       TEXT NOT NULL,
        kind             TEXT NOT NULL,
        payload          TEXT NOT NULL,
        status           TEXT NOT NULL,
        progress_done    INTEGER NOT NULL DEFAULT 0,
        progress_total   INTEGER,
        error            TEXT,
        result           TEXT,
        attempts         INTEGER NOT NULL DEFAULT 0,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        owner            TEXT,
        created_by       TEXT NOT NULL,
        created_at       INTEGER NOT NULL,
        started_at       INTEGER,
        finished_at      INTEGER,
        heartbeat_at     INTEGER
      );
      CREATE INDEX jobs_by_status ON jobs (status, created_at);
      CREATE INDEX jobs_by_project ON jobs (project_id, created_at);
    `,
};
