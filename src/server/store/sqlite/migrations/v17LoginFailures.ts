/**
 * Migration 17: failed sign-ins in the database, so the login throttle (auth/loginThrottle.ts)
 * holds for the whole server: every process of `weft serve --workers N` counts against one bound
 * (store/sqlite/loginFailures.ts), and a restart does not reset it. One row per counted failure
 * of a throttle key ('u:<username>' or 'a:<address>'), at epoch milliseconds; rows older than
 * the window are deleted as failures are written.
 */
import type { Migration } from './migration.js';

export const v17LoginFailures: Migration = {
  version: 17,
  name: 'failed sign-ins shared by every server process',
  sql: `
    CREATE TABLE login_failures (
      key TEXT NOT NULL,
      at  INTEGER NOT NULL
    );
    CREATE INDEX login_failures_by_key ON login_failures (key, at);
    CREATE INDEX login_failures_by_time ON login_failures (at);
  `,
};
