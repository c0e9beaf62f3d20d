/**
 * Conformance suite for StatsStore: `callFacts` sees exactly the visible calls, and the rollup
 * cells and span cells always equal an aggregation of those facts — after plain writes, late ends, ends that
 * overtake their starts, re-sent ends, renames and deletes. Then `/calls/stats` computed from the
 * rollup agrees with an exact scan (percentiles within 1 %) across time zones and a price change.
 * Every backend's test file calls `describeStatsConformance(open)`; a backend without a rollup
 * (rollupCells → null) or without spans (spanCells → null) skips those checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallStatsReq } from '../../../contract/stats.js';
import { callStats } from '../../domain/calls/callStats.js';
import { addToHistogram, histogramPercentiles, mergeEncodedHistogram, type Histogram } from '../../core/statsHistogram.js';
import { usageEntries } from '../../core/usage.js';
import { createRng } from '../../demo/seededRandom.js';
import type { OpenStore } from '../../testing/tempStore.js';
import { ROLLUP_WIDTHS, type CallCell, type RollupWidth, type UsageCell } from '../StatsStore.js';
import type { CallEndWrite, CallStartWrite, Store } from '../Store.js';

const P = 'acme/stats';
const T0 = Date.UTC(2024, 0, 1) * 1000;
const SEC = 1_000_000;
const OPS = ['op-a', 'weave:///acme/stats/op/llm:v1', 'weave:///acme/stats/op/llm:v2'];

const start = (id: string, startedAt: number, opName = OPS[0]!, parentId: string | null = null): CallStartWrite => ({
  kind: 'start',
  projectId: P,
  id,
  traceId: `t-${parentId ?? id}`,
  parentId,
  threadId: null,
  turnId: null,
  opName,
  displayName: null,
  startedAt,
  attributesJson: '{}',
  inputsJson: '{}',
  otelDumpJson: null,
  inputRefs: [],
  wbUserId: 'u',
  wbRunId: null,
  wbRunStep: null,
});
const end = (id: string, endedAt: number, o: { exception?: string; usage?: Record<string, unknown> } = {}): CallEndWrite => ({
  kind: 'end',
  projectId: P,
  id,
  endedAt,
  exception: o.exception ?? null,
  outputJson: null,
  summaryJson: JSON.stringify(o.usage ? { usage: o.usage } : {}),
  outputRefs: [],
  wbRunStepEnd: null,
});
/** Usage with the odd shapes SDKs send: other key names, fractions, strings, non-objects. */
const usage = (i: number) => ({
  'gpt-4o': { prompt_tokens: 10 + i, completion_tokens: 5, total_tokens: 15 + i },
  ...(i % 3 ? {} : { claude: { input_tokens: 7, output_tokens: i, cache_read_input_tokens: i % 4, cache_creation_input_tokens: 1 } }),
  ...(i % 5 ? {} : { odd: { prompt_tokens: 2.7, completion_tokens: '3', total_tokens: null, input_tokens: true }, junk: 5 }),
});

interface CellTotals {
  count: number;
  errors: number;
  latencyCount: number;
  latencySum: number;
  min: number | null;
  max: number | null;
  p90: number | null;
  usage: Record<string, number[]>;
}

const emptyTotals = (): CellTotals & { hist: Histogram } => ({
  count: 0,
  errors: 0,
  latencyCount: 0,
  latencySum: 0,
  min: null,
  max: null,
  p90: null,
  usage: {},
  hist: new Map(),
});

/** Per cell of `width`, from the facts: what the rollup must hold. */
async function expectedCells(store: Store, opNames: string[] | null, width: number): Promise<Map<number, CellTotals>> {
  const out = new Map<number, CellTotals & { hist: Histogram }>();
  for await (const f of store.stats.callFacts({
    projectId: P,
    filter: opNames ? { op_names: opNames } : null,
    from: 0,
    to: T0 * 2,
    withUsage: true,
  })) {
    const cell = Math.floor(f.startedAt / width);
    const t = out.get(cell) ?? emptyTotals();
    out.set(cell, t);
    t.count += 1;
    t.errors += f.failed ? 1 : 0;
    if (f.latencyMs !== null) {
      t.latencyCount += 1;
      t.latencySum += f.latencyMs;
      t.min = Math.min(t.min ?? Infinity, f.latencyMs);
      t.max = Math.max(t.max ?? -Infinity, f.latencyMs);
      addToHistogram(t.hist, f.latencyMs);
    }
    for (const e of usageEntries(f.usageJson)) {
      const u = (t.usage[e.model] ??= [0, 0, 0, 0, 0, 0, 0]);
      [1, e.inputTokens, e.outputTokens, e.totalTokens, 1, e.cacheReadInputTokens, e.cacheCreationInputTokens].forEach(
        (v, i) => (u[i]! += v),
      );
    }
  }
  return finish(out);
}

