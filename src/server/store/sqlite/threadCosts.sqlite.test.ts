/**
 * SQLite's cost order of threads (threadCosts.ts): the price spans pick what pickPrice picks at
 * every start, and a cost sort or bound over a real store gives the costs the unsorted answer
 * reports (priced per thread by threadCostSql), in compareThreads' order. The rule itself is
 * pinned on both backends by the threads conformance suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickPrice } from '../../core/pickPrice.js';
import type { PriceRecord } from '../CostsStore.js';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import { expectCostOrders, priceFor } from '../conformance/priceWrites.js';
import { compareThreads } from '../query/threadsOrder.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';
import { SqliteStore } from './SqliteStore.js';
import { priceSpans } from './threadCosts.js';

const P = 'acme/thread-cost-order';
const SECOND = 1_000_000;
const T0 = Date.UTC(2025, 5, 1) * 1000;

const price = priceFor(P, T0);

// Two models whose prices change over time, at both levels, and one project's price elsewhere.
const PRICES: PriceRecord[] = [
  price('a-default-1', 'default', 'model-a', T0, 1e-3, 2e-3),
  price('a-default-2', 'default', 'model-a', T0 + 100 * SECOND, 2e-3, 3e-3),
  price('a-project', 'project', 'model-a', T0 + 50 * SECOND, 5e-4, 5e-4),
  price('b-default', 'default', 'model-b', T0 + 30 * SECOND, 7e-3, 1e-2),
  price('b-project-old', 'project', 'model-b', T0 - 10 * SECOND, 3e-3, 4e-3),
  { ...price('a-elsewhere', 'project', 'model-a', T0 - 5 * SECOND, 9, 9), pricingLevelId: 'acme/another-project' },
];

describe('price spans', () => {
  it('give, at every start, the price pickPrice picks (before, at and between effective dates)', () => {
    const spans = priceSpans(PRICES, P);
    const dates = [...new Set(PRICES.map((p) => p.effectiveDate))];
    const starts = [Number.MIN_SAFE_INTEGER + 1, T0 - 999 * SECOND, ...dates.flatMap((d) => [d - 1, d, d + 1]), T0 + 9999 * SECOND];
    for (const llmId of ['model-a', 'model-b']) {
      for (const at of starts) {
        const inSpan = spans.filter(([model, from, to]) => model === llmId && from <= at && at < to);
        expect(inSpan.length, `${llmId} at ${at}`).toBeLessThanOrEqual(1);
        expect(inSpan[0]?.[3] ?? null, `${llmId} at ${at}`).toBe(
          pickPrice({ prices: PRICES, llmId, startedAt: at, projectId: P })?.id ?? null,
        );
      }
    }
    expect(spans.some(([model]) => model === 'model-c')).toBe(false);
  });
});

describe('SQLite thread cost order', () => {
  let dir: string;
  let store: SqliteStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-thread-cost-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
    await store.costs.createPrices(PRICES);
    const summary = (u: Record<string, [number, number]>) =>
      JSON.stringify({
        usage: Object.fromEntries(Object.entries(u).map(([m, [p, c]]) => [m, { prompt_tokens: p, completion_tokens: c }])),
      });
    // 30 threads starting from before any price to after the last change, with one, two or no priced models.
    const writes = Array.from({ length: 30 }, (_, i) => {
      const at = T0 + (i * 7 - 40) * SECOND;
      const usage =
        i % 5 === 4
          ? { 'model-c': [10, 10] as [number, number] }
          : { 'model-a': [100 + i * 13, 20 + i], ...(i % 3 === 0 ? { 'model-b': [50 - i, 9] } : {}) };
      return [
        startWrite(P, `turn-${i}`, { threadId: `thread-${String(i).padStart(2, '0')}`, turnId: `turn-${i}`, startedAt: at }),
        endWrite(P, `turn-${i}`, { endedAt: at + SECOND, summaryJson: summary(usage as Record<string, [number, number]>) }),
      ];
    });
    await store.calls.writeCalls(writes.flat());
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = async (q: Partial<ThreadsQuery>) => {
    const out: ThreadRecord[] = [];
    for await (const r of store.threads.queryThreads({ projectId: P, sortBy: [], ...q })) out.push(r);
    return out;
  };

  it('sorts by the costs the unsorted answer reports, unpriced threads lowest, ties by thread id', async () => {
    const unsorted = await query({});
    expect(unsorted).toHaveLength(30);
    expect(unsorted.filter((r) => r.totalCost === null)).toHaveLength(6);
    await expectCostOrders(query, unsorted, { limit: 7, offset: 5 });
  });

  it('bounds by cost and counts the same threads', async () => {
    const unsorted = await query({});
    const costs = unsorted.flatMap((r) => (r.totalCost === null ? [] : [r.totalCost])).sort((a, b) => a - b);
    const [low, high] = [costs[5]!, costs[18]!];
    const bounded = { min: { total_cost: low }, max: { total_cost: high } };
    const expected = unsorted
      .filter((r) => r.totalCost !== null && r.totalCost >= low && r.totalCost <= high)
      .sort(compareThreads([{ field: 'p99_turn_duration_ms', direction: 'desc' }]));
    expect(expected).toHaveLength(14);
    expect(await query({ ...bounded, sortBy: [{ field: 'p99_turn_duration_ms', direction: 'desc' }] })).toEqual(expected);
    expect(await store.threads.countThreads({ projectId: P, sortBy: [], ...bounded })).toBe(14);
    expect(await store.threads.countThreads({ projectId: P, sortBy: [{ field: 'total_cost', direction: 'desc' }] })).toBe(30);
  });
});
