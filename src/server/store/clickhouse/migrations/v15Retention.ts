import type { ClickHouseMigration } from './migration.js';

/**
 * A row's expiry as ClickHouse TTL wants it (a DateTime): `expire_at` is epoch microseconds,
 * NULL (never) on every row until the retention sweep expires its call.
 */
const EXPIRY = 'toDateTime(intDiv(ifNull(expire_at, 4102444800000000), 1000000))';

export const v15Retention: ClickHouseMigration = {
  version: 15,
  name: 'retention rules and call expiry',
  statements: [
    // One row per project or entity default, the latest write winning, as the reference keeps
    // its project_ttl_settings; days 0 means the rule was removed (keep forever).
    `CREATE TABLE IF NOT EXISTS retention_rules (scope String, key String, days Int32, updated_at Int64, updated_by String)
        ENGINE = ReplacingMergeTree(updated_at) ORDER BY (scope, key)`,
    // A call's rows (its parts, its turn, its start-order entry) are dropped by the engine once
    // the merged row's expire_at has passed. The sweep writes expire_at with deleted_at, so a
    // read hides the call at once, however long the TTL merge takes (docs/operations/retention.md).
    'ALTER TABLE calls ADD COLUMN IF NOT EXISTS expire_at Nullable(Int64)',
    `ALTER TABLE calls MODIFY TTL ${EXPIRY} DELETE`,
    'ALTER TABLE thread_turns ADD COLUMN IF NOT EXISTS expire_at Nullable(Int64)',
    `ALTER TABLE thread_turns MODIFY TTL ${EXPIRY} DELETE`,
    'ALTER TABLE calls_by_start ADD COLUMN IF NOT EXISTS expire_at Nullable(Int64)',
    `ALTER TABLE calls_by_start MODIFY TTL ${EXPIRY} DELETE`,
  ],
};