/** Per cell of `width`, from the rollup (summed over ops). */
async function rollupTotals(store: Store, opNames: string[] | null, width: RollupWidth): Promise<Map<number, CellTotals> | null> {
  const cells = await store.stats.rollupCells({
    projectId: P,
    opNames,
    width,
    fromCell: 0,
    toCell: Math.ceil((T0 * 2) / width),
    withUsage: true,
  });
  return cells && totalsOf(cells, (cell) => cell);
}

/**
 * Per cell of `width`, from spans: one per cell that has calls by the facts, and the gaps
 * between them (which must be empty), keyed by the cell their span starts.
 */
async function spanTotals(store: Store, opNames: string[] | null, width: number): Promise<Map<number, CellTotals> | null> {
  const bounds = new Set([0, T0 * 2]);
  for (const cell of (await expectedCells(store, opNames, width)).keys()) bounds.add(cell * width).add((cell + 1) * width);
  const sorted = [...bounds].sort((a, b) => a - b);
  const cells = await store.stats.spanCells({ projectId: P, opNames, bounds: sorted, withUsage: true });
  return cells && totalsOf(cells, (span) => sorted[span]! / width);
}

function totalsOf(cells: { calls: CallCell[]; usage: UsageCell[] }, cellOf: (cell: number) => number): Map<number, CellTotals> {
  const out = new Map<number, CellTotals & { hist: Histogram }>();
  for (const c of cells.calls) {
    const t = out.get(cellOf(c.cell)) ?? emptyTotals();
    out.set(cellOf(c.cell), t);
    t.count += c.count;
    t.errors += c.errors;
    t.latencyCount += c.latencyCount;
    t.latencySum += c.latencySum;
    if (c.latencyMin !== null) t.min = Math.min(t.min ?? Infinity, c.latencyMin);
    if (c.latencyMax !== null) t.max = Math.max(t.max ?? -Infinity, c.latencyMax);
    if (c.latencyHist) mergeEncodedHistogram(t.hist, c.latencyHist);
  }
  for (const u of cells.usage) {
    out.get(cellOf(u.cell))!.usage[u.model] = [
      u.entries,
      u.inputTokens,
      u.outputTokens,
      u.totalTokens,
      u.totalTokensCount,
      u.cacheReadInputTokens,
      u.cacheCreationInputTokens,
    ];
  }
  return finish(out);
}

function finish(cells: Map<number, CellTotals & { hist: Histogram }>): Map<number, CellTotals> {
  return new Map([...cells].map(([cell, { hist, ...t }]) => [cell, { ...t, p90: histogramPercentiles(hist, [0.9])[0]! }]));
}

async function expectRollupMatchesFacts(store: Store): Promise<void> {
  for (const width of ROLLUP_WIDTHS) {
    for (const ops of [null, ['weave:///acme/stats/op/llm:*'], [OPS[0]!]]) {
      const expected = await expectedCells(store, ops, width);
      const rollup = await rollupTotals(store, ops, width);
      if (rollup) expect(rollup).toEqual(expected);
      const spans = await spanTotals(store, ops, width);
      if (spans) expect(spans).toEqual(expected);
    }
  }
}

/** Numbers equal up to float rounding; percentile columns within the histogram's 1 %. */
function expectClose(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const tolerance = /(^|\.)p[\d.]+_/.test(path) ? 0.01 : 1e-9;
    expect(Math.abs(actual - expected), path).toBeLessThanOrEqual(tolerance * Math.abs(expected) + 1e-9);
  } else if (expected && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else expect(actual, path).toEqual(expected);
}

