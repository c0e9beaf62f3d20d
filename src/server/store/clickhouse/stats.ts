/**
 * ClickHouse implementation of StatsStore. Call facts stream from the merged calls. Cells are
 * spans (the request's buckets, StatsStore.spanCells), summed over ops: whole hours come from the
 * per-hour cells the views of migration 24 keep at insert, where those are provably the calls
 * as they stand, and everything else (the window's partial edge hours, hours a loose part, a
 * start alone, a repeated start or retention touched) from `calls FINAL`, found through
 * `calls_by_start` (docs/clickhouse.md "Stats rollup"). Where that would read much of the window
 * anyway, one plain scan answers. rollupCells answers null (no 5-minute cells). The latency
 * histogram is binned in SQL with core/statsHistogram.ts's constants; usage cells add up each
 * call's `summary_usage_cells`, computed at insert under the one usage rule (usageSql.ts). Prices
 * are never in cells: the domain prices them (CostsStore).
 */
import { addToEncoded, HISTOGRAM_KEY, type Histogram } from '../../core/statsHistogram.js';
import type { CallCell, CallFacts, CallFactsQuery, StatsStore, UsageCell } from '../StatsStore.js';
import { num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { compileCallsWhere } from './callsQuery.js';
import { planFilter } from '../query/index.js';
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

/** One hour in microseconds: the width of the stored cells (migration 24). */
export const STATS_HOUR = 3_600_000_000;
/** Past this many loose parts (ends, deletes sent alone) a project is scanned instead of resolving their hours. */
const LOOSE_LIMIT = 100_000;
/** Ranges scanned beside the stored cells at most; more (scattered dirty hours) scan the window. */
const MAX_RANGES = 32;

/** What the last spanCells read where: hours from stored cells, and the ranges scanned ('all': one plain scan). */
export interface StatsReadTrace {
  storedHours: number;
  scanned: [number, number][] | 'all';
}

interface HourRow {
  hour: string;
  s: string;
  c: string;
  n: string;
  n_errors: string;
  lat_sum: string;
  lat_min: string | null;
  lat_max: string | null;
  hist_keys: string[];
  hist_counts: string[];
}

interface HourUsageRow {
  hour: string;
  model: string;
  n_entries: string;
  n_input: string;
  n_output: string;
  n_total: string;
  n_cache_read: string;
  n_cache_creation: string;
}

/** A span's cell as it is added up from stored hours and scanned rows. */
interface CallAcc {
  count: number;
  errors: number;
  latencyCount: number;
  latencySum: number;
  latencyMin: number | null;
  latencyMax: number | null;
  hist: Histogram;
}

type Cells = { calls: CallCell[]; usage: UsageCell[] };

/** The stored cells' op column matching `opNames` (the calls filter's rule: exact names, or `name:*` prefixes). */
function opMatch(projectId: string, opNames: string[] | null | undefined): { sql: string; params: Record<string, string[]> } {
  const clause = planFilter(opNames?.length ? { op_names: opNames } : {}, projectId).find((c) => c.k === 'opNames');
  if (!clause || clause.k !== 'opNames') return { sql: '1', params: {} };
  return {
    sql: '(op IN {op_exact:Array(String)} OR arrayExists(x -> startsWith(op, x), {op_prefixes:Array(String)}))',
    params: { op_exact: clause.exact, op_prefixes: clause.prefixes },
  };
}

/** Index of the span [bounds[i], bounds[i+1]) holding t. */
function spanIndex(bounds: number[], t: number): number {
  let lo = 0;
  let hi = bounds.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class ClickHouseStatsStore implements StatsStore {
  readonly #db: ClickHouseDatabase;
  readonly #stored: boolean;
  /** Where the last spanCells read from (tests and benchmarks). */
  lastRead: StatsReadTrace | null = null;
  /** `stored: false` reads every span from calls (the plain query), for tests and benchmarks. */
  constructor(db: ClickHouseDatabase, options: { stored?: boolean } = {}) {
    this.#db = db;
    this.#stored = options.stored ?? true;
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

  /** No 5-minute cells: spanCells answers any bounds. */
  async rollupCells(): Promise<null> {
    return null;
  }

  async spanCells(q: { projectId: string; opNames?: string[] | null; bounds: number[]; withUsage: boolean }): Promise<Cells> {
    if (q.bounds.length < 2) return { calls: [], usage: [] };
    const calls = new Map<number, CallAcc>();
    const usage = new Map<string, UsageCell>();
    const stored = this.#stored ? await this.#storedHours(q, calls, usage) : null;
    if (stored) {
      if (stored.scan.length) await this.#scan(q, stored.scan, calls, usage);
      this.lastRead = { storedHours: stored.hours, scanned: stored.scan };
    } else {
      calls.clear();
      usage.clear();
      await this.#scan(q, null, calls, usage);
      this.lastRead = { storedHours: 0, scanned: 'all' };
    }
    return {
      calls: [...calls]
        .filter(([, a]) => a.count > 0)
        .sort(([a], [b]) => a - b)
        .map(([cell, a]) => ({
          cell,
          count: a.count,
          errors: a.errors,
          latencyCount: a.latencyCount,
          latencySum: a.latencySum,
          latencyMin: a.latencyMin,
          latencyMax: a.latencyMax,
          latencyHist: a.latencyCount ? addToEncoded(null, a.hist) : null,
        })),
      usage: [...usage.values()].filter((u) => u.entries > 0).sort((a, b) => a.cell - b.cell || a.model.localeCompare(b.model)),
    };
  }

  /**
   * Adds the stored cells of the whole hours inside one span that are exact, and answers the
   * ranges left to scan; null (having added nothing worth keeping) when a plain scan should answer.
   * An hour is exact when every start part written in it came with its end (starts = complete),
   * no id came twice (complete = distinct ids), and no loose part or retention touched its calls.
   */
  async #storedHours(
    q: { projectId: string; opNames?: string[] | null; bounds: number[]; withUsage: boolean },
    calls: Map<number, CallAcc>,
    usage: Map<string, UsageCell>,
  ): Promise<{ hours: number; scan: [number, number][] } | null> {
    const from = q.bounds[0]!;
    const to = q.bounds.at(-1)!;
    const h0 = Math.ceil(from / STATS_HOUR);
    const h1 = Math.floor(to / STATS_HOUR);
    if (h1 <= h0) return null;
    const ops = opMatch(q.projectId, q.opNames);
    const args = { p: q.projectId, h0, h1, ...ops.params };
    const inHours = 'project_id = {p:String} AND hour >= {h0:Int64} AND hour < {h1:Int64}';
    const [hourRows, usageRows, loose, dirty, checkedRows] = await Promise.all([
      this.#db.all<HourRow>(
        `SELECT hour, sum(starts) AS s, sum(complete) AS c,
           sumIf(complete, m) AS n, sumIf(errors, m) AS n_errors, sumIf(latency_sum, m) AS lat_sum,
           minIf(latency_min, m) AS lat_min, maxIf(latency_max, m) AS lat_max,
           sumMapIf(hist.1, hist.2, m) AS h, h.1 AS hist_keys, h.2 AS hist_counts
         FROM (SELECT hour, starts, complete, errors, latency_sum, latency_min, latency_max, hist, ${ops.sql} AS m
               FROM call_stats_hours WHERE ${inHours})
         GROUP BY hour`,
        args,
      ),
      q.withUsage
        ? this.#db.all<HourUsageRow>(
            `SELECT hour, model, sum(entries) AS n_entries, sum(input) AS n_input, sum(output) AS n_output, sum(total) AS n_total,
               sum(cache_read) AS n_cache_read, sum(cache_creation) AS n_cache_creation
             FROM call_stats_usage_hours WHERE ${inHours} AND ${ops.sql} GROUP BY hour, model`,
            args,
          )
        : Promise.resolve([]),
      this.#db.get<{ n: string }>('SELECT count() AS n FROM call_stats_loose WHERE project_id = {p:String}', args),
      this.#db.all<{ hour: string }>(`SELECT DISTINCT hour FROM call_stats_dirty WHERE ${inHours}`, args),
      this.#db.all<{ hour: string; s: string }>(
        `SELECT hour, max(starts) AS s FROM call_stats_checked WHERE ${inHours} GROUP BY hour`,
        args,
      ),
    ]);
    const looseCount = num(loose?.n ?? 0);
    if (looseCount > LOOSE_LIMIT) return null;
    const bad = new Set(dirty.map((d) => num(d.hour)));
    if (looseCount > 0) {
      // The hours of the calls that loose parts belong to, by key lookups in the merged calls.
      const touched = await this.#db.all<{ hour: string }>(
        `SELECT DISTINCT intDiv(started_at, ${STATS_HOUR}) AS hour FROM calls FINAL
         PREWHERE project_id = {p:String} AND id IN (SELECT id FROM call_stats_loose WHERE project_id = {p:String})
         WHERE started_at >= {from:Int64} AND started_at < {to:Int64}`,
        { p: q.projectId, from, to },
      );
      for (const t of touched) bad.add(num(t.hour));
    }
    // Hours a bound cuts are partial: scanned. So are the inexact ones; an hour without stored
    // cells had no start written in it, so no call.
    const scanHours = new Set<number>();
    for (const b of q.bounds) if (b % STATS_HOUR !== 0) scanHours.add(Math.floor(b / STATS_HOUR));
    const candidates = hourRows.filter((r) => !scanHours.has(num(r.hour)) && !bad.has(num(r.hour)) && r.s === r.c);
    const distinct = await this.#distinctHours(q.projectId, candidates, checkedRows);
    const exact = new Map<number, HourRow>();
    for (const r of hourRows) {
      const h = num(r.hour);
      if (distinct.has(h)) exact.set(h, r);
      else scanHours.add(h);
    }
    for (const h of bad) scanHours.add(h);
    if (exact.size === 0) return null;
    const scan: [number, number][] = [];
    for (const h of [...scanHours].sort((a, b) => a - b)) {
      const a = Math.max(h * STATS_HOUR, from);
      const b = Math.min((h + 1) * STATS_HOUR, to);
      if (b <= a) continue;
      const last = scan[scan.length - 1];
      if (last && last[1] === a) last[1] = b;
      else scan.push([a, b]);
    }
    const scanned = scan.reduce((n, [a, b]) => n + b - a, 0);
    if (scan.length > MAX_RANGES || scanned * 4 > to - from) return null;

    for (const [h, r] of exact) {
      const n = num(r.n);
      if (n === 0) continue;
      const hist = new Map<number, number>(r.hist_keys.map((k, i) => [num(k), num(r.hist_counts[i])]));
      addCall(calls, spanIndex(q.bounds, h * STATS_HOUR), {
        count: n,
        errors: num(r.n_errors),
        latencyCount: n,
        latencySum: num(r.lat_sum),
        latencyMin: numOrNull(r.lat_min),
        latencyMax: numOrNull(r.lat_max),
        hist,
      });
    }
    for (const r of usageRows) {
      const h = num(r.hour);
      if (!exact.has(h)) continue;
      addUsage(usage, spanIndex(q.bounds, h * STATS_HOUR), {
        model: r.model,
        entries: r.n_entries,
        input: r.n_input,
        output: r.n_output,
        total: r.n_total,
        cache_read: r.n_cache_read,
        cache_creation: r.n_cache_creation,
      });
    }
    return { hours: exact.size, scan };
  }

  /**
   * The candidate hours whose start rows have distinct ids: those checked at their present count
   * (call_stats_checked), and those whose ids' states say so now, which are then recorded.
   */
  async #distinctHours(projectId: string, candidates: HourRow[], checkedRows: { hour: string; s: string }[]): Promise<Set<number>> {
    const checked = new Map(checkedRows.map((r) => [num(r.hour), r.s]));
    const distinct = new Set<number>();
    const toCheck: number[] = [];
    for (const r of candidates) {
      if (checked.get(num(r.hour)) === r.s) distinct.add(num(r.hour));
      else toCheck.push(num(r.hour));
    }
    if (!toCheck.length) return distinct;
    const starts = new Map(candidates.map((r) => [num(r.hour), r.s]));
    const counted = await this.#db.all<{ hour: string; u: string }>(
      `SELECT hour, uniqExactMerge(ids) AS u FROM call_stats_hours
       WHERE project_id = {p:String} AND hour IN {hs:Array(Int64)} GROUP BY hour`,
      { p: projectId, hs: toCheck },
    );
    // Counted after the sums were read: a start written in between makes u differ (scanned now,
    // checked again next time); a repeated one leaves u as it was, and the sums read before it.
    const found = counted.filter((r) => starts.get(num(r.hour)) === r.u);
    for (const r of found) distinct.add(num(r.hour));
    if (found.length) {
      await this.#db.insert(
        'call_stats_checked',
        found.map((r) => ({ project_id: projectId, hour: num(r.hour), starts: num(r.u) })),
      );
    }
    return distinct;
  }

  /**
   * Adds the span cells of the calls started in `ranges` (all of the bounds when null), read
   * from `calls FINAL`: given ranges, only the ids `calls_by_start` holds for them are merged.
   */
  async #scan(
    q: { projectId: string; opNames?: string[] | null; bounds: number[]; withUsage: boolean },
    ranges: [number, number][] | null,
    calls: Map<number, CallAcc>,
    usage: Map<string, UsageCell>,
  ): Promise<void> {
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.opNames?.length ? { op_names: q.opNames } : null });
    const rangeArgs: Record<string, number> = {};
    const inRanges = (ranges ?? []).map(([a, b], i) => {
      rangeArgs[`ra${i}`] = a;
      rangeArgs[`rb${i}`] = b;
      return `(started_at >= {ra${i}:Int64} AND started_at < {rb${i}:Int64})`;
    });
    const from = ranges
      ? `FROM calls FINAL PREWHERE project_id = {p:String}
           AND id IN (SELECT id FROM calls_by_start WHERE project_id = {p:String} AND (${inRanges.join(' OR ')}))
         WHERE ${where} AND (${inRanges.join(' OR ')})`
      : `FROM calls FINAL WHERE ${where} AND started_at >= {from:Int64} AND started_at < {to:Int64}`;
    const span = `roundDown(started_at, ${BOUNDS}) AS span`;
    const args = {
      ...params,
      ...rangeArgs,
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
    const [callCells, usageCells] = await Promise.all([callRows, usageRows]);
    const spanOf = new Map(q.bounds.map((b, i) => [b, i]));
    for (const r of callCells) {
      const latencyCount = num(r.latency_count);
      addCall(calls, spanOf.get(num(r.span))!, {
        count: num(r.n),
        errors: num(r.errors),
        latencyCount,
        latencySum: latencyCount ? num(r.latency_sum) : 0,
        latencyMin: latencyCount ? numOrNull(r.latency_min) : null,
        latencyMax: latencyCount ? numOrNull(r.latency_max) : null,
        hist: new Map(r.hist_keys.map((k, i) => [num(k), num(r.hist_counts[i])])),
      });
    }
    for (const r of usageCells) addUsage(usage, spanOf.get(num(r.span))!, r);
  }
}

