import { HISTOGRAM_KEY } from '../../../core/statsHistogram.js';
import type { ClickHouseMigration } from './migration.js';

/**
 * Per-hour `/calls/stats` cells kept by views on each insert into calls (docs/clickhouse.md
 * "Stats rollup"). A view sees one inserted block, not the merged call, so the cells add up only
 * what is exact to add: rows that carry a call's start and its end together (the common
 * `upsert_batch` and OTel case). Each hour also counts every start part (`starts`) and the
 * complete ones (`complete`): an hour where they differ (a start alone) is read from calls.
 * Every start part also leaves a row keyed by its id's hash (`call_stats_starts`), so a read finds
 * an id started twice, in one hour or in two, and reads those hours from calls. Parts without a
 * start (ends, deletes, retention marks) cannot name their hour, so their ids go to
 * `call_stats_loose`, and a read finds their hours through the merged calls. `call_stats_rows`
 * keeps each start part's few stats columns in start order, so the part of an exact hour that a
 * bucket bound cuts is read in start order without merging calls.
 */
const HOUR = 3_600_000_000;
const DONE = 'ended_at IS NOT NULL AND deleted_at IS NULL';
const LAT = 'intDiv(assumeNotNull(ended_at) - assumeNotNull(started_at), 1000)';
// The histogram bin of core/statsHistogram.ts, as stats.ts computes it per request; the cells
// are keyed by these constants, so changing them needs a new rollup.
const { exactLimit, logGamma, logBase } = HISTOGRAM_KEY;
const BIN = `toInt64(if(${LAT} < 0, -1, 1) * if(abs(${LAT}) <= ${exactLimit}, toInt64(abs(${LAT})),
  ${exactLimit} + 1 + toInt64(ceil(log(greatest(abs(${LAT}), 1)) / ${logGamma})) - ${logBase}))`;
const HOUR_OF = `intDiv(assumeNotNull(started_at), ${HOUR})`;

// Each hour has a row per op (every = 0) and one for all its ops (every = 1, op ''), which an
// unfiltered read and the exactness counts take alone.
const HOUR_ROWS = `SELECT project_id, ${HOUR_OF} AS hour, every, if(every = 1, '', ifNull(op_name, '')) AS op,
    count() AS starts, countIf(${DONE}) AS complete, countIf(${DONE} AND exception IS NOT NULL) AS errors,
    sumIf(${LAT}, ${DONE}) AS latency_sum, minIf(toNullable(${LAT}), ${DONE}) AS latency_min,
    maxIf(toNullable(${LAT}), ${DONE}) AS latency_max, sumMapIf([${BIN}], [toUInt64(1)], ${DONE}) AS hist,
    now() AS written
  FROM calls ARRAY JOIN [0, 1] AS every WHERE started_at IS NOT NULL GROUP BY project_id, hour, every, op`;

const USAGE_ROWS = `SELECT project_id, ${HOUR_OF} AS hour, ifNull(op_name, '') AS op, u.1 AS model,
    count() AS entries, sum(u.2) AS input, sum(u.3) AS output, sum(u.4) AS total, sum(u.5) AS cache_read, sum(u.6) AS cache_creation
  FROM calls ARRAY JOIN JSONExtract(ifNull(summary_usage_cells, '[]'), 'Array(Tuple(String, Int64, Int64, Int64, Int64, Int64))') AS u
  WHERE started_at IS NOT NULL AND ${DONE} GROUP BY project_id, hour, op, model`;

const LOOSE_ROWS = `SELECT project_id, id FROM calls WHERE started_at IS NULL AND (ended_at IS NOT NULL OR deleted_at IS NOT NULL)`;

const START_ROWS = `SELECT project_id, sipHash64(id) AS id_hash, ${HOUR_OF} AS hour FROM calls WHERE started_at IS NOT NULL`;

const FACT_ROWS = `SELECT project_id, assumeNotNull(started_at) AS started_at, ifNull(op_name, '') AS op,
    toUInt8(${DONE}) AS complete, if(${DONE}, ${LAT}, NULL) AS lat, toUInt8(exception IS NOT NULL) AS failed,
    if(${DONE}, summary_usage_cells, NULL) AS usage
  FROM calls WHERE started_at IS NOT NULL`;

