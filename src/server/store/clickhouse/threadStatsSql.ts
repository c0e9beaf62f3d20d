/**
 * A thread's statistics as ClickHouse SQL over its merged turns in thread_turns, shared by the
 * per-request pass (threads.ts) and the snapshots kept between requests (threadSnapshots.ts),
 * so both compute every statistic by the very same expressions (core/threadStats.ts).
 */

/**
 * A thread's turns, merged, from thread_turns (migrations 10 and 11), which holds what the
 * statistics and the filters need of turns only: a turn is a live, started call whose turn_id
 * is its own id, in a thread (thread_turns has a thread_id for those only). Failure and token
 * total come from the summary's columns computed at insert, so no request parses summaries.
 */
/** A thread's statistics as statsSql names them (the usage by model aside). */
export const THREAD_STAT_COLUMNS = [
  'turn_count',
  'finished_turn_count',
  'start_time',
  'last_updated',
  'first_turn_id',
  'last_turn_id',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
  'error_count',
  'total_tokens',
];

export const TURNS = {
  from: 'thread_turns FINAL',
  // call_started: the start came through calls (migration 19), not a leftover of a failed write.
  where: 'project_id = {p:String} AND call_started = 1 AND deleted_at IS NULL AND thread_id IS NOT NULL',
  facts: `thread_id, id, started_at, ended_at,
  ifNull(has_exception, 0) = 1 OR ifNull(summary_error, 0) = 1 AS failed,
  ifNull(summary_tokens, 0) AS tokens`,
};

/** Per-turn usage by model, (model, input, output) per entry, from the summary's usage column (migration 8). */
export const TURN_USAGE = `JSONExtract(ifNull(summary_usage, '[]'), 'Array(Tuple(String, Int64, Int64))') AS entries,
  arrayMap(e -> e.1, entries) AS models,
  arrayMap(e -> e.2, entries) AS prompt_tokens,
  arrayMap(e -> e.3, entries) AS completion_tokens`;

const DURATION_MS = '(ended_at - started_at) / 1000';

/** A thread's statistics over its turns; `usage_by_model` (what threadCostSql prices) when `withUsage`. */
export function statsSql(withUsage: boolean): string {
  return `thread_id,
  count() AS turn_count,
  countIf(ended_at IS NOT NULL) AS finished_turn_count,
  min(started_at) AS start_time,
  if(finished_turn_count > 0, max(ended_at), max(started_at)) AS last_updated,
  argMin(id, (started_at, id)) AS first_turn_id,
  if(finished_turn_count > 0, argMinIf(id, (-ifNull(ended_at, 0), id), ended_at IS NOT NULL), NULL) AS last_turn_id,
  if(finished_turn_count > 0, quantileExactInclusiveIf(0.5)(${DURATION_MS}, ended_at IS NOT NULL), NULL) AS p50_turn_duration_ms,
  if(finished_turn_count > 0, quantileExactInclusiveIf(0.99)(${DURATION_MS}, ended_at IS NOT NULL), NULL) AS p99_turn_duration_ms,
  countIf(failed) AS error_count,
  sum(tokens) AS total_tokens${
    withUsage
      ? `,
  sumMap(models, prompt_tokens, completion_tokens, arrayMap(m -> toUInt64(1), models)) AS usage_by_model`
      : ''
  }`;
}
