import type { ClickHouseMigration } from './migration.js';

export const v13Roles: ClickHouseMigration = {
  version: 13,
  name: 'roles',
  statements: [
    // Memberships with a role, entity-wide (`scope` = entity) or for one project (`scope` =
    // entity/project); user_entities had no version, so a membership could never change or go.
    `CREATE TABLE IF NOT EXISTS user_roles (username String, scope String, role String, version UInt64, is_deleted UInt8)
        ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (username, scope)`,
    // Existing members keep what they could do. Version 0 loses to any later change, so a rerun
    // adds nothing that counts (ReplacingMergeTree keeps one row per key).
    `INSERT INTO user_roles (username, scope, role, version, is_deleted) SELECT username, entity, 'member', 0, 0 FROM user_entities FINAL`,
  ],
};
