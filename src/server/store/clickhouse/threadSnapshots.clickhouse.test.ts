/**
 * Thread snapshots (threadSnapshots.ts) answer exactly what the per-request pass over the turns
 * answers, after every kind of write that changes a thread once a snapshot holds it: a late end,
 * a re-sent end without its exception, an end before its start, a delete, a new turn, a turn
 * started again in another thread. Three stores read one database: the pass (no snapshots), one
 * that never refreshes (touched threads computed per request over the snapshot), and one that
 * refreshes on every read; the margin is 0 so the snapshot serves the untouched threads at once.
 * The conformance suites (threads, threadsFilters) check the same on both backends with the
 * default margin, where a test's threads are all freshly touched. Last, a reader keeps reading
 * exactly while another process rebuilds the snapshot, stopped after each of its INSERTs in turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_SORT_FIELDS } from '../../../contract/threads.js';
import { startClickHouseFaultProxy } from '../../testing/clickhouseFaultProxy.js';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from '../conformance/callWrites.js';
import type { CallWrite, ThreadRecord, ThreadsQuery } from '../Store.js';
import { ClickHouseDatabase, num } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { ClickHouseThreadsStore } from './threads.js';

const P = 'acme/snapshots';
const at = (secs: number) => T0 + secs * SECOND;
const start = (thread: string, id: string, secs: number) =>
  startWrite(P, id, { threadId: thread, turnId: id, startedAt: at(secs), inputsJson: `{"q":"about ${thread}"}` });
const end = (id: string, secs: number, over: Parameters<typeof endWrite>[2] = {}) =>
  endWrite(P, id, { endedAt: at(secs), summaryJson: usageSummary('gpt-4o', 10, 5), ...over });

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse thread snapshots', () => {
    let store: ClickHouseStore;
    let db: ClickHouseDatabase;
    let temp: { url: string; database: string };
    let drop: () => Promise<void>;
    let pass: ClickHouseThreadsStore;
    let stale: ClickHouseThreadsStore;
    let eager: ClickHouseThreadsStore;
    beforeAll(async () => {
      const created = await createTempClickHouseDatabase();
      temp = { url: created.url, database: created.database };
      drop = created.drop;
      store = await ClickHouseStore.open(temp);
      db = new ClickHouseDatabase(temp);
      pass = new ClickHouseThreadsStore(db, null);
      const hour = 3_600_000_000;
      stale = new ClickHouseThreadsStore(db, {
        marginMicros: 0,
        refreshTouches: Number.MAX_SAFE_INTEGER,
        maxAgeMicros: hour,
        chunkTurns: 1e6,
      });
      // Builds in chunks of about two turns' threads, and refreshes in the background on every read with a touch.
      eager = new ClickHouseThreadsStore(db, { marginMicros: 0, refreshTouches: 0, maxAgeMicros: hour, chunkTurns: 2 });
      await store.calls.writeCalls([
        ...[start('a', 'a1', 0), end('a1', 1, { exception: 'boom' }), start('a', 'a2', 10), end('a2', 12)],
        ...[start('a', 'a3', 20), end('a3', 30, { summaryJson: usageSummary('gpt-4o', 100, 20) })],
        ...[start('b', 'b1', 5), end('b1', 9), start('b', 'b2', 30)],
        ...[start('c', 'c1', 1), end('c1', 2)],
        ...[start('d', 'd1', 2)],
        startWrite(P, 'lonely'),
      ]);
      // Both snapshot stores build their snapshot now, before the writes each case makes: the
      // first read answers from the pass and starts the build in the background.
      for (const s of [stale, eager]) {
        expect(await list(s, { sortBy: [{ field: 'thread_id', direction: 'asc' }] })).toEqual(
          await list(pass, { sortBy: [{ field: 'thread_id', direction: 'asc' }] }),
        );
        await s.snapshotsSettled();
      }
    });
    afterAll(async () => {
      await store.close();
      await db.close();
      await drop();
    });

    const list = async (threads: ClickHouseThreadsStore, q: Partial<ThreadsQuery>) => {
      const out: ThreadRecord[] = [];
      for await (const t of threads.queryThreads({ projectId: P, sortBy: [], ...q })) out.push(t);
      return out;
    };
    /** Every sort both ways, a page, bounds, a search and counts: the same from all three stores. */
    const expectSameAnswers = async () => {
      const queries: Partial<ThreadsQuery>[] = [{ sortBy: [{ field: 'thread_id', direction: 'asc' }] }];
      for (const field of THREAD_SORT_FIELDS)
        for (const direction of ['asc', 'desc'] as const) queries.push({ sortBy: [{ field, direction }], limit: 2, offset: 1 });
      queries.push({ sortBy: [{ field: 'thread_id', direction: 'asc' }], min: { turn_count: 2 }, max: { error_count: 0 } });
      queries.push({ sortBy: [{ field: 'thread_id', direction: 'asc' }], search: 'about' });
      queries.push({ sortBy: [{ field: 'thread_id', direction: 'asc' }], threadIds: ['a', 'c', 'e'] });
      for (const q of queries) {
        const truth = await list(pass, q);
        expect(await list(stale, q), JSON.stringify(q)).toEqual(truth);
        expect(await list(eager, q), JSON.stringify(q)).toEqual(truth);
      }
      for (const q of [{}, { min: { turn_count: 2 } }, { search: 'about' }]) {
        const truth = await pass.countThreads({ projectId: P, sortBy: [], ...q });
        expect(await stale.countThreads({ projectId: P, sortBy: [], ...q })).toBe(truth);
        expect(await eager.countThreads({ projectId: P, sortBy: [], ...q })).toBe(truth);
      }
      // With a margin of 0 a refresh must not overlap the next case's writes (the real margin
      // of two minutes covers an insert that lands while a refresh reads).
      await eager.snapshotsSettled();
      return list(pass, { sortBy: [{ field: 'thread_id', direction: 'asc' }] });
    };
    const write = (writes: CallWrite[]) => store.calls.writeCalls(writes);

    it('serves untouched threads from the snapshot', { timeout: 300_000 }, async () => {
      const rows = await db.all<{ n: string }>(
        'SELECT count() AS n FROM thread_snapshots FINAL WHERE project_id = {p:String} AND live = 1',
        {
          p: P,
        },
      );
      expect(num(rows[0]!.n)).toBe(4);
      expect((await expectSameAnswers()).map((t) => t.threadId)).toEqual(['a', 'b', 'c', 'd']);
    });

    it('follows a late end, and a re-sent end without its exception', { timeout: 300_000 }, async () => {
      await write([end('b2', 33)]);
      await write([end('a1', 4, { exception: null })]);
      const threads = await expectSameAnswers();
      expect(threads.find((t) => t.threadId === 'b')).toMatchObject({ finishedTurnCount: 2, lastUpdated: at(33) });
    });

    it('follows an end before its start, a new turn and a new thread', { timeout: 300_000 }, async () => {
      await write([end('e1', 8)]);
      await expectSameAnswers();
      await write([start('e', 'e1', 7), start('d', 'd2', 50), end('d2', 51)]);
      const threads = await expectSameAnswers();
      expect(threads.find((t) => t.threadId === 'e')).toMatchObject({ turnCount: 1, finishedTurnCount: 1 });
      expect(threads.find((t) => t.threadId === 'd')).toMatchObject({ turnCount: 2 });
    });

    it('follows deletes: a thread without live turns goes', { timeout: 300_000 }, async () => {
      await store.calls.deleteCalls({ projectId: P, ids: ['c1', 'a2'], deletedAt: at(99) });
      const threads = await expectSameAnswers();
      expect(threads.map((t) => t.threadId)).not.toContain('c');
      expect(threads.find((t) => t.threadId === 'a')).toMatchObject({ turnCount: 2 });
    });

    it('follows a turn started again in another thread', { timeout: 300_000 }, async () => {
      await write([start('f', 'b1', 5)]);
      await expectSameAnswers();
    });

    it('reads exactly while another process rebuilds the snapshot, at each of its steps', { timeout: 300_000 }, async () => {
      const R = 'acme/rebuilt';
      const gold = '{"tier":"gold"}';
      const turn = (thread: string, id: string, secs: number, attributesJson = '{}') =>
        startWrite(R, id, { threadId: thread, turnId: id, startedAt: at(secs), attributesJson });
      await write([turn('g', 'g1', 0, gold), end('g1', 1), turn('g', 'g2', 2), turn('h', 'h1', 1), end('h1', 3)]);
      await write([turn('k', 'k1', 4), end('k1', 5), turn('k', 'k2', 6, gold)]);
      const hour = 3_600_000_000;
      const reader = new ClickHouseThreadsStore(db, {
        marginMicros: 0,
        refreshTouches: Number.MAX_SAFE_INTEGER,
        maxAgeMicros: hour,
        chunkTurns: 1e6,
      });
      const rows = async (threads: ClickHouseThreadsStore, q: Partial<ThreadsQuery>) => {
        const out: ThreadRecord[] = [];
        for await (const t of threads.queryThreads({ projectId: R, sortBy: [{ field: 'thread_id', direction: 'asc' }], ...q })) out.push(t);
        return out;
      };
      await rows(reader, {});
      await reader.snapshotsSettled();
      // Touched after the reader's mark: a turn started again in another thread.
      await write([turn('n', 'k2', 6, gold)]);

      // The other process's snapshot is always too old (-1), so each of its reads starts a whole
      // rebuild, in chunks of a few turns; its connection passes a proxy that stops it after its
      // nth INSERT has landed, and the reader must answer as the pass does meanwhile.
      const proxy = await startClickHouseFaultProxy(temp.url);
      const other = new ClickHouseDatabase({ ...temp, url: proxy.url });
      const rebuilder = new ClickHouseThreadsStore(other, {
        marginMicros: 0,
        refreshTouches: Number.MAX_SAFE_INTEGER,
        maxAgeMicros: -1,
        chunkTurns: 4,
      });
      try {
        let steps = 0;
        for (let n = 1; ; n++) {
          const held = proxy.holdInsert(n);
          await rows(rebuilder, {});
          const table = await Promise.race([held, rebuilder.snapshotsSettled().then(() => null)]);
          if (table === null) break;
          steps++;
          for (const q of [
            {},
            { attributes: { tier: 'gold' } },
            { sortBy: [{ field: 'turn_count' as const, direction: 'desc' as const }] },
          ])
            expect(await rows(reader, q), `stopped after INSERT ${n} (${table}): ${JSON.stringify(q)}`).toEqual(await rows(pass, q));
          proxy.release();
          await rebuilder.snapshotsSettled();
        }
        expect(steps).toBeGreaterThanOrEqual(4);
        expect((await rows(reader, { attributes: { tier: 'gold' } })).map((t) => t.threadId)).toEqual(['g', 'n']);
      } finally {
        proxy.release();
        await other.close();
        await proxy.close();
      }
    });
  });
});