export function describeStatsConformance(open: OpenStore): void {
  describe('StatsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    it('sees visible calls only, by start time, with the calls filter', async () => {
      await store.calls.writeCalls([
        start('f1', T0 + 1 * SEC),
        end('f1', T0 + 1 * SEC + 1500_999, { exception: 'boom', usage: usage(1) }),
        start('f2', T0 + 2 * SEC, OPS[1]),
        end('f3', T0 + 3 * SEC), // its start never arrives: invisible
      ]);
      const facts = [];
      for await (const f of store.stats.callFacts({ projectId: P, from: T0, to: T0 + 2 * SEC, withUsage: true })) facts.push(f);
      expect(facts).toEqual([{ startedAt: T0 + SEC, latencyMs: 1500, failed: true, usageJson: JSON.stringify(usage(1)) }]);
      const filtered = [];
      for await (const f of store.stats.callFacts({
        projectId: P,
        filter: { op_names: ['weave:///acme/stats/op/llm:*'] },
        from: T0,
        to: T0 + 10 * SEC,
        withUsage: false,
      }))
        filtered.push(f);
      expect(filtered).toEqual([{ startedAt: T0 + 2 * SEC, latencyMs: null, failed: false, usageJson: null }]);
      await store.calls.deleteCalls({ projectId: P, ids: ['f1', 'f2'], deletedAt: T0 });
      await expectRollupMatchesFacts(store);
    });

    it('keeps the rollup equal to the facts through late ends, re-ends, renames and deletes', async () => {
      const rng = createRng(11);
      const writes = [];
      for (let i = 0; i < 90; i++) {
        const at = T0 + i * 7 * SEC;
        writes.push(
          start(`c${i}`, at, OPS[i % 3]),
          end(`c${i}`, at + rng.int(1, 4000) * 1000, { exception: i % 7 ? undefined : 'x', usage: usage(i) }),
        );
      }
      await store.calls.writeCalls(writes);
      await expectRollupMatchesFacts(store);

      await store.calls.writeCalls([start('late', T0 + 100 * SEC, OPS[1]), start('late-child', T0 + 101 * SEC, OPS[2], 'late')]);
      await expectRollupMatchesFacts(store);
      await store.calls.writeCalls([end('late', T0 + 190 * SEC, { usage: usage(2) }), end('late-child', T0 + 102 * SEC)]);
      await expectRollupMatchesFacts(store);

      await store.calls.writeCalls([end('early', T0 + 250 * SEC, { usage: usage(3) })]);
      await expectRollupMatchesFacts(store);
      await store.calls.writeCalls([start('early', T0 + 200 * SEC)]);
      await expectRollupMatchesFacts(store);

      await store.calls.updateCallDisplayName({ projectId: P, id: 'c4', displayName: 'renamed' });
      await store.calls.writeCalls([end('c5', T0 + 35 * SEC + 9_000_000, { exception: 'late failure' })]);
      await expectRollupMatchesFacts(store);

      // A few at a time: some leave a cell's fastest or slowest call, some only calls inside its
      // range, which the SQLite rollup then keeps without a rescan (statsRollup.ts).
      for (const round of [
        [45, 46, 47],
        [50, 61],
        [70, 80, 81, 89],
        [52, 53, 54, 55, 56, 57],
      ]) {
        await store.calls.deleteCalls({ projectId: P, ids: round.map((i) => `c${i}`), deletedAt: T0 });
        await expectRollupMatchesFacts(store);
      }
      // Deleting the slowest call of a cell (and its child) must bring its max down.
      await store.calls.deleteCalls({ projectId: P, ids: ['late'], deletedAt: T0 });
      await expectRollupMatchesFacts(store);
      await store.calls.deleteCalls({ projectId: P, ids: ['early', ...Array.from({ length: 43 }, (_, i) => `c${i}`)], deletedAt: T0 });
      await expectRollupMatchesFacts(store);
      const width = ROLLUP_WIDTHS[1];
      const gone = await store.stats.rollupCells({
        projectId: P,
        width,
        fromCell: Math.floor(T0 / width),
        toCell: Math.floor(T0 / width) + 1,
        withUsage: true,
      });
      if (gone) expect(gone).toEqual({ calls: [], usage: [] });
      const goneSpans = await store.stats.spanCells({ projectId: P, bounds: [T0, T0 + width], withUsage: true });
      if (goneSpans) expect(goneSpans).toEqual({ calls: [], usage: [] });
    });

    it('answers /calls/stats from the rollup as an exact scan does', async () => {
      const rng = createRng(5);
      const DAY = 86_400 * SEC;
      const base = Date.UTC(2024, 2, 29) * 1000;
      const writes = [];
      for (let i = 0; i < 3_000; i++) {
        const at = base + rng.int(0, 4 * DAY);
        const model = rng.pick(['gpt-4o-mini', 'my-model']);
        writes.push(
          start(`s${i}`, at, rng.pick(OPS)),
          end(`s${i}`, at + Math.round(rng.logRange(5, 60_000)) * 1000, {
            exception: rng.chance(0.1) ? 'e' : undefined,
            usage: { [model]: { prompt_tokens: rng.int(1, 900), completion_tokens: rng.int(1, 300) } },
          }),
        );
      }
      for (let i = 0; i < writes.length; i += 1000) await store.calls.writeCalls(writes.slice(i, i + 1000));
      await store.costs.createPrices([
        {
          id: 'price-mid',
          pricingLevel: 'project',
          pricingLevelId: P,
          providerId: 'default',
          llmId: 'my-model',
          effectiveDate: base + DAY + 123 * SEC,
          promptTokenCost: 2e-6,
          completionTokenCost: 5e-6,
          promptTokenCostUnit: 'USD',
          completionTokenCostUnit: 'USD',
          createdBy: 'u',
          createdAt: base,
        },
      ]);
      const req = (over: Partial<CallStatsReq>): CallStatsReq => ({
        project_id: P,
        start: new Date(base / 1000 + 137_000).toISOString(),
        end: new Date((base + 4 * DAY) / 1000).toISOString(),
        call_metrics: [
          { metric: 'latency_ms', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: [50, 95, 99, 99.5] },
          { metric: 'call_count' },
          { metric: 'error_count', aggregations: ['sum', 'avg', 'count_true', 'count_false', 'min', 'max'], percentiles: [50] },
        ],
        usage_metrics: [
          { metric: 'input_tokens', aggregations: ['sum', 'avg', 'count'] },
          { metric: 'total_tokens', aggregations: ['sum', 'count'] },
          { metric: 'total_cost' },
          { metric: 'input_cost', aggregations: ['sum', 'avg'] },
        ],
        ...over,
      });
      for (const over of [
        { granularity: 3_600 },
        { granularity: 3_600, timezone: 'Asia/Kolkata' },
        { granularity: 86_400, timezone: 'Europe/Berlin' },
        { granularity: 21_600, timezone: 'America/New_York', filter: { op_names: ['weave:///acme/stats/op/llm:*'] } },
      ]) {
        const exact = await callStats(store, req(over), { mode: 'exact' });
        const total = exact.call_buckets.reduce((n, b) => n + (b.count as number), 0);
        expect(total).toBeGreaterThan(1000);
        let scanned = 0;
        const callFacts = (q: Parameters<Store['stats']['callFacts']>[0]) =>
          (async function* () {
            for await (const f of store.stats.callFacts(q)) yield (scanned++, f);
          })();
        const counting: Store = {
          ...store,
          stats: { rollupCells: (q) => store.stats.rollupCells(q), spanCells: (q) => store.stats.spanCells(q), callFacts },
        };
        expectClose(await callStats(counting, req(over), { mode: 'rollup' }), exact);
        // Only the edges of the window (and cells a price change cuts) are scanned; spans scan nothing.
        expect(scanned).toBeLessThan(total / 10);
      }
    });

    it('counts the cell a window ends in whole only when no call started after the end in it', async () => {
      const Q = 'acme/stats-end';
      const base = Date.UTC(2024, 5, 3) * 1000;
      // One call a second for 14 minutes: the third 5-minute cell holds calls up to 14:00 only.
      const writes = [];
      for (let i = 0; i < 840; i++) {
        const at = base + i * SEC;
        writes.push(
          { ...start(`e${i}`, at, OPS[i % 3]), projectId: Q },
          {
            ...end(`e${i}`, at + (50 + (i % 700)) * 1000, { usage: { 'gpt-4o': { prompt_tokens: i, completion_tokens: 3 } } }),
            projectId: Q,
          },
        );
      }
      await store.calls.writeCalls(writes);
      const statsTo = (endSeconds: number): CallStatsReq => ({
        project_id: Q,
        start: new Date((base - 2 * 3_600 * SEC) / 1000).toISOString(),
        end: new Date((base + endSeconds * SEC) / 1000).toISOString(),
        granularity: 3_600,
        call_metrics: [{ metric: 'latency_ms', aggregations: ['avg', 'count'], percentiles: [50, 99] }, { metric: 'call_count' }],
        usage_metrics: [{ metric: 'input_tokens', aggregations: ['sum'] }],
      });
      let scanned = 0;
      const counting: Store = {
        ...store,
        stats: {
          rollupCells: (q) => store.stats.rollupCells(q),
          spanCells: (q) => store.stats.spanCells(q),
          callFacts: (q) =>
            (async function* () {
              for await (const f of store.stats.callFacts(q)) yield (scanned++, f);
            })(),
        },
      };
      const hasCells =
        (await store.stats.rollupCells({ projectId: Q, width: ROLLUP_WIDTHS[0], fromCell: 0, toCell: 1, withUsage: false })) !== null;
      // Calls follow the end (12:30) in its cell: the part before the end is read call by call.
      const cutShort = await callStats(store, statsTo(750), { mode: 'exact' });
      expect(cutShort.call_buckets.reduce((n, b) => n + (b.count as number), 0)).toBe(750);
      expectClose(await callStats(counting, statsTo(750), { mode: 'rollup' }), cutShort);
      if (hasCells) expect(scanned).toBeGreaterThanOrEqual(150);
      // None follows the end (14:30) in its cell: the cell counts whole and nothing is scanned.
      scanned = 0;
      const afterLast = await callStats(store, statsTo(870), { mode: 'exact' });
      expect(afterLast.call_buckets.reduce((n, b) => n + (b.count as number), 0)).toBe(840);
      expectClose(await callStats(counting, statsTo(870), { mode: 'rollup' }), afterLast);
      expect(scanned).toBe(0);
    });
  });
}
