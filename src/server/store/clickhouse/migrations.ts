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
 * Layout (docs/clickhouse.md "Tables"): every write is an INSERT that merges
 * order-independently and idempotently. Times are epoch microseconds in Int64 columns, like
 * the SQLite store, so no time zone or DateTime parsing takes part anywhere; JSON payloads are
 * JSON text in String columns.
 */
import { turnSideTextSql } from './threadSearch.js';
import { SUMMARY_TOKENS, SUMMARY_USAGE, SUMMARY_USAGE_CELLS } from './usageSql.js';

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
  },
  {
    version: 5,
    name: 'jobs and monitor sweeps',
    statements: [
      // A job as enqueued; everything that happens to it is a row in job_slots. An id names one
      // job, so enqueueing it again (a retry, a monitor batch applied twice) collapses.
      `CREATE TABLE IF NOT EXISTS jobs (
        project_id String, id String, kind String, payload String, created_by String, created_at Int64
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, id)`,
      // A job's transitions (claim, succeeded, failed, cancelled) as a log decided slot by slot
      // (jobs.ts, consensus.ts): every proposal for a slot is inserted with the deduplication
      // token "<job>/<slot>", so one row per slot is stored however many processes race, and
      // the window keeps the tokens of the last 10,000 proposals. A row that still got in (a
      // proposer stalled past the window) loses to the earliest by (decided_at, token).
      `CREATE TABLE IF NOT EXISTS job_slots (
        job_id String, slot UInt32, action LowCardinality(String), owner String, token String, at Int64,
        error Nullable(String), result Nullable(String),
        decided_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))
      ) ENGINE = MergeTree ORDER BY (job_id, slot) SETTINGS non_replicated_deduplication_window = 10000`,
      // Owner-only marks, keyed by the claim (slot) that wrote them, so a late write of a
      // superseded owner never counts for the claim that replaced it.
      `CREATE TABLE IF NOT EXISTS job_heartbeats (job_id String, slot UInt32, at Int64)
        ENGINE = ReplacingMergeTree(at) ORDER BY (job_id, slot)`,
      `CREATE TABLE IF NOT EXISTS job_progress (job_id String, slot UInt32, done Int64, total Nullable(Int64), version UInt64)
        ENGINE = ReplacingMergeTree(version) ORDER BY (job_id, slot)`,
      `CREATE TABLE IF NOT EXISTS job_cancels (job_id String, requested_at Int64) ENGINE = ReplacingMergeTree ORDER BY job_id`,
      // The jobs a claim must look at: a row per job when enqueued, replaced by a deleted row
      // (version 1) by the process that decides the job's final transition, so FINAL reads only
      // the open ones. A close lost in a crash leaves a finished job in the scan, where its
      // decided slots still show it finished.
      `CREATE TABLE IF NOT EXISTS jobs_open (job_id String, project_id String, version UInt8, is_deleted UInt8)
        ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY job_id`,
      // When each part of a call reached a Weft process (its clock, µs): the monitor sweeper
      // finds newly ended calls by these, since ended_at is the client's clock and arrives late.
      // And the monitor sweep that handed the call out (a part of its own, coalesced into the
      // call like a rename), so it is never handed out again, also after a retried end.
      `ALTER TABLE calls ADD COLUMN IF NOT EXISTS start_seen_at Nullable(Int64), ADD COLUMN IF NOT EXISTS end_seen_at Nullable(Int64),
        ADD COLUMN IF NOT EXISTS monitor_swept_slot Nullable(UInt32)`,
      `ALTER TABLE calls ADD INDEX IF NOT EXISTS i_seen greatest(ifNull(start_seen_at, 0), ifNull(end_seen_at, 0)) TYPE minmax GRANULARITY 1`,
      // The monitor sweeps of a project, one decided batch per slot (monitors.ts), as job_slots.
      `CREATE TABLE IF NOT EXISTS monitor_sweeps (
        project_id String, slot UInt32, token String, high Int64, call_ids Array(String), jobs String,
        decided_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))
      ) ENGINE = MergeTree ORDER BY (project_id, slot) SETTINGS non_replicated_deduplication_window = 10000`,
      // Projects whose monitors were all inactive when last swept, up to which Monitor version.
      `CREATE TABLE IF NOT EXISTS monitor_forgotten (project_id String, monitors_up_to Int64)
        ENGINE = ReplacingMergeTree(monitors_up_to) ORDER BY project_id`,
    ],
  },
  {
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
  },
  {
    version: 7,
    name: 'calls by start time',
    statements: [
      // The ids of the calls in start order, so a page sorted by start time (the calls page's
      // newest first) reads the newest starts in key order instead of every call (calls.ts
      // idsByStart). One row per start part written, trace roots marked, before the call's own
      // insert: every call's current start has a row here. Rows are never removed: what a read
      // finds here is checked against the merged calls (deleted, restarted, no longer a root).
      `CREATE TABLE IF NOT EXISTS calls_by_start (project_id String, started_at Int64, id String, is_root UInt8)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, started_at, id)`,
      // The calls written before this migration; run twice (two migrators), it only duplicates rows.
      `INSERT INTO calls_by_start SELECT project_id, started_at, id, parent_id IS NULL FROM calls WHERE started_at IS NOT NULL`,
    ],
  },
  {
    version: 8,
    name: "a call's error flag, token total and usage by model from its summary, as columns",
    statements: [
      // What thread statistics read of a summary, computed once when the end part is inserted
      // (a column default: writers send only the summary) instead of parsing JSON per turn on
      // every threads request. NULL without a summary, so a start or rename part never
      // coalesces over the end's value. Usage by model is a JSON array of [model, input,
      // output] (an array cannot be Nullable), read with one typed JSONExtract. Tokens follow
      // the one usage rule (usageSql.ts) as printed when this migration was written: a later
      // change of the rule needs a new migration that recomputes them.
      `ALTER TABLE calls
        ADD COLUMN IF NOT EXISTS summary_error Nullable(UInt8)
          DEFAULT if(summary IS NULL, NULL, JSONExtractInt(summary, 'status_counts', 'error') > 0),
        ADD COLUMN IF NOT EXISTS summary_tokens Nullable(Int64)
          DEFAULT if(summary IS NULL, NULL, ${SUMMARY_TOKENS}),
        ADD COLUMN IF NOT EXISTS summary_usage Nullable(String)
          DEFAULT if(summary IS NULL, NULL, ${SUMMARY_USAGE})`,
      // Rows written before this migration get the columns too (a mutation, run in the background).
      'ALTER TABLE calls MATERIALIZE COLUMN summary_error, MATERIALIZE COLUMN summary_tokens, MATERIALIZE COLUMN summary_usage',
    ],
  },
  {
    version: 9,
    name: "a call's usage cells by model from its summary, as a column",
    statements: [
      // What /calls/stats adds up per model (entries, input, output, total, cache read and
      // cache creation tokens; usageSql.ts SUMMARY_USAGE_CELLS), computed once when the end part
      // is inserted instead of parsing the summary's usage per call on every stats request, where
      // it was most of the engine's time. Nullable and NULL without a summary for the reason
      // given at migration 8; the same holds when the usage rule changes.
      `ALTER TABLE calls ADD COLUMN IF NOT EXISTS summary_usage_cells Nullable(String)
        DEFAULT if(summary IS NULL, NULL, ${SUMMARY_USAGE_CELLS})`,
      'ALTER TABLE calls MATERIALIZE COLUMN summary_usage_cells',
    ],
  },
  {
    version: 10,
    name: 'thread turns',
    statements: [
      // What thread statistics read of a call, narrow and for turns only, so a threads request
      // merges a project's turns (a fifth of its calls in a typical agent) instead of every
      // call (threads.ts). Written beside calls with the same parts (calls.ts): a turn's start
      // (turn_id = id, a thread), its end, and a delete. An end alone cannot tell whether its
      // call is a turn, so every end without its start in the same batch has a row; merged
      // without a thread_id it is no turn, and reads skip it. The summary is EPHEMERAL (never
      // stored): the three columns computed from it are the calls columns of migration 8, by
      // the same expressions, Nullable and NULL without a summary for the reason given there.
      // has_exception is 1 or NULL for the same reason. Rows are never removed.
      `CREATE TABLE IF NOT EXISTS thread_turns (
        project_id String,
        id String,
        thread_id Nullable(String),
        started_at Nullable(Int64),
        ended_at Nullable(Int64),
        has_exception Nullable(UInt8),
        summary Nullable(String) EPHEMERAL,
        summary_error Nullable(UInt8) DEFAULT if(summary IS NULL, NULL, JSONExtractInt(summary, 'status_counts', 'error') > 0),
        summary_tokens Nullable(Int64) DEFAULT if(summary IS NULL, NULL, ${SUMMARY_TOKENS}),
        summary_usage Nullable(String) DEFAULT if(summary IS NULL, NULL, ${SUMMARY_USAGE}),
        deleted_at Nullable(Int64)
      ) ENGINE = CoalescingMergeTree ORDER BY (project_id, id)`,
      // The calls written before this migration, part by part as the writer would have written
      // them (a turn's start with its thread, other calls' starts not at all, ends and deletes
      // of any call); run twice (two migrators), the parts coalesce to the same rows. The column
      // list (added with migration 11, same rows) keeps it valid on a table with later columns,
      // where a migrator running behind another one would run it.
      `INSERT INTO thread_turns (project_id, id, thread_id, started_at, ended_at, has_exception,
          summary_error, summary_tokens, summary_usage, deleted_at) SELECT project_id, id,
          if(turn_id = id AND ifNull(thread_id, '') != '', thread_id, NULL),
          if(turn_id = id AND ifNull(thread_id, '') != '', started_at, NULL),
          ended_at, if(exception IS NULL, NULL, 1), summary_error, summary_tokens, summary_usage, deleted_at
        FROM calls
        WHERE (turn_id = id AND ifNull(thread_id, '') != '') OR (started_at IS NULL AND (ended_at IS NOT NULL OR deleted_at IS NOT NULL))`,
    ],
  },
  {
    version: 11,
    name: "thread turns' searchable text and attributes",
    statements: [
      // What thread search and attribute filters read of a turn, beside its statistics, so a
      // filtered threads request merges thread_turns alone instead of the turns' rows of calls
      // with their whole payloads, and parses no JSON (threads.ts). The writer sends a turn's
      // start with its inputs and attributes, and every end it sends with its output (calls.ts);
      // inputs and output are EPHEMERAL (never stored): the columns keep only the searchable
      // text of each (threadSearch.ts, at most 8000 characters a side), Nullable and NULL
      // without the payload so a part without it never coalesces over it. The text rule is
      // threadSearch.ts's: a change of it must come with a new migration that recomputes the
      // columns, or databases migrated before the change keep text made by the old rule.
      `ALTER TABLE thread_turns
        ADD COLUMN IF NOT EXISTS inputs Nullable(String) EPHEMERAL,
        ADD COLUMN IF NOT EXISTS output Nullable(String) EPHEMERAL,
        ADD COLUMN IF NOT EXISTS inputs_text Nullable(String) DEFAULT if(inputs IS NULL, NULL, ${turnSideTextSql('inputs')}),
        ADD COLUMN IF NOT EXISTS output_text Nullable(String) DEFAULT if(output IS NULL, NULL, ${turnSideTextSql('output')}),
        ADD COLUMN IF NOT EXISTS attributes Nullable(String)`,
      // The calls written before this migration, part by part as the writer would have written
      // them (migration 10's backfill): a turn's start part with its inputs and attributes (and
      // its output when the part holds the end too), an end part with its output. Run twice,
      // the parts coalesce to the same rows.
      `INSERT INTO thread_turns (project_id, id, inputs, output, attributes) SELECT project_id, id,
          if(turn_id = id AND ifNull(thread_id, '') != '', inputs, NULL), output,
          if(turn_id = id AND ifNull(thread_id, '') != '', attributes, NULL)
        FROM calls
        WHERE (turn_id = id AND ifNull(thread_id, '') != '') OR (started_at IS NULL AND output IS NOT NULL)`,
    ],
  },
  {
    version: 12,
    name: "scorers' typed results on feedback",
    statements: [
      // A scorer's typed results and the scored span beside the payload, as the newest reference
      // stores them (contract ScorerFeedbackFields). Collections as JSON text, like SQLite's, so
      // both stores answer /feedback/query alike; rows written before read as empty ones.
      `ALTER TABLE feedback
        ADD COLUMN IF NOT EXISTS scorer_tags String DEFAULT '[]',
        ADD COLUMN IF NOT EXISTS scorer_tag_reasons String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_tag_confidences String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_ratings String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_rating_reasons String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_rating_confidences String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_trace_id Nullable(String),
        ADD COLUMN IF NOT EXISTS span_agent_name Nullable(String),
        ADD COLUMN IF NOT EXISTS span_agent_version Nullable(String),
        ADD COLUMN IF NOT EXISTS span_conversation_id Nullable(String),
        ADD COLUMN IF NOT EXISTS span_status_code Nullable(String),
        ADD COLUMN IF NOT EXISTS span_trace_id Nullable(String)`,
    ],
  },
];

/** The newest schema version this build knows. */
export const LATEST_CLICKHOUSE_VERSION = clickhouseMigrations.at(-1)!.version;

export const SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS weft_schema_migrations (version UInt32, name String, applied_at Int64)
  ENGINE = ReplacingMergeTree ORDER BY version`;
