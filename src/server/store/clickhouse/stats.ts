/**
 * ClickHouse implementation of StatsStore. Call facts stream from the merged calls; cells are
 * not stored but computed per request in SQL over `calls FINAL` (docs/clickhouse.md
 * §4.4), so nothing has to be kept in step with writes across replicas and a cell always equals
 * the facts (late ends, re-sent ends, deletes included). Any bounds cost the same scan, so cells
 * are spans (the request's buckets, StatsStore.spanCells), summed over ops; there are no stored
 * rollup cells (rollupCells answers null). The latency
 * histogram is binned in SQL with core/statsHistogram.ts's constants; usage cells add up each
 * call's `summary_usage_cells`, computed at insert under the one usage rule (usageSql.ts), in
 * a second scan sent with the first. Prices are never in cells: the domain prices them (CostsStore).
 */
import { addToEncoded, HISTOGRAM_KEY } from '../../core/statsHistogram.js';
import type { CallCell, CallFacts, CallFactsQuery, StatsStore, UsageCell } from '../StatsStore.js';
import { num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { compileCallsWhere } from './callsQuery.js';
import { SUMMARY_USAGE_CELLS_TYPE } from './usageSql.js';

/** The histogram bin key of latency `lat` (core/statsHistogram.ts `binKey`), with its constants as parameters. */
// `if` evaluates both branches in ClickHouse, so the log never sees 0.
const BIN_KEY = `(if(lat < 0, -1, 1) * if(abs(lat) <= {exact:Int64}, abs(lat),
  {exact:Int64} + 1 + toInt64(ceil(log(greatest(abs(lat), 1)) / {lg:Float64})) - {lb:Int64}))`;

interface SpanCallRow {
  span: string;
  n: string;
  errors: string;
  latency_count: string;
  latency_sum: string | null;
  latency_min: string | null;
  latency_max: string | null;
  hist_keys: string[];
  hist_counts: string[];
}

interface SpanUsageRow {
  span: string;
  model: string;
  entries: string;
  input: string;
  output: string;
  total: string;
  cache_read: string;
  cache_creation: string;
}

interface FactRow {
  started_at: string;
  latency_ms: string | null;
  failed: number;
  usage?: string;
}

/**
 * Span bounds travel as runs of evenly spaced bounds (first, step, count), which the query
 * expands: 10,000 buckets as a list would pass the server's limit on one parameter's length,
 * and buckets are evenly spaced but for a time zone's changes and price changes.
 */
const BOUNDS = `arrayFlatten(arrayMap((s, d, n) -> arrayMap(k -> s + k * d, range(n)), {rs:Array(Int64)}, {rd:Array(Int64)}, {rn:Array(UInt32)}))`;

function boundRuns(bounds: number[]): { rs: number[]; rd: number[]; rn: number[] } {
  const runs = { rs: [] as number[], rd: [] as number[], rn: [] as number[] };
  for (let i = 0; i < bounds.length;) {
    const step = i + 1 < bounds.length ? bounds[i + 1]! - bounds[i]! : 0;
    let n = 1;
    while (i + n < bounds.length && bounds[i + n]! - bounds[i + n - 1]! === step) n++;
    runs.rs.push(bounds[i]!);
    runs.rd.push(step);
    runs.rn.push(n);
    i += n;
  }
  return runs;
}

export class ClickHouseStatsStore implements StatsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async *callFacts(q: CallFactsQuery): AsyncIterable<CallFacts> {
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.filter });
    // Whole milliseconds, truncated as SQLite's integer division does.
    const usage = q.withUsage ? ", JSONExtractRaw(ifNull(summary, '{}'), 'usage') AS usage" : '';
    const rows = this.#db.stream<FactRow>(
      `SELECT started_at, intDiv(ended_at - started_at, 1000) AS latency_ms, exception IS NOT NULL AS failed${usage}
       FROM calls FINAL WHERE ${where} AND started_at >= {from:Int64} AND started_at < {to:Int64} ORDER BY started_at, id${q.limit === undefined ? '' : ' LIMIT {limit:UInt32}'}`,
      { ...params, from: q.from, to: q.to, ...(q.limit === undefined ? {} : { limit: q.limit }) },
    );
    for await (const r of rows) {
      yield { startedAt: num(r.started_at), latencyMs: numOrNull(r.latency_ms), failed: r.failed === 1, usageJson: r.usage || null };
    }
  }

  /** No stored cells: spanCells computes any cells per request. */
  async rollupCells(): Promise<null> {
    return null;
  }

  async spanCells(q: {
    projectId: string;
    opNames?: string[] | null;
    bounds: number[];
    withUsage: boolean;
  }): Promise<{ calls: CallCell[]; usage: UsageCell[] }> {
    if (q.bounds.length < 2) return { calls: [], usage: [] };
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.opNames?.length ? { op_names: q.opNames } : null });
    const from = `FROM calls FINAL WHERE ${where} AND started_at >= {from:Int64} AND started_at < {to:Int64}`;
    const span = `roundDown(started_at, ${BOUNDS}) AS span`;
    const args = {
      ...params,
      ...boundRuns(q.bounds),
      from: q.bounds[0],
      to: q.bounds.at(-1),
      exact: HISTOGRAM_KEY.exactLimit,
      lg: HISTOGRAM_KEY.logGamma,
      lb: HISTOGRAM_KEY.logBase,
    };
    // Calls and usage are two scans sent at once rather than one: each reads only its own
    // columns through FINAL, the engine runs the two side by side, and usage is summed by a plain
    // GROUP BY span and model over one row per entry. In one scan usage was a sumMap of seven
    // arrays per span, which keeps a tree of generic values per span and was most of the
    // engine's time. (The histogram keeps its sumMap: grouping by span and bin instead is no
    // cheaper at day buckets and twice as dear at 5-minute ones, where nearly every call is a group.)
    // A write landing between the two scans may count in one and not yet in the other, as it
    // may between two requests.
    const callRows = this.#db.all<SpanCallRow>(
      `SELECT span, count() AS n, countIf(failed) AS errors, countIf(lat IS NOT NULL) AS latency_count, sum(lat) AS latency_sum,
         min(lat) AS latency_min, max(lat) AS latency_max,
         sumMapIf([${BIN_KEY}], [toUInt64(1)], lat IS NOT NULL) AS hist, hist.1 AS hist_keys, hist.2 AS hist_counts
       FROM (SELECT ${span}, exception IS NOT NULL AS failed, intDiv(ended_at - started_at, 1000) AS lat ${from})
       GROUP BY span`,
      args,
    );
    // A call's usage cells (the summary_usage_cells column, computed at insert under the one
    // usage rule, usageSql.ts), one row per entry, summed per span and model.
    const usageRows = q.withUsage
      ? this.#db.all<SpanUsageRow>(
          `SELECT span, u.1 AS model, count() AS entries, sum(u.2) AS input, sum(u.3) AS output, sum(u.4) AS total,
             sum(u.5) AS cache_read, sum(u.6) AS cache_creation
           FROM (SELECT ${span}, arrayJoin(JSONExtract(ifNull(summary_usage_cells, '[]'), '${SUMMARY_USAGE_CELLS_TYPE}')) AS u ${from})
           GROUP BY span, model`,
          args,
        )
      : Promise.resolve([]);
    const [calls, usage] = await Promise.all([callRows, usageRows]);
    const spanOf = new Map(q.bounds.map((b, i) => [b, i]));
    return {
      calls: calls.map((r) => {
        const latencyCount = num(r.latency_count);
        return {
          cell: spanOf.get(num(r.span))!,
          count: num(r.n),
          errors: num(r.errors),
          latencyCount,
          latencySum: latencyCount ? num(r.latency_sum) : 0,
          latencyMin: latencyCount ? numOrNull(r.latency_min) : null,
          latencyMax: latencyCount ? numOrNull(r.latency_max) : null,
          latencyHist: latencyCount ? addToEncoded(null, new Map(r.hist_keys.map((k, i) => [num(k), num(r.hist_counts[i])]))) : null,
        };
      }),
      usage: usage.map((r) => ({
        cell: spanOf.get(num(r.span))!,
        model: r.model,
        entries: num(r.entries),
        inputTokens: num(r.input),
        outputTokens: num(r.output),
        totalTokens: num(r.total),
        // Every entry has a total under the one usage rule (reported, else input + output).
        totalTokensCount: num(r.entries),
        cacheReadInputTokens: num(r.cache_read),
        cacheCreationInputTokens: num(r.cache_creation),
      })),
    };
  }
}
