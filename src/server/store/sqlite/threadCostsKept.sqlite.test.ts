/**
 * Kept thread costs (threadCostsKept.ts): a cost sort, bound or count answers the costs every
 * other thread page reports (priced per page by threadCostSql) at every moment: after writes
 * and deletes, right after a price is added or purged (before the background pass), in the
 * middle of a pass whose prices change under it, and after it. The pass is stepped by hand
 * here (the store's parts without SqliteStore's ThreadCostRepricer timer), so each moment is
 * reached on purpose.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import { compareThreads } from '../query/threadsOrder.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';
import { SqliteCallsStore } from './calls.js';
import { expectCostOrders, priceFor } from '../conformance/priceWrites.js';
import { SqliteCostsStore } from './costs.js';
import { SqliteDatabase } from './SqliteDatabase.js';
import { SqliteStatsStore } from './stats.js';
import { keptCostsFresh, repriceAll, repriceStep, ThreadCostRepricer } from './threadCostsKept.js';
import { SqliteThreadsStore } from './threads.js';

const P = 'acme/kept-costs';
const SECOND = 1_000_000;
const T0 = Date.UTC(2025, 5, 1) * 1000;

const price = priceFor(P, T0);

const summary = (u: Record<string, [number, number]>) =>
  JSON.stringify({ usage: Object.fromEntries(Object.entries(u).map(([m, [p, c]]) => [m, { prompt_tokens: p, completion_tokens: c }])) });

/** Thread i: a turn or two, model-k priced, model-x only once a test adds a price for it, some with no usage. */
const threadWrites = (i: number) => {
  const at = T0 + i * 10 * SECOND;
  const usage =
    i % 7 === 6 ? {} : { 'model-k': [100 + i * 13, 20 + i] as [number, number], ...(i % 3 === 0 ? { 'model-x': [40, 9 + i] } : {}) };
  const turns = i % 4 === 0 ? 2 : 1;
  return Array.from({ length: turns }, (_, t) => {
    const id = `turn-${i}-${t}`;
    return [
      startWrite(P, id, { threadId: `thread-${String(i).padStart(2, '0')}`, turnId: id, startedAt: at + t * SECOND }),
      endWrite(P, id, { endedAt: at + t * SECOND + 500_000, summaryJson: summary(usage as Record<string, [number, number]>) }),
    ];
  }).flat();
};

