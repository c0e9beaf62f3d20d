/**
 * A write that fails half-way leaves nothing a read shows without its call (docs/clickhouse.md
 * "Writes that fail half-way"). A proxy in front of the real engine fails each INSERT of a
 * request in turn, refused before the engine or lost after it applied; after each failure the
 * threads (statistics, cost, a page and the count), /calls/stats cells and the calls (the
 * first page by start time and the count) read exactly as before the request or exactly as
 * after it, and the client's retry of the same request converges to the rows of a request that
 * never failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseFaultProxy, type FaultMode, type FaultProxy } from '../../testing/clickhouseFaultProxy.js';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from '../conformance/callWrites.js';
import type { CallWrite } from '../Store.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const at = (secs: number) => T0 + secs * SECOND;
const HOUR = 3600 * SECOND;

/** Turns of threads th0 and th1 with children, some ending in the same batch, some later. */
function firstBatch(p: string): CallWrite[] {
  const writes: CallWrite[] = [];
  for (let i = 0; i < 4; i++) {
    const id = `t${i}`;
    writes.push(startWrite(p, id, { threadId: `th${i % 2}`, turnId: id, startedAt: at(i), inputsJson: `{"q":"question ${i}"}` }));
    writes.push(startWrite(p, `${id}-llm`, { threadId: `th${i % 2}`, turnId: id, parentId: id, traceId: id, startedAt: at(i) }));
    writes.push(endWrite(p, `${id}-llm`, { endedAt: at(i + 1), summaryJson: usageSummary('gpt-4o', 10, 5) }));
    if (i % 2 === 0) writes.push(endWrite(p, id, { endedAt: at(i + 2), summaryJson: usageSummary('gpt-4o', 100 * i, 50) }));
  }
  return writes;
}

