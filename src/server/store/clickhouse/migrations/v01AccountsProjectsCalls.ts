import type { ClickHouseMigration } from './migration.js';

export const v01AccountsProjectsCalls: ClickHouseMigration = {
  version: 1,
  name: 'accounts, sessions, projects and calls',
  statements: [
    // Users: the whole row is rewritten by each change (read, merge, insert a newer version).
    `CREATE TABLE IF NOT EXISTS users (
        username String,
        password_hash Nullable(String),
        is_admin UInt8,
        default_entity Nullable(String),
        created_at Int64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY username`,
    // Entities only ever get added, so a duplicate insert collapses.
    `CREATE TABLE IF NOT EXISTS user_entities (username String, entity String)
        ENGINE = ReplacingMergeTree ORDER BY (username, entity)`,
    `CREATE TABLE IF NOT EXISTS api_keys (
        key_id String,
        username String,
        key_hash String,
        name String,
        created_at Int64,
        revoked_at Nullable(Int64),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY key_id`,
    `CREATE TABLE IF NOT EXISTS sessions (
        session_id String,
        token_hash String,
        username String,
        created_at Int64,
        last_seen_at Int64,
        expires_at Int64,
        user_agent String,
        address String,
        version UInt64,
        is_deleted UInt8,
        INDEX i_token token_hash TYPE bloom_filter GRANULARITY 1
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY session_id`,
    // Bumped by every revocation and password change; replicas poll it to drop cached credentials.
    `CREATE TABLE IF NOT EXISTS accounts_epoch (id UInt8, epoch UInt64) ENGINE = ReplacingMergeTree(epoch) ORDER BY id`,
    // A project exists once something is written to it, or once it is created.
    `CREATE TABLE IF NOT EXISTS projects (project_id String, entity String, created_at Int64)
        ENGINE = ReplacingMergeTree ORDER BY project_id`,
    // One row per call after merging. Each write inserts only its own columns, the others
    // NULL, and CoalescingMergeTree keeps each column's last non-null value: a start, an end,
    // a rename and a delete merge in any order, and a retry is the same row again. Reads use
    // FINAL, so answers never depend on when background merges run.
    `CREATE TABLE IF NOT EXISTS calls (
        project_id String,
        id String,
        trace_id Nullable(String),
        parent_id Nullable(String),
        thread_id Nullable(String),
        turn_id Nullable(String),
        op_name Nullable(String),
        op_base_name Nullable(String),
        started_at Nullable(Int64),
        attributes Nullable(String),
        inputs Nullable(String),
        otel_dump Nullable(String),
        input_refs Nullable(String),
        wb_user_id Nullable(String),
        wb_run_id Nullable(String),
        wb_run_step Nullable(Int64),
        ended_at Nullable(Int64),
        exception Nullable(String),
        output Nullable(String),
        summary Nullable(String),
        output_refs Nullable(String),
        wb_run_step_end Nullable(Int64),
        display_name Nullable(String),
        deleted_at Nullable(Int64),
        part_ts Int64,
        INDEX i_trace trace_id TYPE bloom_filter GRANULARITY 1,
        INDEX i_parent parent_id TYPE bloom_filter GRANULARITY 1,
        INDEX i_thread thread_id TYPE bloom_filter GRANULARITY 1,
        INDEX i_ts part_ts TYPE minmax GRANULARITY 1
      ) ENGINE = CoalescingMergeTree ORDER BY (project_id, id)`,
  ],
};
