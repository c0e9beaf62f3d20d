import type { ClickHouseMigration } from './migration.js';

export const v14AuditLog: ClickHouseMigration = {
  version: 14,
  name: 'the audit log',
  statements: [
    // One chain per writing process (store/clickhouse/audit.ts says why), ordered by seq. Keyed
    // by (chain, seq), so a row inserted again after a failed answer collapses into one.
    `CREATE TABLE IF NOT EXISTS audit_log (
        chain String, seq UInt64, time Int64,
        actor_username Nullable(String), actor_key_id Nullable(String), actor_via LowCardinality(String),
        address String, action LowCardinality(String), target String,
        entity Nullable(String), project_id Nullable(String), outcome LowCardinality(String),
        details String, prev_hash String, hash String
      ) ENGINE = ReplacingMergeTree ORDER BY (chain, seq)`,
  ],
};