describe('kept thread costs', () => {
  let dir: string;
  let db: SqliteDatabase;
  let calls: SqliteCallsStore;
  let costs: SqliteCostsStore;
  let threads: SqliteThreadsStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-kept-costs-'));
    db = new SqliteDatabase(join(dir, 'weft.sqlite'));
    calls = new SqliteCallsStore(db);
    threads = new SqliteThreadsStore(db);
    costs = new SqliteCostsStore(db);
    new SqliteStatsStore(db);
    await costs.createPrices([price('k-project', 'project', 'model-k', T0 - SECOND, 1e-3, 2e-3)]);
    await calls.writeCalls(Array.from({ length: 24 }, (_, i) => threadWrites(i)).flat());
  });

  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = async (q: Partial<ThreadsQuery>) => {
    const out: ThreadRecord[] = [];
    for await (const r of threads.queryThreads({ projectId: P, sortBy: [], ...q })) out.push(r);
    return out;
  };

  /** Every cost order, bound and count against the unsorted answer's own per-page costs. */
  const expectCostsAsPriced = async (label: string) => {
    const unsorted = await query({});
    await expectCostOrders(query, unsorted, { limit: 5, offset: 3 }, label);
    const priced = unsorted.flatMap((r) => (r.totalCost === null ? [] : [r.totalCost])).sort((a, b) => a - b);
    const [low, high] = [priced[2]!, priced[priced.length - 3]!];
    const inside = unsorted.filter((r) => r.totalCost !== null && r.totalCost >= low && r.totalCost <= high);
    const bounds = { min: { total_cost: low }, max: { total_cost: high } };
    expect(await query({ ...bounds, sortBy: [{ field: 'start_time', direction: 'asc' }] }), label).toEqual(
      inside.sort(compareThreads([{ field: 'start_time', direction: 'asc' }])),
    );
    expect(await threads.countThreads({ projectId: P, sortBy: [], ...bounds }), label).toBe(inside.length);
    return unsorted;
  };

  it('are priced with the writes, and answer what the per-page price answers', async () => {
    expect(keptCostsFresh(db, P)).toBe(true);
    const unsorted = await expectCostsAsPriced('written');
    expect(unsorted.filter((r) => r.totalCost === null).map((r) => r.threadId)).toEqual(['thread-06', 'thread-13', 'thread-20']);
    // Deleting a turn re-prices its thread in the same write.
    await calls.deleteCalls({ projectId: P, ids: ['turn-8-1', 'turn-5-0'], deletedAt: T0 + 999 * SECOND });
    expect(keptCostsFresh(db, P)).toBe(true);
    expect((await expectCostsAsPriced('after deletes')).map((r) => r.threadId)).not.toContain('thread-05');
  });

  it('answer new prices at once after a price change, and again from the index once the pass has run', async () => {
    const before = await query({ sortBy: [{ field: 'total_cost', direction: 'desc' }] });
    // A project price for a model only some threads use, in force from the middle of the threads.
    await costs.createPrices([price('x-project', 'project', 'model-x', T0 + 100 * SECOND, 5e-2, 1e-2)]);
    expect(keptCostsFresh(db, P)).toBe(false);
    const changed = await expectCostsAsPriced('price added');
    expect(changed).not.toEqual(before);
    expect(repriceAll(db)).toBe(1);
    expect(keptCostsFresh(db, P)).toBe(true);
    await expectCostsAsPriced('repriced');
    // A purge (and a default price's change) is a change too.
    expect(await costs.purgePrices({ projectId: P, ids: ['x-project'] })).toBe(1);
    expect(keptCostsFresh(db, P)).toBe(false);
    await expectCostsAsPriced('price purged');
    repriceAll(db);
    expect(await query({ sortBy: [{ field: 'total_cost', direction: 'desc' }] })).toEqual(before);
  });

  it('begin a pass again when the prices change under it, and price threads written meanwhile', async () => {
    await costs.createPrices([price('x-default', 'default', 'model-x', T0 + 50 * SECOND, 3e-3, 4e-3)]);
    let pass = repriceStep(db, null, 5);
    expect(pass).toMatchObject({ projectId: P, after: 'thread-04' });
    // The price is taken back mid-pass (by any path: a trigger sees it), and two threads are written.
    db.run("DELETE FROM llm_token_prices WHERE id = 'x-default'");
    await calls.writeCalls([...threadWrites(30), ...threadWrites(31)]);
    pass = repriceStep(db, pass as Exclude<typeof pass, null | 'done'>, 5);
    expect(pass).toMatchObject({ projectId: P, after: 'thread-04' });
    expect(keptCostsFresh(db, P)).toBe(false);
    await expectCostsAsPriced('mid-pass');
    while (pass !== 'done' && pass !== null) pass = repriceStep(db, pass, 5);
    expect(keptCostsFresh(db, P)).toBe(true);
    await expectCostsAsPriced('after the pass');
  });

  it("are priced again by the server's background repricer, on its timer", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const repricer = new ThreadCostRepricer(db);
    try {
      await costs.createPrices([price('x-project-2', 'project', 'model-x', T0, 2e-2, 3e-2)]);
      expect(keptCostsFresh(db, P)).toBe(false);
      vi.advanceTimersByTime(199);
      expect(keptCostsFresh(db, P)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(keptCostsFresh(db, P)).toBe(true);
      await expectCostsAsPriced('repriced in the background');
      await costs.purgePrices({ projectId: P, ids: ['x-project-2'] });
      vi.advanceTimersByTime(200);
      expect(keptCostsFresh(db, P)).toBe(true);
    } finally {
      repricer.stop();
      vi.useRealTimers();
    }
  });

  it('go stale when the shipped default list replaces other defaults, and stay fresh when it is the same', async () => {
    await costs.createPrices([price('x-default', 'default', 'model-x', T0, 3e-3, 4e-3)]);
    repriceAll(db);
    const costsOf = (list: ThreadRecord[]) => Object.fromEntries(list.map((r) => [r.threadId, r.totalCost]));
    const priced = costsOf(await query({}));
    // Opening the costs store again drops the default-level price made here (not shipped).
    new SqliteCostsStore(db);
    expect(keptCostsFresh(db, P)).toBe(false);
    expect(costsOf(await expectCostsAsPriced('defaults replaced'))).not.toEqual(priced);
    repriceAll(db);
    new SqliteCostsStore(db);
    expect(keptCostsFresh(db, P)).toBe(true);
    await expectCostsAsPriced('defaults kept');
  });
});
