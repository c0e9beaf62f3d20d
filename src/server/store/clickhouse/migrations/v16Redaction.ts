import type { ClickHouseMigration } from './migration.js';

export const v16Redaction: ClickHouseMigration = {
  version: 16,
  name: 'redaction rules',
  statements: [
    // One row per rule, rewritten with a higher version to delete it (a tombstone). Every add and
    // delete writes a new version, so max(version) over the table is the rules' epoch
    // (store/RedactionStore.ts epoch).
    `CREATE TABLE IF NOT EXISTS redaction_rules (
        id String, scope String, kind String, value String, label String,
        created_by String, created_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY id`,
  ],
};
