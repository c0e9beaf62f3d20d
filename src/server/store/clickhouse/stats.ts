/**
 * ClickHouse implementation of StatsStore. Call facts stream from the merged calls. Cells are
 * spans (the request's buckets, StatsStore.spanCells), summed over ops, and each hour of the
 * window is read one of three ways (docs/clickhouse.md "Stats rollup"): a whole exact hour from
 * the per-hour cells the views of migration 24 keep at insert, an exact hour a bound cuts from
 * the start-ordered per-call rows, and an hour the cells cannot answer (a loose part, a start
 * alone, an id started twice, retention) from `calls FINAL`, found through `calls_by_start`.
 * Where that would merge much of the window anyway, one plain scan answers. rollupCells answers
 * null (no 5-minute cells). The latency histogram is binned in SQL with core/statsHistogram.ts's
 * constants; usage cells add up each call's `summary_usage_cells`, computed at insert under the
 * one usage rule (usageSql.ts). Prices are never in cells: the domain prices them (CostsStore).
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
/** Ranges merged from calls beside the stored cells at most; more (scattered inexact hours) scan the window. */
const MAX_RANGES = 32;
/**
 * Past this share of the project's start rows, the ids of changed hours are checked by one pass
 * over every id (a count against a count of distinct ids) instead of looking each one up.
 */
const WHOLE_CHECK_SHARE = 0.125;

/** What the last spanCells read where: hours from stored cells, from start-ordered rows, and the ranges merged from calls ('all': one plain scan). */
export interface StatsReadTrace {
  storedHours: number;
  rowHours: number;
  scanned: [number, number][] | 'all';
  /** Hours whose ids were checked for a second start in this read. */
  checkedHours: number;
}

