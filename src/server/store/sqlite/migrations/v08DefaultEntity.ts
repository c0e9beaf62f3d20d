import type { Migration } from './migration.js';

export const v08DefaultEntity: Migration = {
  version: 8,
  name: 'a default entity per user',
  sql: `
      -- The entity a bare project name goes to (the W&B GraphQL viewer.defaultEntity the SDKs
      -- ask for). NULL until the user has an entity; users created before this column take the
      -- first entity they were given (user_entities keeps insertion order in its rowid).
      ALTER TABLE users ADD COLUMN default_entity TEXT;
      UPDATE users SET default_entity =
        (SELECT ue.entity FROM user_entities ue WHERE ue.username = users.username ORDER BY ue.rowid LIMIT 1);
    `,
};
