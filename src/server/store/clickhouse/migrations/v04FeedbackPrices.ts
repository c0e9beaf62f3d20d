import type { ClickHouseMigration } from './migration.js';

export const v04FeedbackPrices: ClickHouseMigration = {
  version: 4,
  name: 'feedback and LLM prices',
  statements: [
    // One row per feedback id after merging: the newest version wins, and a tombstone
    // (is_deleted = 1, the row's values kept) hides it from FINAL reads. A retried create is
    // the same row again; replace inserts the old id's tombstone and the new row as one block.
    `CREATE TABLE IF NOT EXISTS feedback (
        project_id String,
        id String,
        weave_ref String,
        wb_user_id Nullable(String),
        creator Nullable(String),
        created_at Int64,
        feedback_type String,
        payload String,
        annotation_ref Nullable(String),
        runnable_ref Nullable(String),
        call_ref Nullable(String),
        trigger_ref Nullable(String),
        queue_id Nullable(String),
        version UInt64,
        is_deleted UInt8,
        INDEX i_ref weave_ref TYPE bloom_filter GRANULARITY 1,
        INDEX i_created created_at TYPE minmax GRANULARITY 1
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, id)`,
    // Prices of both levels keyed by their level id (the project, or 'default'), so one
    // project's write can never replace another's price; purges and re-seeding are tombstones.
    `CREATE TABLE IF NOT EXISTS llm_token_prices (
        id String,
        pricing_level String,
        pricing_level_id String,
        provider_id String,
        llm_id String,
        effective_date Int64,
        prompt_token_cost Float64,
        completion_token_cost Float64,
        cache_read_input_token_cost Float64,
        cache_creation_input_token_cost Float64,
        prompt_token_cost_unit String,
        completion_token_cost_unit String,
        created_by String,
        created_at Int64,
        version UInt64,
        is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (pricing_level_id, id)`,
  ],
};
