import type { ClickHouseMigration } from './migration.js';

export const v07CallsByStart: ClickHouseMigration = {
  version: 7,
  name: 'calls by start time',
  statements: [
    // The ids of the calls in start order, so a page sorted by start time (the calls page's
    // newest first) reads the newest starts in key order instead of every call (calls.ts
    // pageByStart). One row per start part written, trace roots marked, before the call's own
    // insert: every call's current start has a row here. Rows are never removed: what a read
    // finds here is checked against the merged calls (deleted, restarted, no longer a root).
    `CREATE TABLE IF NOT EXISTS calls_by_start (project_id String, started_at Int64, id String, is_root UInt8)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, started_at, id)`,
    // The calls written before this migration; run twice (two migrators), it only duplicates rows.
    // The column list (added after release, same rows) keeps it valid on the table with later
    // columns, where running it again by hand (docs/clickhouse.md "Migrations") would run it.
    `INSERT INTO calls_by_start (project_id, started_at, id, is_root) SELECT project_id, started_at, id, parent_id IS NULL
        FROM calls WHERE started_at IS NOT NULL`,
  ],
};
