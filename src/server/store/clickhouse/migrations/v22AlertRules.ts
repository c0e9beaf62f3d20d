import type { ClickHouseMigration } from './migration.js';

export const v22AlertRules: ClickHouseMigration = {
  version: 22,
  name: 'alert rules and events',
  statements: [
    // One row per rule, rewritten whole by a save and tombstoned by a delete (store/AlertsStore.ts).
    `CREATE TABLE IF NOT EXISTS alert_rules (
        project_id String, id String, name String, spec String, webhook_sealed String, webhook_mask String,
        trusted UInt8, enabled UInt8, snoozed_until Nullable(Int64),
        created_by String, created_at Int64, updated_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, id)`,
    // An event's id names one evaluation's transition: a second write of it merges into the first.
    `CREATE TABLE IF NOT EXISTS alert_events (
        project_id String, rule_id String, id String, state String, value Nullable(Float64), threshold Float64,
        at Int64, delivery String, detail Nullable(String), version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, rule_id, id)`,
  ],
};