/** The request under test: the open turns' ends alone, and new turns (one failed) in a new thread too. */
function secondBatch(p: string): CallWrite[] {
  return [
    endWrite(p, 't1', { endedAt: at(9), summaryJson: usageSummary('gpt-4o', 700, 50), outputJson: '"answer one"' }),
    endWrite(p, 't3', { endedAt: at(9), exception: 'boom', summaryJson: '{"status_counts":{"error":1}}' }),
    startWrite(p, 't4', { threadId: 'th0', turnId: 't4', startedAt: at(10), inputsJson: '{"q":"question 4"}' }),
    endWrite(p, 't4', { endedAt: at(12), summaryJson: usageSummary('gpt-4o', 300, 30) }),
    startWrite(p, 't5', { threadId: 'th2', turnId: 't5', startedAt: at(11) }),
    endWrite(p, 't5', { endedAt: at(11.5), summaryJson: usageSummary('gpt-4o-mini', 50, 50) }),
    startWrite(p, 't5-tool', { threadId: 'th2', turnId: 't5', parentId: 't5', traceId: 't5', startedAt: at(11) }),
  ];
}

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse writes that fail half-way', () => {
    let store: ClickHouseStore;
    let raw: ClickHouseDatabase;
    let proxy: FaultProxy;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      proxy = await startClickHouseFaultProxy(db.url);
      // Without the search indexer: its background INSERTs would pass through the proxy and be
      // the INSERT it fails, instead of one of the request's (seen in CI as "lost INSERT 1").
      store = await ClickHouseStore.open({ ...db, url: proxy.url, searchIndexer: false });
      raw = new ClickHouseDatabase(db);
    });
    afterAll(async () => {
      await store.close();
      await raw.close();
      await proxy.close();
      await drop();
    });

    /** Everything a reader sees of project `p`, with the project's name taken out. */
    async function snapshot(p: string) {
      const threads: unknown[] = [];
      for await (const t of store.threads.queryThreads({ projectId: p, sortBy: [{ field: 'thread_id', direction: 'asc' }] }))
        threads.push(t);
      const threadPage: string[] = [];
      for await (const t of store.threads.queryThreads({ projectId: p, sortBy: [{ field: 'total_tokens', direction: 'desc' }], limit: 2 }))
        threadPage.push(t.threadId);
      const calls: unknown[] = [];
      for await (const c of store.calls.queryCalls({ projectId: p, sortBy: [{ field: 'started_at', direction: 'desc' }], limit: 5 }))
        calls.push(c);
      const state = {
        threads,
        threadPage,
        threadCount: await store.threads.countThreads({ projectId: p, sortBy: [] }),
        calls,
        callCount: await store.calls.countCalls({ projectId: p }),
        stats: await store.stats.spanCells({ projectId: p, bounds: [T0, T0 + HOUR], withUsage: true }),
      };
      return JSON.parse(JSON.stringify(state).replaceAll(p, 'P')) as typeof state;
    }

    /**
     * `act` on a project prepared by `seed`, with each of its INSERTs failed in turn (either
     * way): the reads are those before or after it, and its retry gives those after it.
     */
    async function failEachInsert(name: string, seed: (p: string) => Promise<unknown>, act: (p: string) => Promise<unknown>) {
      const control = `acme/${name}-control`;
      await seed(control);
      const before = await snapshot(control);
      await act(control);
      const after = await snapshot(control);
      expect(after).not.toEqual(before);
      const failed: string[] = [];
      for (const mode of ['refused', 'lost'] as FaultMode[]) {
        for (let n = 1; n < 10; n++) {
          const p = `acme/${name}-${mode}-${n}`;
          await seed(p);
          proxy.failInsert(n, mode);
          const outcome = await act(p).then(
            () => null,
            (err: unknown) => err,
          );
          const table = proxy.failed();
          if (table === null) {
            // The request has fewer INSERTs than n: every one was tried.
            proxy.failInsert(0, mode);
            expect(outcome).toBeNull();
            break;
          }
          expect(outcome, `${mode} INSERT ${n}`).toBeInstanceOf(Error);
          failed.push(`${mode} ${table}`);
          const state = await snapshot(p);
          const label = `after the ${mode} INSERT ${n} (into ${table})`;
          if (JSON.stringify(state) !== JSON.stringify(before)) expect(state, `${label}: neither before nor after`).toEqual(after);
          await act(p);
          expect(await snapshot(p), `${label}, retried`).toEqual(after);
        }
      }
      return failed;
    }

    it('a batch of call starts and ends', { timeout: 300_000 }, async () => {
      const failed = await failEachInsert(
        'batch',
        (p) => store.apply([{ kind: 'calls.write', calls: firstBatch(p) }]),
        (p) => store.apply([{ kind: 'calls.write', calls: secondBatch(p) }]),
      );
      expect(failed).toContain('refused calls');
      expect(failed).toContain('lost calls');
    });

    it('a delete', { timeout: 300_000 }, async () => {
      await failEachInsert(
        'delete',
        (p) => store.apply([{ kind: 'calls.write', calls: [...firstBatch(p), ...secondBatch(p)] }]),
        (p) => store.apply([{ kind: 'calls.delete', delete: { projectId: p, ids: ['t0', 't5'], deletedAt: at(99) } }]),
      );
    });

    it('a view failing after the block is in calls leaves the call without its turn, never the reverse, until the retry', async () => {
      const p = 'acme/view-fails';
      await store.apply([{ kind: 'calls.write', calls: firstBatch(p) }]);
      const before = await snapshot(p);
      await raw.command(`ALTER TABLE thread_turns ADD CONSTRAINT refuse_view CHECK project_id != '${p}'`);
      try {
        await expect(store.apply([{ kind: 'calls.write', calls: secondBatch(p) }])).rejects.toThrow(/refuse_view/);
      } finally {
        await raw.command('ALTER TABLE thread_turns DROP CONSTRAINT refuse_view');
      }
      const state = await snapshot(p);
      await store.apply([{ kind: 'calls.write', calls: secondBatch(p) }]);
      const after = await snapshot(p);
      expect(after.threads).not.toEqual(before.threads);
      // The calls and the stats have the request; the threads have nothing of it.
      expect(state.callCount).toBe(after.callCount);
      expect(state.stats).toEqual(after.stats);
      expect(state.threads).toEqual(before.threads);
    });

    it('calls refusing the block leaves no derived row', async () => {
      const p = 'acme/calls-refuse';
      await store.apply([{ kind: 'calls.write', calls: firstBatch(p) }]);
      const before = await snapshot(p);
      await raw.command(`ALTER TABLE calls ADD CONSTRAINT refuse_calls CHECK project_id != '${p}'`);
      try {
        await expect(store.apply([{ kind: 'calls.write', calls: secondBatch(p) }])).rejects.toThrow(/refuse_calls/);
      } finally {
        await raw.command('ALTER TABLE calls DROP CONSTRAINT refuse_calls');
      }
      expect(await snapshot(p)).toEqual(before);
      const derived = await raw.get<{ n: string }>(
        `SELECT (SELECT count() FROM thread_turns WHERE project_id = {p:String} AND id IN ('t4', 't5'))
          + (SELECT count() FROM calls_by_start WHERE project_id = {p:String} AND id IN ('t4', 't5')) AS n`,
        { p },
      );
      expect(Number(derived!.n)).toBe(0);
    });

    it('a turn start the writer before migration 19 left without its call stays out of threads until the call lands', async () => {
      const p = 'acme/ghost';
      await store.apply([{ kind: 'calls.write', calls: firstBatch(p) }]);
      const before = await snapshot(p);
      // As that writer inserted a turn before its call, whose insert then failed.
      const ghost = {
        project_id: p,
        id: 'ghost',
        thread_id: 'th0',
        started_at: at(20),
        ended_at: at(21),
        summary: usageSummary('gpt-4o', 900, 90),
      };
      await raw.insert('thread_turns', [ghost], ['project_id', 'id', 'thread_id', 'started_at', 'ended_at', 'summary']);
      expect(await snapshot(p)).toEqual(before);
      const turn = [
        startWrite(p, 'ghost', { threadId: 'th0', turnId: 'ghost', startedAt: at(20) }),
        endWrite(p, 'ghost', { endedAt: at(21), summaryJson: usageSummary('gpt-4o', 900, 90) }),
      ];
      await store.apply([{ kind: 'calls.write', calls: turn }]);
      const th0 = (await snapshot(p)).threads[0] as { threadId: string; turnCount: number; totalTokens: number };
      const was = before.threads[0] as typeof th0;
      expect(th0).toMatchObject({ threadId: 'th0', turnCount: was.turnCount + 1, totalTokens: was.totalTokens + 990 });
    });

    it('a retention sweep', { timeout: 300_000 }, async () => {
      await failEachInsert(
        'sweep',
        (p) => store.apply([{ kind: 'calls.write', calls: [...firstBatch(p), ...secondBatch(p)] }]),
        (p) => store.retention.expireCalls({ projectId: p, before: at(2), limit: 100, now: at(1000) }),
      );
    });
  });
});
