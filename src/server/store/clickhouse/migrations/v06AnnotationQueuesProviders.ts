import type { ClickHouseMigration } from './migration.js';

export const v06AnnotationQueuesProviders: ClickHouseMigration = {
  version: 6,
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
};
