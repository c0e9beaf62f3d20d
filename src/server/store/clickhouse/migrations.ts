/**
 * ClickHouse schema migrations. `weft migrate` applies them as an explicit deploy step; a
 * replica only checks at start that its database is current (ClickHouseStore.open).
 *
 * ClickHouse has no transactions or advisory locks, so every statement is idempotent
 * (`CREATE ... IF NOT EXISTS`, `ADD COLUMN IF NOT EXISTS`) and two migrators running at once
 * converge; `weft_schema_migrations` records what was applied (a duplicate row is harmless).
 * Never edit a shipped migration: add a new one, expand/contract style, so a rolling deploy can
 * run two Weft versions against one database. SQL here must run on the minimum server version.
 *
 * Layout (shared/design/clickhouse.md §4.2): every write is an INSERT that merges
 * order-independently and idempotently. Times are epoch microseconds in Int64 columns, like
 * the SQLite store, so no time zone or DateTime parsing takes part anywhere; JSON payloads are
 * JSON text in String columns.
 */
export interface ClickHouseMigration {
  version: number;
  name: string;
  statements: string[];
}

export const clickhouseMigrations: ClickHouseMigration[] = [
  {
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
  },
  {
    version: 2,
    name: 'tables and files',
    statements: [
      // Rows once per digest (content addresses: any copy is the same content).
      `CREATE TABLE IF NOT EXISTS table_rows (project_id String, digest String, val String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest)`,
      // A table is its ordered list of row digests, one row per position, so a page is a range.
      `CREATE TABLE IF NOT EXISTS table_entries (project_id String, table_digest String, idx UInt32, row_digest String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, table_digest, idx)`,
      // Written after its entries: a table is visible only once all of them are stored.
      `CREATE TABLE IF NOT EXISTS tables (project_id String, digest String, row_count UInt32, created_at Int64)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest)`,
      // A file's bytes (base64, since JSON carries text) in chunks of one copy; two replicas
      // storing the same digest at once write two copies, and \`files\` points at one of them,
      // so chunks of different copies never mix. The first copy wins (version = its rank).
      `CREATE TABLE IF NOT EXISTS file_chunks (project_id String, digest String, copy_id String, chunk_index UInt32, data_b64 String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest, copy_id, chunk_index)`,
      `CREATE TABLE IF NOT EXISTS files (project_id String, digest String, copy_id String, name String, size_bytes UInt64,
        created_at Int64, rank UInt64)
        ENGINE = ReplacingMergeTree(rank) ORDER BY (project_id, digest)`,
    ],
  },
  {
    version: 3,
    name: 'objects with tags and aliases',
    statements: [
      // One row per version (the newest write of it wins). \`generation\` counts how often the
      // digest was created: a deleted digest created again is its next generation.
      `CREATE TABLE IF NOT EXISTS object_versions (
        project_id String, object_id String, digest String, kind String,
        base_object_class Nullable(String), leaf_object_class Nullable(String),
        val String, size_bytes UInt64, wb_user_id Nullable(String),
        created_at Int64, deleted_at Nullable(Int64), generation UInt32, version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, object_id, digest)`,
      // Every creation of a version (the first of a generation wins, so a concurrent duplicate
      // collapses). version_index is computed from these at read time: the number of creations
      // of the object before this digest's last one, as the SQLite store's max+1 counts.
      `CREATE TABLE IF NOT EXISTS object_creations (
        project_id String, object_id String, digest String, generation UInt32, created_at Int64, rank UInt64
      ) ENGINE = ReplacingMergeTree(rank) ORDER BY (project_id, object_id, digest, generation)`,
      `CREATE TABLE IF NOT EXISTS object_tags (
        project_id String, object_id String, digest String, tag String, created_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, object_id, digest, tag)`,
      // Keyed by alias, so setting it on another version moves it (the newest write wins).
      `CREATE TABLE IF NOT EXISTS object_aliases (
        project_id String, object_id String, alias String, digest String, created_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, object_id, alias)`,
    ],
  },
  {
    version: 4,
    name: 'annotation queues, their items, progress, reservations and superseded answers; model providers',
    statements: [
      // A queue row is rewritten whole by each change (read, merge, insert a newer version), so
      // two concurrent updates of different fields keep the later one's row: last writer wins.
      `CREATE TABLE IF NOT EXISTS annotation_queues (
        project_id String, id String, name String, description String, scorer_refs String,
        display_fields Nullable(String), reviewers_per_item UInt32, created_by String,
        created_at Int64, updated_at Int64, deleted_at Nullable(Int64), version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, id)`,
      // Keyed by call, so adding the same call twice (a retry, or two replicas at once)
      // collapses into one item: the first add wins (rank falls with time, as in the files table).
      `CREATE TABLE IF NOT EXISTS annotation_queue_items (
        project_id String, queue_id String, call_id String, id String,
        call_started_at Int64, call_ended_at Nullable(Int64), call_op_name String, call_trace_id String,
        display_fields String, added_by Nullable(String), created_by String, created_at Int64, updated_at Int64,
        thread_id Nullable(String), rank UInt64,
        INDEX i_id id TYPE bloom_filter GRANULARITY 1
      ) ENGINE = ReplacingMergeTree(rank) ORDER BY (project_id, queue_id, call_id)`,
      // One record per (item, annotator); the newest version wins. The item's aggregated state
      // is the record with the greatest (updated_at, version, annotator), computed at read time.
      `CREATE TABLE IF NOT EXISTS annotator_progress (
        project_id String, queue_item_id String, annotator_id String, queue_id String,
        annotation_state LowCardinality(String), created_at Int64, updated_at Int64, version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, queue_item_id, annotator_id)`,
      // Who holds an item until when; a release or a move inserts a tombstone (is_deleted = 1),
      // and an expired row counts for nothing at read time, so nothing needs sweeping.
      `CREATE TABLE IF NOT EXISTS annotation_item_reservations (
        project_id String, queue_id String, queue_item_id String, annotator_id String,
        expires_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, queue_id, queue_item_id, annotator_id)`,
      // Queue answers a reviewer replaced by editing an item: the feedback row as it was.
      `CREATE TABLE IF NOT EXISTS feedback_superseded (
        project_id String, id String, weave_ref String, wb_user_id Nullable(String), creator Nullable(String),
        created_at Int64, feedback_type String, payload String, annotation_ref Nullable(String),
        queue_id String, queue_item_id String, superseded_at Int64
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, queue_id, id)`,
      // Model providers; api_key_sealed is the secret box's ciphertext (auth/secretBox.ts), as on SQLite.
      `CREATE TABLE IF NOT EXISTS model_providers (
        project_id String, id String, name String, base_url String,
        api_key_sealed Nullable(String), api_key_mask Nullable(String), auth_style String,
        extra_headers String, models String, price_ids String, created_by String,
        created_at Int64, updated_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, id)`,
    ],
  },
];

/** The newest schema version this build knows. */
export const LATEST_CLICKHOUSE_VERSION = clickhouseMigrations.at(-1)!.version;

export const SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS weft_schema_migrations (version UInt32, name String, applied_at Int64)
  ENGINE = ReplacingMergeTree ORDER BY version`;
