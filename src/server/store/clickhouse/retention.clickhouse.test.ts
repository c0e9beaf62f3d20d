/**
 * ClickHouse retention: an expired call is hidden at once by its delete rows, and its rows carry
 * expire_at, which the tables' TTL (migration 15) turns into their removal at a merge. Time
 * passing beyond the grace is simulated by moving expire_at back, then a merge is forced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0 } from '../conformance/callWrites.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const P = 'acme/ttl';
const DAY = 86_400 * SECOND;
const TABLES = ['calls', 'thread_turns', 'calls_by_start'] as const;

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse retention: TTL and hiding', () => {
    let store: ClickHouseStore;
    let raw: ClickHouseDatabase;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      store = await ClickHouseStore.open(db);
      raw = new ClickHouseDatabase(db);
    });
    afterAll(async () => {
      await store.close();
      await raw.close();
      await drop();
    });

    const rowsOf = async (table: string, ids: string[]) =>
      Number(
        (await raw.get<{ n: string }>(`SELECT count() AS n FROM ${table} WHERE project_id = {p:String} AND id IN {ids:Array(String)}`, {
          p: P,
          ids,
        }))!.n,
      );

    it('declares a TTL on every table holding a call', async () => {
      for (const table of TABLES) {
        const ddl = (await raw.get<{ statement: string }>(`SHOW CREATE TABLE ${table}`))!.statement;
        expect(ddl, table).toMatch(/TTL toDateTime\(intDiv\(ifNull\(expire_at, 4102444800000000\), 1000000\)\)/);
      }
    });

    it('hides an expired call at once, and a merge past its expiry removes its rows but no other', async () => {
      await store.calls.writeCalls([
        startWrite(P, 'old', { startedAt: T0, threadId: 'th', turnId: 'old' }),
        endWrite(P, 'old', { endedAt: T0 + SECOND }),
        startWrite(P, 'new', { startedAt: T0 + 10 * DAY, threadId: 'th', turnId: 'new' }),
        endWrite(P, 'new', { endedAt: T0 + 10 * DAY + SECOND }),
      ]);
      const expired = await store.retention.expireCalls({ projectId: P, before: T0 + DAY, limit: 10, now: T0 + 11 * DAY });
      expect(expired.calls).toBe(1);
      expect(await store.calls.readCall({ projectId: P, id: 'old' })).toBeNull();
      expect(await store.calls.countCalls({ projectId: P })).toBe(1);
      // Stamped an expiry a day after the engine's now, not the (old) sweep clock's, so nothing
      // is dropped before it could hide the call.
      const at = await raw.get<{ e: string }>(`SELECT max(expire_at) AS e FROM calls WHERE project_id = {p:String} AND id = 'old'`, {
        p: P,
      });
      expect(Number(at!.e)).toBeGreaterThan(Date.now() * 1000);
      // A second sweep finds nothing more to do.
      expect((await store.retention.expireCalls({ projectId: P, before: T0 + DAY, limit: 10, now: T0 + 11 * DAY })).calls).toBe(0);

      // Merges bring the expiry rows together with the calls' other rows within the grace ...
      for (const table of TABLES) await raw.command(`OPTIMIZE TABLE ${table} FINAL`);
      expect(await store.calls.readCall({ projectId: P, id: 'old' })).toBeNull();
      // ... then the grace passes (expire_at moved into the past; the engine takes a TTL of 0 for
      // none, so not 1970 itself), and the next merge drops the expired call's rows, only those.
      for (const table of TABLES) {
        await raw.command(`ALTER TABLE ${table} UPDATE expire_at = 1000000000000 WHERE expire_at IS NOT NULL SETTINGS mutations_sync = 2`);
        // An UPDATE leaves the parts' TTL bounds as computed at insert; recompute them, then merge.
        await raw.command(`ALTER TABLE ${table} MATERIALIZE TTL SETTINGS mutations_sync = 2`);
        await raw.command(`OPTIMIZE TABLE ${table} FINAL`);
        expect(await rowsOf(table, ['old']), table).toBe(0);
        expect(await rowsOf(table, ['new']), table).toBeGreaterThan(0);
      }
      expect(await store.calls.readCall({ projectId: P, id: 'new' })).not.toBeNull();
      const threads = [];
      for await (const th of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }] }))
        threads.push(th);
      expect(threads.map((th) => [th.threadId, th.turnCount])).toEqual([['th', 1]]);
    });
  });
});