interface HourRow {
  hour: string;
  s: string;
  c: string;
  k: string | null;
  age: string;
  n: string;
  n_errors: string;
  lat_sum: string;
  lat_min: string | null;
  lat_max: string | null;
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

/** A span's cell as it is added up from stored hours and scanned rows: its histogram decoded. */
type CallAcc = Omit<CallCell, 'cell' | 'latencyHist'> & { hist: Histogram };

/**
 * Usage cells per span and model, from a column of usage cells (SUMMARY_USAGE_CELLS_TYPE)
 * selected `FROM ...` beside the span.
 */
const usageBySpanSql = (span: string, column: string, from: string) =>
  `SELECT span, u.1 AS model, count() AS entries, sum(u.2) AS input, sum(u.3) AS output, sum(u.4) AS total,
     sum(u.5) AS cache_read, sum(u.6) AS cache_creation
   FROM (SELECT ${span}, arrayJoin(JSONExtract(ifNull(${column}, '[]'), '${SUMMARY_USAGE_CELLS_TYPE}')) AS u ${from})
   GROUP BY span, model`;

type Cells = { calls: CallCell[]; usage: UsageCell[] };
type SpanQuery = { projectId: string; opNames?: string[] | null; bounds: number[]; withUsage: boolean };

/** The stored cells' op column matching `opNames` (the calls filter's rule: exact names, or `name:*` prefixes); null for every op. */
function opMatch(projectId: string, opNames: string[] | null | undefined): { sql: string; params: Record<string, string[]> } | null {
  const clause = planFilter(opNames?.length ? { op_names: opNames } : {}, projectId).find((c) => c.k === 'opNames');
  if (!clause || clause.k !== 'opNames') return null;
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

/** The common arguments of a span query: the bounds as runs and the histogram's constants. */
function spanArgs(bounds: number[]): Record<string, unknown> {
  return {
    ...boundRuns(bounds),
    from: bounds[0],
    to: bounds.at(-1),
    exact: HISTOGRAM_KEY.exactLimit,
    lg: HISTOGRAM_KEY.logGamma,
    lb: HISTOGRAM_KEY.logBase,
  };
}

export class ClickHouseStatsStore implements StatsStore {
  readonly #db: ClickHouseDatabase;
  readonly #stored: boolean;
  readonly #settleSeconds: number;
  /** Where the last spanCells read from (tests and benchmarks). */
  lastRead: StatsReadTrace | null = null;
  /**
   * `stored: false` reads every span from calls (the plain query), for tests and benchmarks.
   * `settleSeconds`: how long an hour must have had no write before a check of its ids is kept.
   */
  constructor(db: ClickHouseDatabase, options: { stored?: boolean; settleSeconds?: number } = {}) {
    this.#db = db;
    this.#stored = options.stored ?? true;
    this.#settleSeconds = options.settleSeconds ?? 60;
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

  async spanCells(q: SpanQuery): Promise<Cells> {
    if (q.bounds.length < 2) return { calls: [], usage: [] };
    const calls = new Map<number, CallAcc>();
    const usage = new Map<string, UsageCell>();
    const stored = this.#stored ? await this.#storedHours(q, calls, usage) : null;
    if (stored) {
      this.lastRead = stored;
    } else {
      calls.clear();
      usage.clear();
      await this.#scan(q, null, calls, usage);
      this.lastRead = { storedHours: 0, rowHours: 0, scanned: 'all', checkedHours: 0 };
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
   * Adds the spans from the stored cells where they are exact, and answers null (having added
   * nothing worth keeping) when a plain scan should answer. An hour is exact when every start
   * part written in it came with its end (starts = complete), none of its ids was started twice
   * (in it or in another hour: call_stats_starts), and no loose part or retention touched its
   * calls. Whole exact hours inside one span come from the cells, exact hours a bound cuts from
   * call_stats_rows in start order, inexact hours from calls FINAL.
   */
  async #storedHours(q: SpanQuery, calls: Map<number, CallAcc>, usage: Map<string, UsageCell>): Promise<StatsReadTrace | null> {
    const from = q.bounds[0]!;
    const to = q.bounds.at(-1)!;
    const h0 = Math.floor(from / STATS_HOUR);
    const h1 = Math.ceil(to / STATS_HOUR);
    const ops = opMatch(q.projectId, q.opNames);
    const args = { p: q.projectId, h0, h1, ...ops?.params };
    const inHours = 'project_id = {p:String} AND hour >= {h0:Int64} AND hour < {h1:Int64}';
    // Every hour of the project with starts not checked at their count, and the window's hours:
    // the counts and the window's sums in one read, so they agree.
    const sums = ops ? `every = 0 AND ${ops.sql}` : 'every = 1';
    const m = `${sums} AND hour >= {h0:Int64} AND hour < {h1:Int64}`;
    const [hourRows, usageRows, loose, dirtyRows] = await Promise.all([
      this.#db.all<HourRow>(
        `SELECT hour, s, c, k, age, n, n_errors, lat_sum, lat_min, lat_max FROM (
           SELECT hour, sumIf(starts, every = 1) AS s, sumIf(complete, every = 1) AS c,
             dateDiff('second', max(written), now()) AS age,
             sumIf(complete, ${m}) AS n, sumIf(errors, ${m}) AS n_errors, sumIf(latency_sum, ${m}) AS lat_sum,
             minIf(latency_min, ${m}) AS lat_min, maxIf(latency_max, ${m}) AS lat_max
           FROM call_stats_hours WHERE project_id = {p:String} GROUP BY hour) AS h
         LEFT JOIN (SELECT hour, max(starts) AS k FROM call_stats_checked WHERE project_id = {p:String} GROUP BY hour) AS k USING hour
         WHERE (hour >= {h0:Int64} AND hour < {h1:Int64}) OR k IS NULL OR k != s
         SETTINGS join_use_nulls = 1`,
        args,
      ),
      q.withUsage
        ? this.#db.all<HourUsageRow>(
            `SELECT hour, model, sum(entries) AS n_entries, sum(input) AS n_input, sum(output) AS n_output, sum(total) AS n_total,
               sum(cache_read) AS n_cache_read, sum(cache_creation) AS n_cache_creation
             FROM call_stats_usage_hours WHERE ${inHours}${ops ? ` AND ${ops.sql}` : ''} GROUP BY hour, model`,
            args,
          )
        : Promise.resolve([]),
      this.#db.get<{ n: string }>('SELECT count() AS n FROM call_stats_loose WHERE project_id = {p:String}', args),
      this.#db.all<{ hour: string }>(`SELECT DISTINCT hour FROM call_stats_dirty WHERE ${inHours}`, args),
    ]);
    const looseCount = num(loose?.n ?? 0);
    if (looseCount > LOOSE_LIMIT) return null;
    const bad = new Set(dirtyRows.map((d) => num(d.hour)));
    const [touched, check] = await Promise.all([
      // The hours of the calls that loose parts belong to, by key lookups in the merged calls.
      looseCount > 0
        ? this.#db.all<{ hour: string }>(
            `SELECT DISTINCT intDiv(started_at, ${STATS_HOUR}) AS hour FROM calls FINAL
             PREWHERE project_id = {p:String} AND id GLOBAL IN (SELECT id FROM call_stats_loose WHERE project_id = {p:String})
             WHERE started_at >= {from:Int64} AND started_at < {to:Int64}`,
            { ...args, from, to },
          )
        : Promise.resolve([]),
      this.#checkStarts(q.projectId, hourRows),
    ]);
    for (const t of touched) bad.add(num(t.hour));
    for (const h of check.twice) bad.add(h);

    // Hours a bound cuts: the window's edges and bounds off the hour.
    const cut = new Set<number>();
    for (const b of q.bounds) if (b % STATS_HOUR !== 0) cut.add(Math.floor(b / STATS_HOUR));
    const whole: HourRow[] = [];
    const rowHours: number[] = [];
    const mergeHours: number[] = [];
    for (const r of hourRows) {
      const h = num(r.hour);
      if (h < h0 || h >= h1) continue;
      const exact = r.s === r.c && !bad.has(h) && (r.k === r.s || check.verified.has(h));
      if (!exact) mergeHours.push(h);
      else if (cut.has(h)) rowHours.push(h);
      else whole.push(r);
    }
    const scan: [number, number][] = [];
    for (const h of mergeHours.sort((a, b) => a - b)) {
      const a = Math.max(h * STATS_HOUR, from);
      const b = Math.min((h + 1) * STATS_HOUR, to);
      if (b <= a) continue;
      const last = scan[scan.length - 1];
      if (last && last[1] === a) last[1] = b;
      else scan.push([a, b]);
    }
    const merged = scan.reduce((n, [a, b]) => n + b - a, 0);
    if (scan.length > MAX_RANGES || merged * 4 > to - from) return null;

    const exactHours = new Set(whole.map((r) => num(r.hour)));
    await Promise.all([
      this.#wholeHours(q, ops, whole, calls),
      this.#rows(q, ops, rowHours, calls, usage),
      scan.length ? this.#scan(q, scan, calls, usage) : null,
    ]);
    for (const r of usageRows) {
      const h = num(r.hour);
      if (!exactHours.has(h)) continue;
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
    return { storedHours: whole.length, rowHours: rowHours.length, scanned: scan, checkedHours: check.checked };
  }

  /** Adds whole exact hours from the cells: the sums read already, the histograms merged per span. */
  async #wholeHours(q: SpanQuery, ops: ReturnType<typeof opMatch>, whole: HourRow[], calls: Map<number, CallAcc>): Promise<void> {
    if (!whole.length) return;
    const hists = await this.#db.all<{ span: string; hist_keys: string[]; hist_counts: string[] }>(
      `SELECT roundDown(hour * ${STATS_HOUR}, ${BOUNDS}) AS span, sumMap(hist.1, hist.2) AS h, h.1 AS hist_keys, h.2 AS hist_counts
       FROM call_stats_hours WHERE project_id = {p:String} AND hour IN {hs:Array(Int64)} AND ${ops ? `every = 0 AND ${ops.sql}` : 'every = 1'}
       GROUP BY span`,
      { p: q.projectId, hs: whole.map((r) => num(r.hour)), ...ops?.params, ...boundRuns(q.bounds) },
    );
    for (const r of whole) {
      const n = num(r.n);
      if (n === 0) continue;
      addCall(calls, spanIndex(q.bounds, num(r.hour) * STATS_HOUR), {
        count: n,
        errors: num(r.n_errors),
        latencyCount: n,
        latencySum: num(r.lat_sum),
        latencyMin: numOrNull(r.lat_min),
        latencyMax: numOrNull(r.lat_max),
        hist: new Map(),
      });
    }
    const spanOf = new Map(q.bounds.map((b, i) => [b, i]));
    for (const r of hists) {
      const a = calls.get(spanOf.get(num(r.span))!);
      if (a) r.hist_keys.forEach((k, i) => a.hist.set(num(k), (a.hist.get(num(k)) ?? 0) + num(r.hist_counts[i])));
    }
  }

