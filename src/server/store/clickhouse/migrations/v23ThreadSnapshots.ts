import type { ClickHouseMigration } from './migration.js';

/**
 * Thread statistics kept between requests (threadSnapshots.ts, docs/clickhouse.md "Thread
 * snapshots"): each thread's statistics as of a mark, and a log of the turns every insert into
 * calls touches, so a threads request recomputes only the threads touched since the mark.
 */
export const v23ThreadSnapshots: ClickHouseMigration = {
  version: 23,
  name: 'thread statistics snapshots and the turns each insert touches',
  statements: [
    // Every row thread_turns_mv derives from an insert (migration 19: a turn's start, any part
    // without a start), stamped with the engine's clock when the view ran: the parts that can
    // change a thread's statistics, in arrival order per project. Kept 7 days: a snapshot
    // older than a day is rebuilt whole, so no read needs an older touch.
    `CREATE TABLE IF NOT EXISTS thread_touches (
        project_id String,
        seen_at Int64,
        id String
      ) ENGINE = MergeTree ORDER BY (project_id, seen_at)
        TTL toDateTime(intDiv(seen_at, 1000000)) + INTERVAL 7 DAY DELETE`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS thread_touches_mv TO thread_touches AS
      SELECT project_id, toUnixTimestamp64Micro(now64(6)) AS seen_at, id FROM calls
      WHERE (turn_id = id AND ifNull(thread_id, '') != '') OR (started_at IS NULL AND (ended_at IS NOT NULL OR deleted_at IS NOT NULL))`,
    // A thread's statistics over its live turns as of a refresh (version: twice the refresh's
    // mark, plus one for a thread with live turns, so a thread left without any, written at the
    // even version, is replaced by nothing but a later refresh), with the ids of all its turns
    // (deleted ones too) so a later refresh finds them by the key of thread_turns.
    `CREATE TABLE IF NOT EXISTS thread_snapshots (
        project_id String,
        thread_id String,
        version Int64,
        live UInt8,
        turn_ids Array(String),
        turn_count UInt64,
        finished_turn_count UInt64,
        start_time Int64,
        last_updated Nullable(Int64),
        first_turn_id String,
        last_turn_id Nullable(String),
        p50_turn_duration_ms Nullable(Float64),
        p99_turn_duration_ms Nullable(Float64),
        error_count UInt64,
        total_tokens Int64,
        usage_models Array(String),
        usage_prompt Array(Int64),
        usage_completion Array(Int64)
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, thread_id)`,
    // Which thread each turn was in at its last refresh, by turn id: a turn started again in
    // another thread changes its old thread too, which its touch alone no longer names.
    `CREATE TABLE IF NOT EXISTS thread_snapshot_turns (project_id String, id String, thread_id String, version Int64)
      ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, id)`,
    // Each refresh's mark (engine µs), the greatest one current.
    `CREATE TABLE IF NOT EXISTS thread_snapshot_marks (project_id String, mark Int64)
      ENGINE = ReplacingMergeTree(mark) ORDER BY project_id`,
  ],
};
