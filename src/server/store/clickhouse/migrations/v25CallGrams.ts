import type { ClickHouseMigration } from './migration.js';

/**
 * The posting lists of the calls' substring search (callSearch.ts, docs/search.md "How each backend finds them"):
 * which calls hold each trigram of their lowercased text, filled by the background indexer
 * (callSearchIndexer.ts) from the queue of migration 26, and how far it has come. The bloom
 * filter of migration 21 skips granules, which cannot narrow a rare text spread over the whole
 * project; these lists name the calls themselves.
 */
export const v25CallGrams: ClickHouseMigration = {
  version: 25,
  name: 'trigram posting lists of calls and the indexer progress (substring search)',
  statements: [
    // One row per (project, trigram, call); a row inserted twice (a batch indexed again by a
    // second replica or after a crash, a part that repeats a trigram) merges into one.
    `CREATE TABLE IF NOT EXISTS call_grams (
        project_id String,
        gram String,
        id String
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, gram, id)`,
    // The queue position (call_search_queue.queued_at) up to which every queued part is in
    // call_grams; read as max(), so rows of several replicas and retries never go back.
    `CREATE TABLE IF NOT EXISTS call_search_progress (
        indexed_to Int64
      ) ENGINE = ReplacingMergeTree(indexed_to) ORDER BY tuple()`,
  ],
};
