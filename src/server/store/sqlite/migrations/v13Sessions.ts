import type { Migration } from './migration.js';

export const v13Sessions: Migration = {
  version: 13,
  name: 'dashboard sign-in sessions',
  sql: `
      -- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is
      -- stored, so a copy of the database cannot sign anyone in. session_id is a separate random
      -- id that lists and ends a session without ever exposing the token. Ending a session
      -- deletes its row. Times are epoch microseconds.
      CREATE TABLE sessions (
        session_id   TEXT PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE,
        username     TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        created_at   INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        user_agent   TEXT NOT NULL DEFAULT '',
        address      TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX sessions_by_user ON sessions (username, created_at);
    `,
};