export const v24StatsRollup: ClickHouseMigration = {
  version: 24,
  name: 'per-hour stats cells kept by views on calls',
  statements: [
    `CREATE TABLE IF NOT EXISTS call_stats_hours (
        project_id String,
        hour Int64,
        every UInt8,
        op String,
        starts SimpleAggregateFunction(sum, UInt64),
        complete SimpleAggregateFunction(sum, UInt64),
        errors SimpleAggregateFunction(sum, UInt64),
        latency_sum SimpleAggregateFunction(sum, Int64),
        latency_min SimpleAggregateFunction(min, Nullable(Int64)),
        latency_max SimpleAggregateFunction(max, Nullable(Int64)),
        hist SimpleAggregateFunction(sumMap, Tuple(Array(Int64), Array(UInt64))),
        written SimpleAggregateFunction(max, DateTime)
      ) ENGINE = AggregatingMergeTree ORDER BY (project_id, hour, every, op)`,
    `CREATE TABLE IF NOT EXISTS call_stats_usage_hours (
        project_id String,
        hour Int64,
        op String,
        model String,
        entries UInt64,
        input Int64,
        output Int64,
        total Int64,
        cache_read Int64,
        cache_creation Int64
      ) ENGINE = SummingMergeTree ORDER BY (project_id, hour, op, model)`,
    // Ids of the parts without a start; never removed (a read resolves them to hours each time).
    `CREATE TABLE IF NOT EXISTS call_stats_loose (project_id String, id String)
      ENGINE = ReplacingMergeTree ORDER BY (project_id, id)`,
    // Hours read from calls for good: their calls were expired by retention (the TTL drops the
    // calls' rows, not their cells), or an id was started twice in them.
    `CREATE TABLE IF NOT EXISTS call_stats_dirty (project_id String, hour Int64)
      ENGINE = ReplacingMergeTree ORDER BY (project_id, hour)`,
    // Per hour, a count of start rows at which a read found none of their ids started elsewhere:
    // counts only grow, so while it stands no id of the hour can have been started again.
    `CREATE TABLE IF NOT EXISTS call_stats_checked (project_id String, hour Int64, starts UInt64)
      ENGINE = ReplacingMergeTree(starts) ORDER BY (project_id, hour)`,
    // One row per start part, by its id's hash: an id with two rows was started twice.
    // Sorted hashes are stored as their differences (Delta), about 6 bytes instead of 8.
    `CREATE TABLE IF NOT EXISTS call_stats_starts (project_id String, id_hash UInt64 CODEC(Delta, ZSTD), hour Int64)
      ENGINE = MergeTree ORDER BY (project_id, id_hash)`,
    // One row per start part in start order: an exact hour's calls, for bounds that cut the hour.
    `CREATE TABLE IF NOT EXISTS call_stats_rows (
        project_id String,
        started_at Int64 CODEC(Delta, ZSTD),
        op LowCardinality(String),
        complete UInt8,
        lat Nullable(Int64),
        failed UInt8,
        usage Nullable(String)
      ) ENGINE = MergeTree ORDER BY (project_id, started_at)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_hours_mv TO call_stats_hours AS ${HOUR_ROWS}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_usage_mv TO call_stats_usage_hours AS ${USAGE_ROWS}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_loose_mv TO call_stats_loose AS ${LOOSE_ROWS}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_starts_mv TO call_stats_starts AS ${START_ROWS}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_rows_mv TO call_stats_rows AS ${FACT_ROWS}`,
    // The calls already stored, after the views exist: a call inserted in between is counted
    // twice, which its id's two start rows tell, so its hour is read from calls. Parts merged
    // before now count as the one row they became, which is the call as it stands. Run twice
    // (a migrator killed after these), every backfilled hour is read from calls.
    `INSERT INTO call_stats_hours (project_id, hour, every, op, starts, complete, errors, latency_sum, latency_min, latency_max, hist, written) ${HOUR_ROWS}`,
    `INSERT INTO call_stats_usage_hours (project_id, hour, op, model, entries, input, output, total, cache_read, cache_creation) ${USAGE_ROWS}`,
    `INSERT INTO call_stats_loose (project_id, id) ${LOOSE_ROWS}`,
    `INSERT INTO call_stats_starts (project_id, id_hash, hour) ${START_ROWS}`,
    `INSERT INTO call_stats_rows (project_id, started_at, op, complete, lat, failed, usage) ${FACT_ROWS}`,
    `INSERT INTO call_stats_dirty (project_id, hour) SELECT project_id, ${HOUR_OF} AS hour
      FROM calls FINAL WHERE started_at IS NOT NULL AND expire_at IS NOT NULL`,
  ],
};
