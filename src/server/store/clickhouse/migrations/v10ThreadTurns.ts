import { SUMMARY_TOKENS, SUMMARY_USAGE } from '../usageSql.js';
import type { ClickHouseMigration } from './migration.js';

export const v10ThreadTurns: ClickHouseMigration = {
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
};
