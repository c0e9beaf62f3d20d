/**
 * Migration 22: a role on every entity membership (existing members keep what they could do:
 * `member`) and per-project overrides of it (docs/security/roles.md).
 */
import type { Migration } from './migration.js';

export const v22Roles: Migration = {
  version: 22,
  name: 'roles',
  sql: `
    ALTER TABLE user_entities ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
    CREATE TABLE project_roles (
      username   TEXT NOT NULL,
      project_id TEXT NOT NULL,
      role       TEXT NOT NULL,
      PRIMARY KEY (username, project_id)
    ) WITHOUT ROWID;
  `,
};
