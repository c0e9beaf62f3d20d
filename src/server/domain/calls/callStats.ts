/**
 * `/calls/stats`: call metrics per time bucket and usage metrics per time bucket and model
 * (docs/api/evaluations.md §4; buckets in statsTime.ts, columns in statsMetrics.ts).
 *
 * Two ways to the same numbers:
 * - exact: every matching call's facts, read from the calls table (any filter);
 * - rollup: 1-hour and 5-minute cells per op (StatsStore), so 30 days of a million calls are
 *   720 rows per op instead of a million. Hour cells wholly inside one bucket are used first,
 *   then 5-minute cells for what is left (bucket edges an hour cell does not fit, as in a
 *   +05:30 zone); the cell the window's end cuts counts whole when no call started after the
 *   end in it (a window ending now). What no cell fits is read exactly: the partial cell at the
 *   window's start, the end's when calls follow the end in it, cells a bucket boundary cuts (a
 *   zone whose offset is not a multiple of 5 minutes), and cells in which a model's price
 *   changes. Latency percentiles from the rollup are within 1 % (statsHistogram.ts); everything
 *   else is exact. (The SQLite store keeps each cell for all ops together too, statsRollup.ts.)
 * The rollup is used when it can answer: a filter on op_names at most, usage metrics asked
 * for sum/avg/count only, at most a quarter of the window left to read exactly (so a
 * granularity below 5 minutes scans), and — unless forced — more than EXACT_SCAN_CALLS calls
 * in the window: below that an exact scan is cheap and its percentiles are exact.
 * A backend that aggregates at read time (ClickHouse) has no stored cells, and every query is a
 * scan of its own there: it answers the request's buckets themselves as cells in one scan
 * (spans, addSpans), under the same conditions and with the same histograms.
 *
 * Decisions: end < start is a 400 (the reference's InvalidRequest); end = start answers no
 * buckets. The time filter is on started_at (the reference's sortable_datetime), deleted
 * calls never count. Unknown metrics, percentiles outside 0–100, a non-positive granularity
 * and unknown time zones are 422s (contract validation).
 */
import type { CallsFilter } from '../../../contract/calls.js';
import type { CallMetric, CallStatsReq, CallStatsRes, UsageMetric } from '../../../contract/stats.js';
import { BadRequestError } from '../../errors.js';
import { ROLLUP_WIDTHS, type CallCell, type UsageCell } from '../../store/StatsStore.js';
import type { Store } from '../../store/Store.js';
import { planFilter } from '../../store/query/index.js';
import { formatMicros, nowMicros, parseIsoToMicros } from '../../core/datetime.js';
import { Pricing, StatsBuckets } from '../stats/statsBuckets.js';
import { usageEntries } from '../../core/usage.js';
import { planMetrics, type MetricPlan } from '../stats/statsMetrics.js';
import { bucketIndex, bucketStarts, chooseGranularity } from '../stats/statsTime.js';

/** Windows with fewer calls than this are scanned exactly even when the rollup could answer. */
const EXACT_SCAN_CALLS = 20_000;

export interface CallStatsOptions {
  /** `auto` (default) picks as described above; the others are for tests and benchmarks. */
  mode?: 'auto' | 'exact' | 'rollup';
  /** Ends a window the request leaves open: the services clock's now (the system clock when absent). */
  now?: number;
}

const COST_METRICS = new Set<UsageMetric>(['input_cost', 'output_cost', 'total_cost']);

interface Plan {
  projectId: string;
  filter: CallsFilter | null | undefined;
  start: number;
  end: number;
  starts: number[];
  callPlans: MetricPlan<CallMetric>[];
  usagePlans: MetricPlan<UsageMetric>[];
}

/** `/calls/stats`. */
export async function callStats(store: Store, req: CallStatsReq, options: CallStatsOptions = {}): Promise<CallStatsRes> {
  const start = parseIsoToMicros(req.start)!;
  const end = req.end ? parseIsoToMicros(req.end)! : (options.now ?? nowMicros());
  if (end < start) throw new BadRequestError('end must not be before start');
  const granularity = chooseGranularity((end - start) / 1e6, req.granularity);
  const timezone = req.timezone ?? 'UTC';
  const plan: Plan = {
    projectId: req.project_id,
    filter: req.filter,
    start,
    end,
    starts: bucketStarts({ start, end, granularity, timeZone: timezone }),
    callPlans: planMetrics(req.call_metrics),
    usagePlans: planMetrics(req.usage_metrics),
  };
  const buckets = new StatsBuckets(plan.starts, plan.callPlans, plan.usagePlans);
  const pricing = new Pricing(store, req.project_id);
  if (plan.starts.length && (plan.callPlans.length || plan.usagePlans.length)) {
    const mode = options.mode ?? 'auto';
    const usedRollup =
      mode !== 'exact' &&
      rollupCanAnswer(plan) &&
      ((await addSpans(store, plan, buckets, pricing, mode)) ?? (await addRollup(store, plan, buckets, pricing, mode)));
    if (!usedRollup) await scan(store, plan, [[start, end]], buckets, pricing);
  }
  return {
    start: formatMicros(start),
    end: formatMicros(end),
    granularity,
    timezone,
    call_buckets: req.call_metrics ? buckets.renderCalls() : [],
    usage_buckets: req.usage_metrics ? buckets.renderUsage() : [],
  };
}

