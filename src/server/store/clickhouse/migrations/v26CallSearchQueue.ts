import { QUEUE_ROWS_SQL } from '../callSearch.js';
import type { ClickHouseMigration } from './migration.js';

/**
 * The queue of the substring search's indexer (callSearchIndexer.ts, docs/search.md
 * "ClickHouse"): one small row per call part with text, written by a view from every insert
 * into calls, so ingest pays a row per part rather than a row per trigram; the indexer turns the
 * queue into posting lists later, and every call still queued is a candidate of every search.
 */
export const v26CallSearchQueue: ClickHouseMigration = {
  version: 26,
  name: 'queue of call parts for the substring search indexer',
  statements: [
    // Ordered by position first: the indexer reads the tail past its progress, and a search reads
    // the same tail for its project (a few rows once the indexer has caught up).
    `CREATE TABLE IF NOT EXISTS call_search_queue (
        queued_at Int64 CODEC(Delta, ZSTD),
        project_id String,
        id String
      ) ENGINE = MergeTree ORDER BY (queued_at, project_id, id)`,
    // Stamped with the engine's clock when the view runs, whichever Weft (of any version) inserts.
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_search_queue_mv TO call_search_queue AS
      SELECT toUnixTimestamp64Micro(now64(6)) AS queued_at, project_id, id FROM calls WHERE ${QUEUE_ROWS_SQL}`,
    // The calls stored before, at positions from their own times (earlier than any part the view
    // queues, and the same on a rerun: a migrator cut off half-way queues the same rows again,
    // and indexing a part twice merges). No indexer runs before this migration is recorded.
    `INSERT INTO call_search_queue (queued_at, project_id, id) SELECT greatest(1, coalesce(started_at, ended_at, deleted_at, 1)) AS queued_at, project_id, id FROM calls WHERE ${QUEUE_ROWS_SQL}`,
  ],
};
