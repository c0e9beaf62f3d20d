/**
 * ClickHouse's substring search through its queue and trigram posting lists (docs/search.md
 * "ClickHouse"): the conformance suite again with the queue indexed after every write (so the
 * posting lists answer, not the queue); a search exact while every call is queued and after the
 * indexer drains the queue; migration 26's backfill queueing the calls stored before; the
 * rarest trigrams chosen; and an idle indexer with an empty queue staying quiet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseFaultProxy } from '../../testing/clickhouseFaultProxy.js';
import { createTempClickHouseDatabase, testBackends, type OpenStore } from '../../testing/tempStore.js';
import { describeCallsSearchConformance } from '../conformance/callsSearch.conformance.js';
import { endWrite, SECOND, startWrite, T0 } from '../conformance/callWrites.js';
import { planSearch, WORD_CHAR } from '../query/index.js';
import { chooseSearchGrams, INDEXED_CHARS, LONG_MARK, wordCharParams, wordCharSql } from './callSearch.js';
import { ClickHouseSearchIndexer } from './callSearchIndexer.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { v26CallSearchQueue } from './migrations/v26CallSearchQueue.js';

const P = 'acme/grams';

/** A store without the background indexer, whose call writes are indexed before they answer. */
const openIndexedStore: OpenStore = async () => {
  const db = await createTempClickHouseDatabase();
  const store = await ClickHouseStore.open({ ...db, searchIndexer: false });
  const indexer = new ClickHouseSearchIndexer(store.db, { lagMs: 0 });
  const write = store.calls.writeCalls.bind(store.calls);
  store.calls.writeCalls = async (writes) => {
    await write(writes);
    expect(await indexer.drain()).toBeGreaterThan(0);
  };
  return {
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
};

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('calls search through the posting lists alone', () => describeCallsSearchConformance(openIndexedStore));

  describe('ClickHouse substring search through the queue and the posting lists', () => {
    let store: ClickHouseStore;
    let raw: ClickHouseDatabase;
    let indexer: ClickHouseSearchIndexer;
    let drop: () => Promise<void>;
    let engineUrl: string;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      engineUrl = db.url;
      store = await ClickHouseStore.open({ ...db, searchIndexer: false });
      raw = new ClickHouseDatabase(db);
      indexer = new ClickHouseSearchIndexer(raw, { lagMs: 0, batchCalls: 3 });
      await store.calls.writeCalls([
        startWrite(P, 'zh', { startedAt: T0, inputsJson: JSON.stringify({ q: '我们今天讨论退款政策' }) }),
        startWrite(P, 'quokka', { startedAt: T0 + SECOND, inputsJson: JSON.stringify({ q: 'a Zebraquokka here' }) }),
        startWrite(P, 'other', { startedAt: T0 + 2 * SECOND, inputsJson: JSON.stringify({ q: 'zebra and quokka apart' }) }),
        startWrite(P, 'long', { startedAt: T0 + 3 * SECOND, inputsJson: JSON.stringify({ doc: 'x'.repeat(INDEXED_CHARS) + ' 退款政策' }) }),
      ]);
      await store.calls.writeCalls(['zh', 'quokka', 'other', 'long'].map((id) => endWrite(P, id, { outputJson: '"done"' })));
    });
    afterAll(async () => {
      await store.close();
      await raw.close();
      await drop();
    });

    const ids = async (search: string) => {
      const out: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: P, filter: { search } })) out.push(c.id);
      return out.sort();
    };
    const count = async (sql: string) => Number((await raw.get<{ n: string }>(sql, { p: P }))!.n);
    const gramRows = () => count('SELECT count() AS n FROM call_grams WHERE project_id = {p:String}');
    const expectAnswers = async () => {
      expect(await ids('zebraquokka')).toEqual(['quokka']);
      expect(await ids('退款政策')).toEqual(['long', 'zh']);
      expect(await ids('QUOKKA')).toEqual(['other', 'quokka']);
      expect(await ids('absent')).toEqual([]);
    };

    it('is exact while every call is queued, and after the indexer drains the queue in batches', async () => {
      // Queued, not indexed: the queued calls are the candidates, and the LIKE decides.
      expect(await gramRows()).toBe(0);
      expect(await count('SELECT count() AS n FROM call_search_queue WHERE project_id = {p:String}')).toBe(8);
      await expectAnswers();
      // Four queued calls (eight parts) in batches of three calls.
      expect(await indexer.drain()).toBe(4);
      expect(await indexer.indexBatch()).toEqual({ indexed: 0, waiting: false });
      expect(await gramRows()).toBeGreaterThan(0);
      await expectAnswers();
      const long = await raw.all<{ gram: string }>(
        'SELECT DISTINCT gram FROM call_grams WHERE project_id = {p:String} AND id = {id:String} AND gram IN {g:Array(String)}',
        { p: P, id: 'long', g: [LONG_MARK, '退款政'] },
      );
      // Its Chinese is past INDEXED_CHARS: not indexed, but the mark makes it a candidate of every search.
      expect(long.map((r) => r.gram)).toEqual([LONG_MARK]);
      // Drained, the posting lists alone name the candidates: without them nothing is found.
      await raw.command('TRUNCATE TABLE call_grams');
      expect(await ids('zebraquokka')).toEqual([]);
    });

    it('queues the calls stored before with migration 26, run twice as a migrator cut off half-way would', async () => {
      await raw.command('TRUNCATE TABLE call_grams');
      await raw.command('TRUNCATE TABLE call_search_queue');
      await raw.command('TRUNCATE TABLE call_search_progress');
      for (let i = 0; i < 2; i++) {
        await raw.command(v26CallSearchQueue.statements.at(-1)!);
        await expectAnswers();
      }
      const queued = await count('SELECT count(DISTINCT id) AS n FROM call_search_queue WHERE project_id = {p:String}');
      expect(queued).toBe(4);
      expect(await indexer.drain()).toBe(queued);
      await expectAnswers();
      await raw.command('OPTIMIZE TABLE call_grams FINAL');
      const once = await gramRows();
      // Indexed again (a second replica, a crash before the progress): the rows merge.
      await raw.command('TRUNCATE TABLE call_search_progress');
      expect(await indexer.drain()).toBe(queued);
      await raw.command('OPTIMIZE TABLE call_grams FINAL');
      expect(await gramRows()).toBe(once);
      await expectAnswers();
    });

    it('chooses the rarest trigrams of a needle, and none for a needle too common for them', async () => {
      const search = planSearch('zebraquokka')!;
      const chosen = await chooseSearchGrams(raw, P, [search]);
      // `zeb`, `ebr`, `bra`, `quo`, `uok`, `okk`, `kka` are in two calls; `raq`, `aqu` in one.
      expect(chosen.byNeedle.get('zebraquokka')?.slice(0, 2).sort()).toEqual(['aqu', 'raq']);
      expect(chosen.byNeedle.get('zebraquokka')).toHaveLength(3);
      const common = await chooseSearchGrams(raw, P, [planSearch('done')!], { maxPostings: 3 });
      expect(common.byNeedle.get('done')).toBeNull();
      // A trigram no call holds: only the long calls (and the queued ones) remain.
      const absent = await chooseSearchGrams(raw, P, [planSearch('zzqq')!]);
      expect(absent.byNeedle.get('zzqq')).toContain('zzq');
    });

    it('tells word characters as JavaScript does, for every character of the first plane', async () => {
      const chars: string[] = [];
      for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
      const params: Record<string, unknown> = {};
      const bind = (value: unknown, type: string) => {
        const name = `b${Object.keys(params).length}`;
        params[name] = value;
        return `{${name}:${type}}`;
      };
      const sql = `SELECT arrayMap(c -> ${wordCharSql('c', wordCharParams(bind))}, {chars:Array(String)}) AS w`;
      const words: boolean[] = [];
      // In parts, which keep each request's URL short.
      for (let i = 0; i < chars.length; i += 4096) {
        const row = await raw.get<{ w: number[] }>(sql, { ...params, chars: chars.slice(i, i + 4096) });
        words.push(...row!.w.map((w) => Number(w) === 1));
      }
      const word = new RegExp(`^[${WORD_CHAR}]$`, 'u');
      expect(chars.filter((c, i) => words[i] !== word.test(c))).toEqual([]);
      expect(words.filter(Boolean).length).toBeGreaterThan(40_000);
    });

    it('stays quiet while idle with an empty queue, and looks within the idle wait after a write', async () => {
      const proxy = await startClickHouseFaultProxy(engineUrl);
      const viaProxy = new ClickHouseDatabase({ url: proxy.url, database: raw.database });
      let clock = 0;
      let timer: { run: () => void; ms: number } | null = null;
      let armed: () => void = () => {};
      const quiet = new ClickHouseSearchIndexer(viaProxy, {
        lagMs: 0,
        now: () => clock,
        setTimer: (run, ms) => {
          timer = { run, ms };
          armed();
          return () => (timer = null);
        },
      });
      /** Fires the pending timer (time jumps to it) and waits until the indexer sets the next. */
      const fire = async (): Promise<number> => {
        const t = timer!;
        timer = null;
        clock += t.ms;
        const next = new Promise<void>((r) => (armed = r));
        t.run();
        await next;
        return timer!.ms;
      };
      try {
        await indexer.drain();
        quiet.start();
        proxy.clearStatements();
        // Ten idle minutes: a look per second would be 600 of them; backing off 1, 2, 4 ... 60 s,
        // 16, of two statements each.
        const waits: number[] = [];
        while (clock < 600_000) waits.push(await fire());
        expect(proxy.statements().length).toBeLessThanOrEqual(2 * 16);
        expect(proxy.statements().length).toBeGreaterThan(0);
        expect(waits.at(-1)).toBe(60_000);
        // A call written here is looked at within the idle wait, and indexed.
        await store.calls.writeCalls([startWrite(P, 'late', { startedAt: T0 + 9 * SECOND, inputsJson: '{"q":"platypus"}' })]);
        quiet.wrote(1);
        expect(timer!.ms).toBe(1000);
        expect(await fire()).toBe(0);
        expect(await count("SELECT count() AS n FROM call_grams WHERE project_id = {p:String} AND id = 'late'")).toBeGreaterThan(0);
      } finally {
        await quiet.stop();
        await viaProxy.close();
        await proxy.close();
      }
    });
  });
});