  /**
   * Adds the exact hours a bound cuts from call_stats_rows, read in start order: in an exact hour
   * each start row is its call as it stands (started once, with its end, untouched since).
   */
  async #rows(
    q: SpanQuery,
    ops: ReturnType<typeof opMatch>,
    hours: number[],
    calls: Map<number, CallAcc>,
    usage: Map<string, UsageCell>,
  ): Promise<void> {
    if (!hours.length) return;
    const from = `FROM call_stats_rows WHERE project_id = {p:String} AND started_at >= {from:Int64} AND started_at < {to:Int64}
      AND intDiv(started_at, ${STATS_HOUR}) IN {hs:Array(Int64)} AND complete = 1${ops ? ` AND ${ops.sql}` : ''}`;
    const args = { p: q.projectId, hs: hours, ...ops?.params, ...spanArgs(q.bounds) };
    const span = `roundDown(started_at, ${BOUNDS}) AS span`;
    const [callCells, usageCells] = await Promise.all([
      this.#db.all<SpanCallRow>(
        `SELECT span, count() AS n, countIf(failed = 1) AS errors, count() AS latency_count, sum(lat) AS latency_sum,
           min(lat) AS latency_min, max(lat) AS latency_max,
           sumMap([${BIN_KEY}], [toUInt64(1)]) AS hist, hist.1 AS hist_keys, hist.2 AS hist_counts
         FROM (SELECT ${span}, failed, assumeNotNull(lat) AS lat ${from}) GROUP BY span`,
        args,
      ),
      q.withUsage ? this.#db.all<SpanUsageRow>(usageBySpanSql(span, 'usage', from), args) : Promise.resolve([]),
    ]);
    addSpanCells(q.bounds, callCells, usageCells, calls, usage);
  }

  /**
   * Which of the hours whose start count moved since their last check have an id started twice
   * (`twice`: with every other hour that id was started in), and which do not (`verified`). An
   * hour's ids come from calls_by_start, which holds every start part in start order.
   * A checked hour quiet for settleSeconds is recorded with the count read before the check, so
   * later reads skip it while its count stands; a moving hour is checked again, since a view's
   * rows of one insert may land in call_stats_hours before call_stats_starts. Twice is for good
   * (call_stats_dirty), so such an hour's check is recorded as well.
   */
  async #checkStarts(projectId: string, hourRows: HourRow[]): Promise<{ twice: number[]; verified: Set<number>; checked: number }> {
    const changed = hourRows.filter((r) => r.k !== r.s);
    const verified = new Set<number>();
    if (!changed.length) return { twice: [], verified, checked: 0 };
    const hs = changed.map((r) => num(r.hour));
    const p = { p: projectId, hs };
    const total = await this.#db.get<{ n: string }>(
      `SELECT sumIf(starts, every = 1) AS n FROM call_stats_hours WHERE project_id = {p:String}`,
      p,
    );
    const moved = changed.reduce((n, r) => n + num(r.s), 0);
    let twiceRows: { hour: string }[];
    if (moved > num(total?.n ?? 0) * WHOLE_CHECK_SHARE) {
      // Most of the project changed (a bulk load): one pass over every id, and only where some
      // id came twice, which ones.
      const all = await this.#db.get<{ n: string; u: string }>(
        'SELECT count() AS n, uniqExact(id_hash) AS u FROM call_stats_starts WHERE project_id = {p:String}',
        p,
      );
      twiceRows =
        all && all.n === all.u
          ? []
          : await this.#db.all<{ hour: string }>(
              `SELECT DISTINCT arrayJoin(groupUniqArray(hour)) AS hour FROM call_stats_starts WHERE project_id = {p:String}
               GROUP BY id_hash HAVING count() > 1`,
              p,
            );
    } else {
      twiceRows = await this.#db.all<{ hour: string }>(
        `SELECT DISTINCT arrayJoin(groupUniqArray(hour)) AS hour FROM call_stats_starts
         WHERE project_id = {p:String} AND id_hash GLOBAL IN (
           SELECT sipHash64(id) FROM calls_by_start WHERE project_id = {p:String} AND intDiv(started_at, ${STATS_HOUR}) IN {hs:Array(Int64)})
         GROUP BY id_hash HAVING count() > 1`,
        p,
      );
    }
    const twice = twiceRows.map((r) => num(r.hour));
    if (twice.length)
      await this.#db.insert(
        'call_stats_dirty',
        twice.map((hour) => ({ project_id: projectId, hour })),
      );
    const gone = new Set(twice);
    const settled: { project_id: string; hour: number; starts: number }[] = [];
    for (const r of changed) {
      const h = num(r.hour);
      if (!gone.has(h)) verified.add(h);
      // An hour found with an id started twice is dirty for good, so its check is kept too:
      // otherwise every later read would look its ids up again.
      if (num(r.age) >= this.#settleSeconds) settled.push({ project_id: projectId, hour: h, starts: num(r.s) });
    }
    if (settled.length) await this.#db.insert('call_stats_checked', settled);
    return { twice, verified, checked: changed.length };
  }

  /**
   * Adds the span cells of the calls started in `ranges` (all of the bounds when null), read
   * from `calls FINAL`: given ranges, only the ids `calls_by_start` holds for them are merged.
   */
  async #scan(q: SpanQuery, ranges: [number, number][] | null, calls: Map<number, CallAcc>, usage: Map<string, UsageCell>): Promise<void> {
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.opNames?.length ? { op_names: q.opNames } : null });
    const rangeArgs: Record<string, number> = {};
    const inRanges = (ranges ?? []).map(([a, b], i) => {
      rangeArgs[`ra${i}`] = a;
      rangeArgs[`rb${i}`] = b;
      return `(started_at >= {ra${i}:Int64} AND started_at < {rb${i}:Int64})`;
    });
    const from = ranges
      ? `FROM calls FINAL PREWHERE project_id = {p:String}
           AND id GLOBAL IN (SELECT id FROM calls_by_start WHERE project_id = {p:String} AND (${inRanges.join(' OR ')}))
         WHERE ${where} AND (${inRanges.join(' OR ')})`
      : `FROM calls FINAL WHERE ${where} AND started_at >= {from:Int64} AND started_at < {to:Int64}`;
    const span = `roundDown(started_at, ${BOUNDS}) AS span`;
    const args = { ...params, ...rangeArgs, ...spanArgs(q.bounds) };
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
      ? this.#db.all<SpanUsageRow>(usageBySpanSql(span, 'summary_usage_cells', from), args)
      : Promise.resolve([]);
    const [callCells, usageCells] = await Promise.all([callRows, usageRows]);
    addSpanCells(q.bounds, callCells, usageCells, calls, usage);
  }
}

/** Adds span rows (as the scans answer them) to the cells. */
function addSpanCells(
  bounds: number[],
  callCells: SpanCallRow[],
  usageCells: SpanUsageRow[],
  calls: Map<number, CallAcc>,
  usage: Map<string, UsageCell>,
): void {
  const spanOf = new Map(bounds.map((b, i) => [b, i]));
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