/** The rollup holds counts, sums and latency histograms per op: which requests fit. */
function rollupCanAnswer(plan: Plan): boolean {
  // The filter's own rule of which fields are set (an empty thread_ids still filters).
  const otherFilters = planFilter(plan.filter ?? {}, plan.projectId).some((c) => c.k !== 'opNames');
  if (otherFilters) return false;
  const latencyCounts = plan.callPlans.some(
    (p) => p.metric === 'latency_ms' && p.aggregations.some((a) => a === 'count_true' || a === 'count_false'),
  );
  const usageBeyondSums = plan.usagePlans.some(
    (p) => p.percentiles.length > 0 || p.aggregations.some((a) => !['sum', 'avg', 'count'].includes(a)),
  );
  return !latencyCounts && !usageBeyondSums;
}

type Ranges = [number, number][];

/** Cells of `width` that an instant cuts (lies strictly inside). */
function cutCells(instants: Iterable<number>, width: number): Set<number> {
  const cut = new Set<number>();
  for (const t of instants) if (t % width !== 0) cut.add(Math.floor(t / width));
  return cut;
}

/**
 * The cells as [from, to) runs to read: one per stretch of consecutive cells (usually the two
 * edges of a window), or a single run over all of them when they are too scattered.
 */
function cellRuns(cells: Set<number>): [number, number][] {
  const sorted = [...cells].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const c of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[1] === c) last[1] = c + 1;
    else runs.push([c, c + 1]);
  }
  return runs.length > 32 ? [[sorted[0]!, sorted[sorted.length - 1]! + 1]] : runs;
}

/** `ranges` minus the given cells of `width` (a cell past a range's end covers it to that end). */
function subtractCells(ranges: Ranges, cells: Set<number>, width: number): Ranges {
  const out: Ranges = [];
  for (const [a, b] of ranges) {
    let from = a;
    for (let c = Math.ceil(a / width); c * width < b; c++) {
      if (!cells.has(c)) continue;
      if (c * width > from) out.push([from, c * width]);
      from = Math.min((c + 1) * width, b);
    }
    if (b > from) out.push([from, b]);
  }
  return out;
}

/**
 * The cell of `width` the window's end cuts, when it can stand for the window's part of it: it
 * starts inside the last uncovered range, no bucket start cuts it, and no matching call started
 * between the end and the cell's end. That is the usual case of a window that ends now: the
 * current cell holds every call since its start, and a busy project's (a thousand a second)
 * would otherwise be scanned call by call on every request.
 */
async function endCell(store: Store, plan: Plan, uncovered: Ranges, width: number, cut: Set<number>): Promise<number | null> {
  const cell = Math.floor(plan.end / width);
  const last = uncovered[uncovered.length - 1];
  if (plan.end % width === 0 || !last || last[1] !== plan.end || cell * width < last[0] || cut.has(cell)) return null;
  const after = { projectId: plan.projectId, filter: plan.filter, from: plan.end, to: (cell + 1) * width, withUsage: false, limit: 1 };
  for await (const _ of store.stats.callFacts(after)) return null;
  return cell;
}

/**
 * Adds the rollup cells that lie wholly inside one bucket, widest first, and scans the time they
 * leave uncovered; false (having added nothing) when the exact scan should answer instead.
 */
