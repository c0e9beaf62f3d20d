/**
 * SQLite schema migrations, applied in order at start-up inside one transaction each.
 * `PRAGMA user_version` records the last one applied. Never edit a shipped migration:
 * add a new one.
 */
import type { Migration } from './migration.js';
import { monitorInboxMigration } from './monitorInbox.js';
import { threadRangeFacts } from './v15ThreadRangeFacts.js';
import { usageRuleMigration } from './v16UsageRule.js';
import { loginFailuresMigration } from './v17LoginFailures.js';
import { latencyBinsMigration } from './v18LatencyBins.js';
import { threadsByLastUpdated } from './v19ThreadsByLastUpdated.js';
import { callStatsTotals } from './v20CallStatsTotals.js';
import { scorerFeedback } from './v21ScorerFeedback.js';

export type { Migration } from './migration.js';

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'accounts, projects and calls',
    sql: `
      CREATE TABLE users (
        username      TEXT PRIMARY KEY,
        password_hash TEXT,
        is_admin      INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL
      );
      CREATE TABLE user_entities (
        username TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        entity   TEXT NOT NULL,
        PRIMARY KEY (username, entity)
      );
      CREATE TABLE api_keys (
        key_id     TEXT PRIMARY KEY,
        username   TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        key_hash   TEXT NOT NULL,
        name       TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );

      -- A project exists once something is written to it.
      CREATE TABLE projects (
        project_id TEXT PRIMARY KEY,
        entity     TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- One row per call: the start part and the end part are merged into it in either
      -- order. A row whose start has not arrived (started_at IS NULL) is invisible.
      -- Times are epoch microseconds. JSON columns hold JSON text.
      CREATE TABLE calls (
        project_id      TEXT NOT NULL,
        id              TEXT NOT NULL,
        trace_id        TEXT,
        parent_id       TEXT,
        thread_id       TEXT,
        turn_id         TEXT,
        op_name         TEXT,
        op_base_name    TEXT,     -- op_name, or the name inside an op ref; for trace_name
        display_name    TEXT,
        started_at      INTEGER,
        ended_at        INTEGER,
        attributes      TEXT,
        inputs          TEXT,
        output          TEXT,
        summary         TEXT,
        exception       TEXT,
        otel_dump       TEXT,
        input_refs      TEXT,     -- JSON array of weave:/// refs found in inputs
        output_refs     TEXT,     -- JSON array of weave:/// refs found in output
        wb_user_id      TEXT,
        wb_run_id       TEXT,
        wb_run_step     INTEGER,
        wb_run_step_end INTEGER,
        deleted_at      INTEGER,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX calls_by_start  ON calls (project_id, started_at);
      CREATE INDEX calls_by_trace  ON calls (project_id, trace_id);
      CREATE INDEX calls_by_parent ON calls (project_id, parent_id);
      CREATE INDEX calls_by_op     ON calls (project_id, op_name, started_at);
      CREATE INDEX calls_by_thread ON calls (project_id, thread_id) WHERE thread_id IS NOT NULL;
    `,
  },
  // Listed in version order: a migration placed after a higher version would be skipped.
  {
    version: 2,
    name: 'objects with tags and aliases, tables, files',
    sql: `
      -- One row per object version. version_index and is_latest are maintained by the store
      -- in the write transaction (the newest live version is the latest).
      CREATE TABLE objects (
        project_id        TEXT NOT NULL,
        object_id         TEXT NOT NULL,
        digest            TEXT NOT NULL,
        kind              TEXT NOT NULL,
        base_object_class TEXT,
        leaf_object_class TEXT,
        val               TEXT NOT NULL,     -- compact JSON, floats as written (1.0)
        size_bytes        INTEGER NOT NULL,
        version_index     INTEGER NOT NULL,
        is_latest         INTEGER NOT NULL,
        wb_user_id        TEXT,
        created_at        INTEGER NOT NULL,
        deleted_at        INTEGER,
        PRIMARY KEY (project_id, object_id, digest)
      );
      CREATE INDEX objects_by_created ON objects (project_id, created_at, version_index);
      CREATE INDEX objects_by_version ON objects (project_id, object_id, version_index);

      CREATE TABLE object_tags (
        project_id TEXT NOT NULL,
        object_id  TEXT NOT NULL,
        digest     TEXT NOT NULL,
        tag        TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, object_id, digest, tag)
      ) WITHOUT ROWID;
      CREATE INDEX object_tags_by_tag ON object_tags (project_id, tag);

      -- An alias names one version of an object at a time.
      CREATE TABLE object_aliases (
        project_id TEXT NOT NULL,
        object_id  TEXT NOT NULL,
        alias      TEXT NOT NULL,
        digest     TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, object_id, alias)
      ) WITHOUT ROWID;
      CREATE INDEX object_aliases_by_version ON object_aliases (project_id, object_id, digest);

      -- Table rows are stored once per digest; a table is its ordered list of row digests,
      -- kept in chunks (JSON arrays) so a large table streams one chunk at a time.
      CREATE TABLE table_rows (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        val        TEXT NOT NULL,
        PRIMARY KEY (project_id, digest)
      );
      CREATE TABLE tables (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        row_count  INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, digest)
      ) WITHOUT ROWID;
      CREATE TABLE table_chunks (
        project_id   TEXT NOT NULL,
        table_digest TEXT NOT NULL,
        start_index  INTEGER NOT NULL,
        row_count    INTEGER NOT NULL,
        row_digests  TEXT NOT NULL,
        PRIMARY KEY (project_id, table_digest, start_index)
      );

      -- Files in chunks of at most 1 MiB, streamed back chunk by chunk.
      CREATE TABLE files (
        project_id  TEXT NOT NULL,
        digest      TEXT NOT NULL,
        name        TEXT NOT NULL,
        size_bytes  INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (project_id, digest)
      ) WITHOUT ROWID;
      CREATE TABLE file_chunks (
        project_id  TEXT NOT NULL,
        digest      TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data        BLOB NOT NULL,
        PRIMARY KEY (project_id, digest, chunk_index)
      );
    `,
  },
  {
    version: 3,
    name: 'feedback and LLM prices',
    sql: `
      -- Feedback on refs (usually calls). payload holds JSON text; times are epoch microseconds.
      -- A client-chosen id that is written again replaces the row (latest write wins).
      CREATE TABLE feedback (
        project_id     TEXT NOT NULL,
        id             TEXT NOT NULL,
        weave_ref      TEXT NOT NULL,
        wb_user_id     TEXT,
        creator        TEXT,
        created_at     INTEGER NOT NULL,
        feedback_type  TEXT NOT NULL,
        payload        TEXT NOT NULL,
        annotation_ref TEXT,
        runnable_ref   TEXT,
        call_ref       TEXT,
        trigger_ref    TEXT,
        queue_id       TEXT,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX feedback_by_ref  ON feedback (project_id, weave_ref);
      CREATE INDEX feedback_by_time ON feedback (project_id, created_at);

      -- Per-token LLM prices: 'default' level (the shipped list, reseeded at every start) and
      -- 'project' level (pricing_level_id = project id). Costs are REAL, dates microseconds.
      CREATE TABLE llm_token_prices (
        id                         TEXT PRIMARY KEY,
        pricing_level              TEXT NOT NULL,
        pricing_level_id           TEXT NOT NULL,
        provider_id                TEXT NOT NULL,
        llm_id                     TEXT NOT NULL,
        effective_date             INTEGER NOT NULL,
        prompt_token_cost          REAL NOT NULL,
        completion_token_cost      REAL NOT NULL,
        prompt_token_cost_unit     TEXT NOT NULL,
        completion_token_cost_unit TEXT NOT NULL,
        created_by                 TEXT NOT NULL,
        created_at                 INTEGER NOT NULL
      );
      CREATE INDEX llm_token_prices_by_level ON llm_token_prices (pricing_level_id, pricing_level, llm_id, effective_date);
    `,
  },
  {
    version: 4,
    name: 'thread statistics kept up to date by triggers',
    sql: `
      -- Turn calls (id = turn_id) by thread, for recomputing one thread and for date filters.
      CREATE INDEX calls_turns ON calls (project_id, thread_id, started_at)
        WHERE turn_id = id AND thread_id IS NOT NULL;

      -- One row per thread: the statistics of its live turn calls, recomputed (in the same
      -- transaction) whenever one of its turns is written, ended late, moved or deleted.
      CREATE TABLE thread_stats (
        project_id           TEXT NOT NULL,
        thread_id            TEXT NOT NULL,
        turn_count           INTEGER NOT NULL,
        finished_turn_count  INTEGER NOT NULL,
        start_time           INTEGER NOT NULL,
        last_updated         INTEGER,
        first_turn_id        TEXT,
        last_turn_id         TEXT,
        p50_turn_duration_ms REAL,
        p99_turn_duration_ms REAL,
        error_count          INTEGER NOT NULL,
        total_tokens         INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id)
      ) WITHOUT ROWID;

      -- Threads whose statistics are stale; filled by the triggers below, emptied by the
      -- refresh at the end of every write transaction. No unique key on purpose: inside a
      -- trigger, the outer upsert's conflict policy would override OR IGNORE and abort, so
      -- duplicates are allowed here and removed by the refresh (SELECT DISTINCT).
      CREATE TABLE dirty_threads (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL
      );

      CREATE TRIGGER calls_turn_inserted AFTER INSERT ON calls
      WHEN NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != ''
      BEGIN
        INSERT INTO dirty_threads VALUES (NEW.project_id, NEW.thread_id);
      END;

      CREATE TRIGGER calls_turn_updated
      AFTER UPDATE OF thread_id, turn_id, started_at, ended_at, exception, summary, deleted_at ON calls
      WHEN (OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL) OR (NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL)
      BEGIN
        INSERT INTO dirty_threads SELECT OLD.project_id, OLD.thread_id
          WHERE OLD.turn_id = OLD.id AND OLD.thread_id IS NOT NULL AND OLD.thread_id != '';
        INSERT INTO dirty_threads SELECT NEW.project_id, NEW.thread_id
          WHERE NEW.turn_id = NEW.id AND NEW.thread_id IS NOT NULL AND NEW.thread_id != '';
      END;
    `,
  },
  {
    version: 5,
    name: 'annotation queues, their items and per-annotator progress',
    sql: `
      -- scorer_refs is a JSON array of refs. A deleted queue (deleted_at set) hides its items
      -- and their progress from every read; nothing under it is deleted.
      CREATE TABLE annotation_queues (
        project_id  TEXT NOT NULL,
        id          TEXT NOT NULL,
        name        TEXT NOT NULL,
        description TEXT NOT NULL,
        scorer_refs TEXT NOT NULL,
        created_by  TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        deleted_at  INTEGER,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX annotation_queues_by_created ON annotation_queues (project_id, created_at);

      -- One item per call and queue; the call fields are copied when the call is added and
      -- not refreshed later. display_fields is a JSON array of paths.
      CREATE TABLE annotation_queue_items (
        project_id      TEXT NOT NULL,
        id              TEXT NOT NULL,
        queue_id        TEXT NOT NULL,
        call_id         TEXT NOT NULL,
        call_started_at INTEGER NOT NULL,
        call_ended_at   INTEGER,
        call_op_name    TEXT NOT NULL,
        call_trace_id   TEXT NOT NULL,
        display_fields  TEXT NOT NULL,
        added_by        TEXT,
        created_by      TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        PRIMARY KEY (project_id, id),
        UNIQUE (project_id, queue_id, call_id)
      );
      CREATE INDEX annotation_queue_items_by_created ON annotation_queue_items (project_id, queue_id, created_at, id);

      -- One record per (item, annotator). updated_at is unique per item (the store keeps it
      -- increasing), so "the latest record" is always one record.
      CREATE TABLE annotator_queue_items_progress (
        project_id       TEXT NOT NULL,
        queue_item_id    TEXT NOT NULL,
        annotator_id     TEXT NOT NULL,
        queue_id         TEXT NOT NULL,
        annotation_state TEXT NOT NULL CHECK (annotation_state IN ('in_progress', 'completed', 'skipped')),
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL,
        PRIMARY KEY (project_id, queue_item_id, annotator_id)
      ) WITHOUT ROWID;
      CREATE INDEX annotator_progress_by_queue ON annotator_queue_items_progress (project_id, queue_id, annotation_state);
    `,
  },
  {
    version: 6,
    name: 'call statistics in 1-hour and 5-minute cells',
    sql: `
      -- Visible calls (started, not deleted) per project, cell of started_at (width 3600 or
      -- 300 s, in microseconds; cell = started_at / width) and op: counts, latency (ms, finished
      -- calls) summary and histogram (domain/statsHistogram.ts). Read by /calls/stats and kept
      -- current by the writer connection's journal (store/sqlite/statsJournal.ts).
      CREATE TABLE call_stats_cells (
        project_id    TEXT NOT NULL,
        width         INTEGER NOT NULL,
        cell          INTEGER NOT NULL,
        op_name       TEXT NOT NULL,
        call_count    INTEGER NOT NULL,
        error_count   INTEGER NOT NULL,
        latency_count INTEGER NOT NULL,
        latency_sum   INTEGER NOT NULL,
        latency_min   INTEGER,
        latency_max   INTEGER,
        latency_hist  BLOB,
        PRIMARY KEY (project_id, width, cell, op_name)
      ) WITHOUT ROWID;

      -- The same cells per model of summary.usage: entries and token sums. A cell whose
      -- entries were all deleted keeps a row of zeros (reads skip them).
      CREATE TABLE usage_stats_cells (
        project_id                  TEXT NOT NULL,
        width                       INTEGER NOT NULL,
        cell                        INTEGER NOT NULL,
        op_name                     TEXT NOT NULL,
        model                       TEXT NOT NULL,
        entry_count                 INTEGER NOT NULL,
        input_tokens                INTEGER NOT NULL,
        output_tokens               INTEGER NOT NULL,
        total_tokens                INTEGER NOT NULL,
        total_tokens_count          INTEGER NOT NULL,
        cache_read_input_tokens     INTEGER NOT NULL,
        cache_creation_input_tokens INTEGER NOT NULL,
        PRIMARY KEY (project_id, width, cell, op_name, model)
      ) WITHOUT ROWID;

      -- Whether the cells hold the calls stored before they existed: the store folds those in
      -- once, at its first open after this migration (store/sqlite/statsJournal.ts).
      CREATE TABLE stats_rollup_state (backfilled INTEGER NOT NULL);
      INSERT INTO stats_rollup_state VALUES (0);
    `,
  },
  {
    version: 7,
    name: 'annotation queues keep the call fields reviewers see',
    sql: `
      -- A JSON array of call paths (inputs.prompt, output); NULL when none were chosen, as for
      -- queues created before this column or by clients that do not know it.
      ALTER TABLE annotation_queues ADD COLUMN display_fields TEXT;
    `,
  },
  {
    version: 8,
    name: 'a default entity per user',
    sql: `
      -- The entity a bare project name goes to (the W&B GraphQL viewer.defaultEntity the SDKs
      -- ask for). NULL until the user has an entity; users created before this column take the
      -- first entity they were given (user_entities keeps insertion order in its rowid).
      ALTER TABLE users ADD COLUMN default_entity TEXT;
      UPDATE users SET default_entity =
        (SELECT ue.entity FROM user_entities ue WHERE ue.username = users.username ORDER BY ue.rowid LIMIT 1);
    `,
  },
  {
    version: 9,
    name: 'prices of cached prompt tokens',
    sql: `
      -- Per-token prices of prompt tokens read from / written to a provider's cache, as the
      -- newest reference's cost rows carry them; 0 for prices stored before.
      ALTER TABLE llm_token_prices ADD COLUMN cache_read_input_token_cost REAL NOT NULL DEFAULT 0;
      ALTER TABLE llm_token_prices ADD COLUMN cache_creation_input_token_cost REAL NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 10,
    name: 'annotation queues: reviewers per item, thread items, reservations and superseded answers',
    sql: `
      -- How many reviewers should complete each item before fetch-next stops offering it.
      ALTER TABLE annotation_queues ADD COLUMN reviewers_per_item INTEGER NOT NULL DEFAULT 1;

      -- An item that stands for a whole conversation: call_id is then the thread's first turn
      -- (where the answers land as feedback) and thread_id the conversation reviewers see.
      ALTER TABLE annotation_queue_items ADD COLUMN thread_id TEXT;

      -- Who holds an item for review until when (epoch microseconds). Fetch-next reserves,
      -- submit and skip release, and an expired row counts for nothing (and is swept).
      CREATE TABLE annotation_item_reservations (
        project_id    TEXT NOT NULL,
        queue_item_id TEXT NOT NULL,
        annotator_id  TEXT NOT NULL,
        queue_id      TEXT NOT NULL,
        expires_at    INTEGER NOT NULL,
        PRIMARY KEY (project_id, queue_item_id, annotator_id)
      ) WITHOUT ROWID;
      CREATE INDEX annotation_reservations_by_queue ON annotation_item_reservations (project_id, queue_id, annotator_id);

      -- Queue answers a reviewer replaced by editing the item: the feedback row as it was,
      -- moved here (so /feedback/query shows one current answer) with when and for which item.
      CREATE TABLE feedback_superseded (
        project_id     TEXT NOT NULL,
        id             TEXT NOT NULL,
        weave_ref      TEXT NOT NULL,
        wb_user_id     TEXT,
        creator        TEXT,
        created_at     INTEGER NOT NULL,
        feedback_type  TEXT NOT NULL,
        payload        TEXT NOT NULL,
        annotation_ref TEXT,
        queue_id       TEXT,
        queue_item_id  TEXT,
        superseded_at  INTEGER NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX feedback_superseded_by_item ON feedback_superseded (project_id, queue_id, queue_item_id);

      -- A queue's current answers, for its results, summary and export.
      CREATE INDEX feedback_by_queue ON feedback (project_id, queue_id) WHERE queue_id IS NOT NULL;
    `,
  },
  {
    version: 11,
    name: 'thread content search, per-thread usage and turn facts',
    sql: `
      -- One full-text document per thread: the string values of its live turns' inputs and
      -- outputs. Contentless (the text stays in calls); rows are replaced by rowid, which
      -- thread_search_docs maps to the thread. Kept by the same refresh as thread_stats.
      CREATE VIRTUAL TABLE thread_search USING fts5(
        body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TABLE thread_search_docs (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL,
        doc_id     INTEGER NOT NULL UNIQUE,
        PRIMARY KEY (project_id, thread_id)
      ) WITHOUT ROWID;

      -- Tokens per thread and model, summed over its live turns, so a thread's cost is a few
      -- price look-ups rather than a walk over its turns' summaries.
      CREATE TABLE thread_usage (
        project_id        TEXT NOT NULL,
        thread_id         TEXT NOT NULL,
        model             TEXT NOT NULL,
        prompt_tokens     INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id, model)
      ) WITHOUT ROWID;

      -- One row per live turn: what the statistics need of it, so that statistics over the
      -- turns of a time range (a date filter) read small rows by start time instead of
      -- every turn call's JSON summary.
      CREATE TABLE thread_turn_facts (
        project_id TEXT NOT NULL,
        thread_id  TEXT NOT NULL,
        id         TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at   INTEGER,
        failed     INTEGER NOT NULL,
        tokens     INTEGER NOT NULL,
        PRIMARY KEY (project_id, thread_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX thread_turn_facts_by_start ON thread_turn_facts (project_id, started_at);

      -- Threads written before this migration: every one gets its document and usage at the
      -- next write, and the store rebuilds them at open (store/sqlite/threadExtras.ts).
      INSERT INTO dirty_threads SELECT project_id, thread_id FROM thread_stats;
    `,
  },
  {
    version: 12,
    name: 'model providers per project, and the durable background-job queue',
    sql: `
      -- OpenAI-compatible providers a project configured. api_key_sealed is AES-256-GCM under the
      -- server secret (auth/secretBox.ts); the key is never stored in the clear.
      CREATE TABLE model_providers (
        id             TEXT NOT NULL PRIMARY KEY,
        project_id     TEXT NOT NULL,
        name           TEXT NOT NULL,
        base_url       TEXT NOT NULL,
        api_key_sealed TEXT,
        api_key_mask   TEXT,
        auth_style     TEXT NOT NULL,
        extra_headers  TEXT NOT NULL,
        models         TEXT NOT NULL,
        price_ids      TEXT NOT NULL,
        created_by     TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        UNIQUE (project_id, name)
      );

      -- Background jobs (evaluate_model, calls/score, monitors); see store/JobsStore.ts.
      CREATE TABLE jobs (
        id               TEXT NOT NULL PRIMARY KEY,
        project_id       TEXT NOT NULL,
        kind             TEXT NOT NULL,
        payload          TEXT NOT NULL,
        status           TEXT NOT NULL,
        progress_done    INTEGER NOT NULL DEFAULT 0,
        progress_total   INTEGER,
        error            TEXT,
        result           TEXT,
        attempts         INTEGER NOT NULL DEFAULT 0,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        owner            TEXT,
        created_by       TEXT NOT NULL,
        created_at       INTEGER NOT NULL,
        started_at       INTEGER,
        finished_at      INTEGER,
        heartbeat_at     INTEGER
      );
      CREATE INDEX jobs_by_status ON jobs (status, created_at);
      CREATE INDEX jobs_by_project ON jobs (project_id, created_at);
    `,
  },
  {
    version: 13,
    name: 'dashboard sign-in sessions',
    sql: `
      -- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is
      -- stored, so a copy of the database cannot sign anyone in. session_id is a separate random
      -- id that lists and ends a session without ever exposing the token. Ending a session
      -- deletes its row. Times are epoch microseconds.
      CREATE TABLE sessions (
        session_id   TEXT PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE,
        username     TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
        created_at   INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        user_agent   TEXT NOT NULL DEFAULT '',
        address      TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX sessions_by_user ON sessions (username, created_at);
    `,
  },
  monitorInboxMigration,
  threadRangeFacts,
  usageRuleMigration,
  loginFailuresMigration,
  latencyBinsMigration,
  threadsByLastUpdated,
  callStatsTotals,
  scorerFeedback,
];
