import { turnSideTextSql } from '../threadSearch.js';
import type { ClickHouseMigration } from './migration.js';

/**
 * A call's thread_turns row, from the rows one INSERT into calls carries, as the writer made
 * it before (migrations 10 and 11): a turn's start (turn_id = id, in a thread) with its end if
 * the same row holds it, every part without a start (an end, a delete, a retention mark: none
 * can tell whether its call is a turn), nothing for another call's start. A start-less part
 * carries no start column, so the columns pass as they are. The summary's columns are the ones
 * calls computed for this very row (migration 8); the searchable text follows threadSearch.ts.
 * call_started marks a start that came through calls.
 */
const TURN_ROWS = `SELECT project_id, id, thread_id, started_at, ended_at, if(exception IS NULL, NULL, 1) AS has_exception,
        summary_error, summary_tokens, summary_usage, deleted_at, expire_at, attributes,
        if(inputs IS NULL, NULL, ${turnSideTextSql('inputs')}) AS inputs_text,
        if(output IS NULL, NULL, ${turnSideTextSql('output')}) AS output_text,
        if(started_at IS NULL, NULL, 1) AS call_started
      FROM calls
      WHERE (turn_id = id AND ifNull(thread_id, '') != '') OR (started_at IS NULL AND (ended_at IS NOT NULL OR deleted_at IS NOT NULL))`;

export const v19CallViews: ClickHouseMigration = {
  version: 19,
  name: "a call's start-order entry and thread turn made by the insert into calls",
  statements: [
    // Reads count a turn only once its start has come through calls (threads.ts): a start the
    // writer before this migration put in thread_turns and whose insert into calls then failed
    // stays out of every thread, and shows as soon as a retry lands (docs/clickhouse.md "Writes
    // that fail half-way").
    'ALTER TABLE thread_turns ADD COLUMN IF NOT EXISTS call_started Nullable(UInt8)',
    // From here on the writer inserts into calls alone, and these views derive the other rows
    // from each inserted block, after the block is in calls: a derived row never exists without
    // its call. On a cluster they are created on the local tables, so a call's rows are derived on
    // its shard, where both tables' shard key (project_id, id) puts them anyway.
    `CREATE MATERIALIZED VIEW IF NOT EXISTS calls_by_start_mv TO calls_by_start AS
      SELECT project_id, started_at, id, parent_id IS NULL AS is_root FROM calls WHERE started_at IS NOT NULL`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS thread_turns_mv TO thread_turns AS ${TURN_ROWS}`,
    // The turns already stored: their starts in calls, marked. A phantom start (its call's insert
    // failed) has none there and stays unmarked. Run twice, the marks coalesce.
    `INSERT INTO thread_turns (project_id, id, call_started) SELECT project_id, id, 1
      FROM calls WHERE turn_id = id AND ifNull(thread_id, '') != '' AND started_at IS NOT NULL`,
  ],
};
