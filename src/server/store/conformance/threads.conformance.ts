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
import { priceFor } from './priceWrites.js';

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
      // As the reference's threads query reads it: an empty list filters nothing.
      expect((await query({ threadIds: [] })).map((t) => t.threadId)).toEqual(['t1', 't2', 't4']);
      const late = await query({ afterMicros: T0 + 9 * SECOND });
      expect(late.map((t) => t.threadId)).toEqual(['t1', 't2']);
      expect(late[0]).toMatchObject({ turnCount: 2, firstTurnId: 't1b' });
    });

    it('counts turn tokens by the one usage rule (core/usage.ts): both name pairs added, a total only when positive', async () => {
      const U = 'acme/thread-usage';
      const usage = {
        m: { prompt_tokens: 3, input_tokens: 4, completion_tokens: 1, total_tokens: 0 },
        n: { output_tokens: 2.7 },
        o: { total_tokens: 50, prompt_tokens: 1 },
        bad: 5,
      };
      await store.calls.writeCalls([
        startWrite(U, 'u1', { threadId: 'tu', turnId: 'u1', startedAt: T0 }),
        endWrite(U, 'u1', { endedAt: T0 + SECOND, summaryJson: JSON.stringify({ usage }) }),
      ]);
      const [thread] = await (async () => {
        const out: ThreadRecord[] = [];
        for await (const t of store.threads.queryThreads({ projectId: U, sortBy: [] })) out.push(t);
        return out;
      })();
      // m: 3 + 4 + 1 (its reported 0 is no total); n: 2 (2.7 cut to an integer); o: its reported 50; bad: not an entry.
      expect(thread?.totalTokens).toBe(60);
    });

    it("prices each thread's usage per model at its start (in force, project over default, newest), sorts by cost with unpriced last", async () => {
      const C = 'acme/thread-costs';
      const price = priceFor(C, T0);
      await store.costs.createPrices([
        price('cm-old', 'default', 'cm-1', T0 - 1, 1e-3, 2e-3),
        price('cm-new', 'default', 'cm-1', T0 + 60 * SECOND, 1e-2, 2e-2),
        price('cm-project', 'project', 'cm-1', T0 + 40 * SECOND, 5e-3, 5e-3),
        { ...price('cm-elsewhere', 'project', 'cm-1', T0 - 1, 1, 1), pricingLevelId: 'acme/another-project' },
      ]);
      const usage = (u: Record<string, [number, number]>) =>
        JSON.stringify({
          usage: Object.fromEntries(Object.entries(u).map(([m, [p, c]]) => [m, { prompt_tokens: p, completion_tokens: c }])),
        });
      const t = (thread: string, id: string, at: number, summary: string) => [
        startWrite(C, id, { threadId: thread, turnId: id, startedAt: T0 + at * SECOND }),
        endWrite(C, id, { endedAt: T0 + (at + 1) * SECOND, summaryJson: summary }),
      ];
      await store.calls.writeCalls([
        ...t('a', 'a1', 0, usage({ 'cm-1': [1000, 100] })),
        ...t('a', 'a2', 100, usage({ 'cm-1': [1000, 100] })),
        ...t('b', 'b1', 50, usage({ 'cm-1': [10, 10], 'cm-unpriced': [5, 5] })),
        ...t('c', 'c1', 20, usage({ 'cm-unpriced': [5, 5] })),
        ...t('d', 'd1', 30, '{}'),
      ]);
      const costs = async (q: Partial<ThreadsQuery>) => {
        const out: [string, string | null][] = [];
        for await (const r of store.threads.queryThreads({ projectId: C, sortBy: [{ field: 'thread_id', direction: 'asc' }], ...q }))
          out.push([r.threadId, r.totalCost === null ? null : r.totalCost.toFixed(9)]);
        return out;
      };
      // a starts at T0: the old default price for both turns; b at 50 s: the project's own price.
      const expected: [string, string | null][] = [
        ['a', (2.4).toFixed(9)],
        ['b', (0.1).toFixed(9)],
        ['c', null],
        ['d', null],
      ];
      expect(await costs({})).toEqual(expected);
      expect(await costs({ sortBy: [{ field: 'total_cost', direction: 'desc' }] })).toEqual(expected);
      expect(await costs({ sortBy: [{ field: 'total_cost', direction: 'asc' }] })).toEqual([
        expected[2],
        expected[3],
        expected[1],
        expected[0],
      ]);
      expect(await costs({ sortBy: [{ field: 'total_cost', direction: 'desc' }], limit: 1, offset: 1 })).toEqual([expected[1]]);
      // After 10 s only a's second turn counts for it, priced at that turn's start (the project's price).
      expect(await costs({ afterMicros: T0 + 10 * SECOND, sortBy: [{ field: 'total_cost', direction: 'desc' }] })).toEqual([
        ['a', (5.5).toFixed(9)],
        ['b', (0.1).toFixed(9)],
        ['c', null],
        ['d', null],
      ]);
    });

    it('gives the same statistics however the parts of a turn arrive: late starts, retries, lone ends, deletes', async () => {
      const Q = 'acme/thread-parts';
      const at = (secs: number) => T0 + secs * SECOND;
      const start = (id: string, secs: number, over: Parameters<typeof startWrite>[2] = {}) =>
        startWrite(Q, id, { threadId: 'x', turnId: id, startedAt: at(secs), ...over });
      const end = (id: string, secs: number, over: Parameters<typeof endWrite>[2] = {}) =>
        endWrite(Q, id, { endedAt: at(secs), summaryJson: '{}', ...over });
      const batches = [
        // xa: its end arrives before its start (another process, or a lost start retried late).
        [end('xa', 12, { summaryJson: usageSummary('gpt-4o', 10, 5) })],
        [start('xa', 10)],
        // xb: the start retried, the end alone (as from another process) and retried, failed.
        [start('xb', 20)],
        [start('xb', 20)],
        [end('xb', 24, { exception: 'boom' })],
        [end('xb', 24, { exception: 'boom' })],
        // xc: a turn deleted later; xd: never ends; xe: start and end in one batch, an error in its summary.
        [start('xc', 30), end('xc', 31)],
        [start('xd', 40)],
        [
          start('xe', 50),
          end('xe', 51, { summaryJson: '{"status_counts":{"error":1},"usage":{"gpt-4o":{"prompt_tokens":3,"completion_tokens":4}}}' }),
        ],
        // A call inside turn xa is no turn, whether its end comes alone or with its start.
        [start('xa-child', 11, { turnId: 'xa', parentId: 'xa', traceId: 'xa' })],
        [end('xa-child', 99)],
        [start('xa-child2', 11, { turnId: 'xa', parentId: 'xa', traceId: 'xa' }), end('xa-child2', 98)],
        // y: its only turn sits under a call that is no turn, and goes when that call is deleted.
        [startWrite(Q, 'yroot', { startedAt: at(60) })],
        [start('ya', 61, { threadId: 'y', parentId: 'yroot', traceId: 'yroot' })],
        [end('ya', 62)],
      ];
      for (const batch of batches) await store.calls.writeCalls(batch);
      await store.calls.deleteCalls({ projectId: Q, ids: ['xc', 'yroot'], deletedAt: at(99) });
      const threads: ThreadRecord[] = [];
      for await (const t of store.threads.queryThreads({ projectId: Q, sortBy: [{ field: 'thread_id', direction: 'asc' }] }))
        threads.push(t);
      expect(threads.map((t) => t.threadId)).toEqual(['x']);
      expect(threads[0]).toMatchObject({
        turnCount: 4,
        finishedTurnCount: 3,
        startTime: at(10),
        lastUpdated: at(51),
        firstTurnId: 'xa',
        lastTurnId: 'xe',
        p50TurnDurationMs: 2000,
        p99TurnDurationMs: expect.closeTo(3960, 6),
        errorCount: 2,
        totalTokens: 22,
      });
      expect(await store.threads.countThreads({ projectId: Q, sortBy: [], min: { error_count: 2 } })).toBe(1);
    });

    it('follows writes: a new turn and a deleted turn change the statistics', async () => {
      await store.calls.writeCalls(turn('t4', 't4b', 40, 3));
      expect((await byId()).get('t4')).toMatchObject({ turnCount: 2, finishedTurnCount: 1, p50TurnDurationMs: 3000 });
      await store.calls.deleteCalls({ projectId: P, ids: ['t4a', 't4b'], deletedAt: T0 + 99 * SECOND });
      expect((await byId()).has('t4')).toBe(false);
    });
  });
}