function addCall(cells: Map<number, CallAcc>, cell: number, c: CallAcc): void {
  const a = cells.get(cell);
  if (!a) {
    cells.set(cell, c);
    return;
  }
  a.count += c.count;
  a.errors += c.errors;
  a.latencyCount += c.latencyCount;
  a.latencySum += c.latencySum;
  if (c.latencyMin !== null) a.latencyMin = a.latencyMin === null ? c.latencyMin : Math.min(a.latencyMin, c.latencyMin);
  if (c.latencyMax !== null) a.latencyMax = a.latencyMax === null ? c.latencyMax : Math.max(a.latencyMax, c.latencyMax);
  for (const [k, n] of c.hist) a.hist.set(k, (a.hist.get(k) ?? 0) + n);
}

function addUsage(
  cells: Map<string, UsageCell>,
  cell: number,
  r: Pick<SpanUsageRow, 'model' | 'entries' | 'input' | 'output' | 'total' | 'cache_read' | 'cache_creation'>,
): void {
  const key = `${cell}\u0000${r.model}`;
  const u = cells.get(key) ?? {
    cell,
    model: r.model,
    entries: 0,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    totalTokensCount: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  };
  cells.set(key, u);
  u.entries += num(r.entries);
  u.inputTokens += num(r.input);
  u.outputTokens += num(r.output);
  u.totalTokens += num(r.total);
  // Every entry has a total under the one usage rule (reported, else input + output).
  u.totalTokensCount += num(r.entries);
  u.cacheReadInputTokens += num(r.cache_read);
  u.cacheCreationInputTokens += num(r.cache_creation);
}
