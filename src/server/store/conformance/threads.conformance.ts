/**
 * Conformance suite for ThreadsStore: statistics come from live turn calls only (a turn is a call
 * whose turn_id is its own id), unfinished turns count as turns but not in durations, deleted
 * turns drop out, percentiles are numpy's linear ones, and every sort breaks ties by thread_id.
 * A backend may precompute (SQLite's thread_stats, ClickHouse's materialized views) or compute
 * on the fly; this suite is what makes both give the same numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store, ThreadRecord, ThreadsQuery } from '../Store.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from './callWrites.js';

const P = 'acme/threads';

/** A turn of `thread` starting at `at` seconds, lasting `secs` (null: still running). */
function turn(thread: string, id: string, at: number, secs: number | null, over: { failed?: boolean; tokens?: [number, number] } = {}) {
  const start = startWrite(P, id, { threadId: thread, turnId: id, startedAt: T0 + at * SECOND });
  if (secs === null) return [start];
  const end = endWrite(P, id, {
    endedAt: T0 + (at + secs) * SECOND,
    exception: over.failed ? 'boom' : null,
    summaryJson: over.tokens ? usageSummary('gpt-4o', ...over.tokens) : '{}',
  });
  return [start, end];
}

export function describeThreadsConformance(open: OpenStore): void {
  describe('ThreadsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
      await store.calls.writeCalls([
        // t1: three finished turns of 1 s, 2 s and 10 s, one failed, with tokens; a child call of a turn.
        ...turn('t1', 't1a', 0, 1, { tokens: [10, 5] }),
        ...turn('t1', 't1b', 10, 2, { failed: true }),
        ...turn('t1', 't1c', 20, 10, { tokens: [100, 20] }),
        startWrite(P, 't1c-child', { threadId: 't1', turnId: 't1c', parentId: 't1c', traceId: 't1c', startedAt: T0 + 21 * SECOND }),
        // t2: one finished turn and one still running.
        ...turn('t2', 't2a', 5, 4),
        ...turn('t2', 't2b', 30, null),
        // t3: one turn, later deleted; t4: only an unfinished turn.
        ...turn('t3', 't3a', 1, 1),
        ...turn('t4', 't4a', 2, null),
        // A call without a thread is no thread.
        startWrite(P, 'lonely'),
      ]);
      await store.calls.deleteCalls({ projectId: P, ids: ['t3a'], deletedAt: T0 + 99 * SECOND });
    });
    afterAll(() => close());

    const query = async (q: Partial<ThreadsQuery> = {}): Promise<ThreadRecord[]> => {
      const out: ThreadRecord[] = [];
      for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }], ...q }))
        out.push(t);
      return out;
    };
    const byId = async () => new Map((await query()).map((t) => [t.threadId, t]));

    it('lists threads with live turns only', async () => {
      expect((await query()).map((t) => t.threadId)).toEqual(['t1', 't2', 't4']);
    });

    it('computes turn statistics with numpy-linear percentiles over finished turns', async () => {
      const t1 = (await byId()).get('t1')!;
      expect(t1).toMatchObject({
        turnCount: 3,
        finishedTurnCount: 3,
        startTime: T0,
        lastUpdated: T0 + 30 * SECOND,
        firstTurnId: 't1a',
        lastTurnId: 't1c',
        p50TurnDurationMs: 2000,
        errorCount: 1,
        totalTokens: 135,
      });
      expect(t1.p99TurnDurationMs).toBeCloseTo(9840, 6);
    });

    it('counts an unfinished turn as a turn but not in durations', async () => {
      const m = await byId();
      expect(m.get('t2')).toMatchObject({ turnCount: 2, finishedTurnCount: 1, p50TurnDurationMs: 4000, p99TurnDurationMs: 4000 });
      expect(m.get('t4')).toMatchObject({ turnCount: 1, finishedTurnCount: 0, p50TurnDurationMs: null, p99TurnDurationMs: null });
    });

    it('sorts on statistics with ties broken by thread_id, and pages', async () => {
      const ids = async (q: Partial<ThreadsQuery>) => (await query(q)).map((t) => t.threadId);
      expect(await ids({ sortBy: [{ field: 'turn_count', direction: 'desc' }] })).toEqual(['t1', 't2', 't4']);
      expect(await ids({ sortBy: [{ field: 'p99_turn_duration_ms', direction: 'desc' }] })).toEqual(['t1', 't2', 't4']);
      expect(await ids({ sortBy: [{ field: 'start_time', direction: 'asc' }] })).toEqual(['t1', 't4', 't2']);
      expect(await ids({ sortBy: [{ field: 'turn_count', direction: 'asc' }], limit: 1, offset: 1 })).toEqual(['t2']);
    });

    it('filters by thread ids and by turn start time', async () => {
      expect((await query({ threadIds: ['t2', 'nope'] })).map((t) => t.threadId)).toEqual(['t2']);
      const late = await query({ afterMicros: T0 + 9 * SECOND });
      expect(late.map((t) => t.threadId)).toEqual(['t1', 't2']);
      expect(late[0]).toMatchObject({ turnCount: 2, firstTurnId: 't1b' });
    });

    it('gives every thread in a date range the statistics, cost and order of its turns inside, whether it lies inside or crosses a bound', async () => {
      // The oracle: a second project holding only the turns inside the range has, unfiltered,
      // what the first project must answer for the range.
      const ALL = 'acme/range-all';
      const prices = [
        { model: 'gpt-4o', effective: T0 },
        { model: 'gpt-4o', effective: T0 + 500 * SECOND },
      ];
      await store.costs.createPrices(
        prices.map((p, i) => ({
          id: `price-${i}`,
          pricingLevel: 'default',
          pricingLevelId: 'default',
          providerId: 'openai',
          llmId: p.model,
          effectiveDate: p.effective,
          promptTokenCost: 0.001 * (i + 1),
          completionTokenCost: 0.002 * (i + 1),
          promptTokenCostUnit: 'USD',
          completionTokenCostUnit: 'USD',
          createdBy: 'test',
          createdAt: T0,
        })),
      );
      type Turn = { thread: string; id: string; at: number; secs: number | null; failed: boolean; tokens: [number, number] };
      const turns: Turn[] = [];
      for (let th = 0; th < 30; th++) {
        // Threads of 1 to 6 turns, 40 s apart, starting every 37 s: many cross any bound.
        for (let k = 0; k < 1 + (th % 6); k++) {
          const n = th * 7 + k;
          turns.push({
            thread: `r${String(th).padStart(2, '0')}`,
            id: `r${th}-${k}`,
            at: th * 37 + k * 40,
            secs: n % 9 === 4 ? null : 1 + ((n * 13) % 17),
            failed: n % 5 === 0,
            tokens: [10 + (n % 7) * 10, 5 + (n % 3)],
          });
        }
      }
      const write = (project: string, list: Turn[]) =>
        store.calls.writeCalls(
          list.flatMap((t) => {
            const start = startWrite(project, t.id, { threadId: t.thread, turnId: t.id, startedAt: T0 + t.at * SECOND });
            if (t.secs === null) return [start];
            const summaryJson = usageSummary('gpt-4o', ...t.tokens);
            return [
              start,
              endWrite(project, t.id, { endedAt: T0 + (t.at + t.secs) * SECOND, exception: t.failed ? 'x' : null, summaryJson }),
            ];
          }),
        );
      await write(ALL, turns);
      const sorts: ThreadsQuery['sortBy'][] = [
        [{ field: 'p99_turn_duration_ms', direction: 'desc' }],
        [{ field: 'turn_count', direction: 'asc' }],
        [{ field: 'start_time', direction: 'desc' }],
        [{ field: 'total_cost', direction: 'desc' }],
      ];
      const ranges = [
        { after: 300, before: null },
        { after: null, before: 420 },
        { after: 200, before: 700 },
        { after: 480, before: 520 },
      ];
      const collect = async (q: ThreadsQuery) => {
        const out: ThreadRecord[] = [];
        for await (const t of store.threads.queryThreads(q)) out.push(t);
        return out;
      };
      for (const [i, r] of ranges.entries()) {
        const inside = turns.filter((t) => (r.after === null || t.at > r.after) && (r.before === null || t.at < r.before));
        const SOME = `acme/range-${i}`;
        await write(SOME, inside);
        const bounds = {
          afterMicros: r.after === null ? null : T0 + r.after * SECOND,
          beforeMicros: r.before === null ? null : T0 + r.before * SECOND,
        };
        for (const sortBy of sorts) {
          for (const page of [{}, { limit: 4, offset: 3 }, { min: { turn_count: 2 }, limit: 5 }, { max: { total_cost: 0.5 } }]) {
            const expected = await collect({ projectId: SOME, sortBy, ...page });
            const actual = await collect({ projectId: ALL, sortBy, ...page, ...bounds });
            expect(
              actual.map((t) => ({ ...t, totalCost: t.totalCost === null ? null : t.totalCost.toFixed(9) })),
              JSON.stringify({ r, sortBy, page }),
            ).toEqual(expected.map((t) => ({ ...t, totalCost: t.totalCost === null ? null : t.totalCost.toFixed(9) })));
            const counted = await store.threads.countThreads({ projectId: ALL, sortBy, ...page, limit: null, offset: null, ...bounds });
            expect(counted).toBe(await store.threads.countThreads({ projectId: SOME, sortBy, ...page, limit: null, offset: null }));
          }
        }
      }
    });

    it('filters by attribute values of a turn; several values must be on one same turn', async () => {
      const A = 'acme/thread-attributes';
      const at = (thread: string, id: string, attributes: object) =>
        startWrite(A, id, { threadId: thread, turnId: id, attributesJson: JSON.stringify(attributes) });
      await store.calls.writeCalls([
        at('a', 'a1', { env: 'prod', user: { tier: 'gold' } }),
        at('a', 'a2', { env: 'dev', beta: true }),
        at('b', 'b1', { env: 'prod', beta: true, n: 3, tags: ['x', 'y'] }),
        at('c', 'c1', { env: '1', 'dotted.key': 'v' }),
        at('d', 'd1', { env: 1 }),
      ]);
      const ids = async (attributes: Record<string, string | number | boolean>) => {
        const out: string[] = [];
        for await (const t of store.threads.queryThreads({ projectId: A, sortBy: [], attributes })) out.push(t.threadId);
        return out;
      };
      expect(await ids({ env: 'prod' })).toEqual(['a', 'b']);
      expect(await ids({ env: 'dev' })).toEqual(['a']);
      expect(await ids({ 'user.tier': 'gold' })).toEqual(['a']);
      expect(await ids({ beta: true })).toEqual(['a', 'b']);
      expect(await ids({ n: 3, 'tags.1': 'y' })).toEqual(['b']);
      // Text '1' and number 1 are different values; a dotted key is written with an escaped dot.
      expect(await ids({ env: '1' })).toEqual(['c']);
      expect(await ids({ env: 1 })).toEqual(['d']);
      expect(await ids({ 'dotted\\.key': 'v' })).toEqual(['c']);
      // Thread a has env=prod and beta=true, but on different turns.
      expect(await ids({ env: 'prod', beta: true })).toEqual(['b']);
      expect(await store.threads.countThreads({ projectId: A, sortBy: [], attributes: { env: 'prod' } })).toBe(2);
      // A turn's attributes follow its writes and deletion.
      await store.calls.deleteCalls({ projectId: A, ids: ['b1'], deletedAt: T0 + SECOND });
      expect(await ids({ env: 'prod' })).toEqual(['a']);
    });

    it('follows writes: a new turn and a deleted turn change the statistics', async () => {
      await store.calls.writeCalls(turn('t4', 't4b', 40, 3));
      expect((await byId()).get('t4')).toMatchObject({ turnCount: 2, finishedTurnCount: 1, p50TurnDurationMs: 3000 });
      await store.calls.deleteCalls({ projectId: P, ids: ['t4a', 't4b'], deletedAt: T0 + 99 * SECOND });
      expect((await byId()).has('t4')).toBe(false);
    });
  });
}