async function addRollup(store: Store, plan: Plan, buckets: StatsBuckets, pricing: Pricing, mode: 'auto' | 'rollup'): Promise<boolean> {
  const withUsage = plan.usagePlans.length > 0;
  const withCosts = plan.usagePlans.some((p) => COST_METRICS.has(p.metric));
  let uncovered: Ranges = [[plan.start, plan.end]];
  const picked: { width: number; calls: CallCell[]; usage: UsageCell[] }[] = [];
  for (const width of ROLLUP_WIDTHS) {
    const cut = cutCells(plan.starts, width);
    const cells = new Set<number>();
    for (const [a, b] of uncovered) for (let c = Math.ceil(a / width); (c + 1) * width <= b; c++) if (!cut.has(c)) cells.add(c);
    const atEnd = await endCell(store, plan, uncovered, width, cut);
    if (atEnd !== null) cells.add(atEnd);
    if (cells.size === 0) continue;
    let rows: { calls: CallCell[]; usage: UsageCell[] } = { calls: [], usage: [] };
    for (const [fromCell, toCell] of cellRuns(cells)) {
      const got = await store.stats.rollupCells({
        projectId: plan.projectId,
        opNames: plan.filter?.op_names,
        width,
        fromCell,
        toCell,
        withUsage,
      });
      if (!got) return false;
      rows = { calls: rows.calls.concat(got.calls), usage: rows.usage.concat(got.usage) };
    }
    // A cell in which a model's price changes cannot be priced as a whole.
    if (withCosts) {
      await pricing.load(rows.usage.map((u) => u.model));
      for (const c of cutCells(pricing.changes(), width)) cells.delete(c);
    }
    picked.push({ width, calls: rows.calls.filter((c) => cells.has(c.cell)), usage: rows.usage.filter((u) => cells.has(u.cell)) });
    uncovered = subtractCells(uncovered, cells, width);
  }
  const left = uncovered.reduce((n, [a, b]) => n + b - a, 0);
  if (left * 4 > plan.end - plan.start) return false;
  const counted = picked.reduce((n, p) => p.calls.reduce((m, c) => m + c.count, n), 0);
  if (mode === 'auto' && counted < EXACT_SCAN_CALLS) return false;

  for (const { width, calls, usage } of picked) {
    for (const c of calls) buckets.addCallCell(bucketIndex(plan.starts, c.cell * width), c);
    for (const u of usage) {
      const at = u.cell * width;
      buckets.addUsageCell(bucketIndex(plan.starts, at), u, pricing.priceAt(u.model, at));
    }
  }
  await scan(store, plan, uncovered, buckets, pricing);
  return true;
}

/**
 * Adds cells of the request's own buckets, for a backend that aggregates at read time
 * (StatsStore.spanCells): each bucket's part of the window is one span, split where a model's
 * price changes so every span is priced whole; false (having added nothing) when the exact scan
 * should answer instead, null when the backend has no spans.
 */
async function addSpans(
  store: Store,
  plan: Plan,
  buckets: StatsBuckets,
  pricing: Pricing,
  mode: 'auto' | 'rollup',
): Promise<boolean | null> {
  const withUsage = plan.usagePlans.length > 0;
  const spans = (bounds: number[]) =>
    store.stats.spanCells({ projectId: plan.projectId, opNames: plan.filter?.op_names, bounds, withUsage });
  let bounds = [plan.start, ...plan.starts.slice(1), plan.end];
  let got = await spans(bounds);
  if (!got) return null;
  if (plan.usagePlans.some((p) => COST_METRICS.has(p.metric))) {
    await pricing.load(got.usage.map((u) => u.model));
    const cuts = pricing.changes().filter((t) => t > plan.start && t < plan.end && !bounds.includes(t));
    if (cuts.length) {
      bounds = [...new Set([...bounds, ...cuts])].sort((a, b) => a - b);
      got = (await spans(bounds))!;
    }
  }
  const counted = got.calls.reduce((n, c) => n + c.count, 0);
  if (mode === 'auto' && counted < EXACT_SCAN_CALLS) return false;
  for (const c of got.calls) buckets.addCallCell(bucketIndex(plan.starts, bounds[c.cell]!), c);
  for (const u of got.usage) buckets.addUsageCell(bucketIndex(plan.starts, bounds[u.cell]!), u, pricing.priceAt(u.model, bounds[u.cell]!));
  return true;
}

/** Adds the facts of every matching call started in the given [from, to) ranges. */
async function scan(store: Store, plan: Plan, ranges: [number, number][], buckets: StatsBuckets, pricing: Pricing): Promise<void> {
  const withUsage = plan.usagePlans.length > 0;
  const needPrices = plan.usagePlans.some((p) => COST_METRICS.has(p.metric));
  for (const [from, to] of ranges) {
    if (to <= from) continue;
    for await (const f of store.stats.callFacts({ projectId: plan.projectId, filter: plan.filter, from, to, withUsage })) {
      const entries = withUsage ? usageEntries(f.usageJson) : [];
      if (needPrices && !pricing.knows(entries)) await pricing.load(entries.map((e) => e.model));
      buckets.addFacts(bucketIndex(plan.starts, f.startedAt), f, entries, pricing);
    }
  }
}
