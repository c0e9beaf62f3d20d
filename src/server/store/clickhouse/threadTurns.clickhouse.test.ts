/**
 * The backfills of thread_turns from calls (migrations 10 and 11, and 19's marks of the starts
 * in calls) give the threads the rows written with the calls give (migration 19's view),
 * searched and filtered by attributes too: the same calls, written part by part in awkward
 * orders, read once as written, then with thread_turns emptied and refilled by the migrations'
 * INSERTs (twice, as two migrators would). The conformance suites cover what the written rows
 * give on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from '../conformance/callWrites.js';
import type { CallWrite, ThreadRecord, ThreadsQuery } from '../Store.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { clickhouseMigrations } from './migrations/index.js';

const P = 'acme/backfill';

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse thread_turns backfills (migrations 10, 11 and 19)', () => {
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

    const threads = async (filter: Pick<ThreadsQuery, 'search' | 'attributes'> = {}) => {
      const out: ThreadRecord[] = [];
      for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }], ...filter }))
        out.push(t);
      return out;
    };
    /** Each thread's id under each search and attribute test (the inputs, outputs and attributes vary by turn). */
    const FILTERS: Pick<ThreadsQuery, 'search' | 'attributes'>[] = [
      { search: 'question' },
      { search: 'answer9' },
      { search: 'answer14' },
      { search: 'answer7' },
      { search: 'late' },
      { search: 'reply' },
      { search: 'question answer' },
      { attributes: { env: 'prod' } },
      { attributes: { env: 'prod', 'n.0': 2 } },
      { attributes: { env: 'prod', 'n.0': 0 } },
      { search: 'question', attributes: { env: 'dev' } },
    ];
    const filtered = async () => {
      const out: string[][] = [];
      for (const f of FILTERS) out.push((await threads(f)).map((t) => t.threadId));
      return out;
    };

    it('refills thread_turns from calls to the same threads', { timeout: 180_000 }, async () => {
      const at = (secs: number) => T0 + secs * SECOND;
      // Three batches: starts with their ends, ends before their starts, ends after them (alone).
      const batches: CallWrite[][] = [[], [], []];
      for (let i = 0; i < 30; i++) {
        const id = `turn${String(i).padStart(2, '0')}`;
        const start = startWrite(P, id, {
          threadId: `th${i % 3}`,
          turnId: id,
          startedAt: at(i),
          inputsJson: JSON.stringify({ q: `question${i}`, late: i % 4 === 2 ? 'late' : '' }),
          attributesJson: JSON.stringify({ env: i % 5 === 0 ? 'prod' : 'dev', n: [i % 3] }),
        });
        const end = endWrite(P, id, {
          endedAt: at(i + 1 + (i % 5)),
          outputJson: JSON.stringify({ a: `answer${i}` }),
          exception: i % 7 === 0 ? 'boom' : null,
          summaryJson: i % 3 === 0 ? usageSummary('gpt-4o', i, 2) : '{"status_counts":{"error":1}}',
        });
        const child = startWrite(P, `${id}-llm`, { threadId: `th${i % 3}`, turnId: id, parentId: id, traceId: id, startedAt: at(i) });
        const childEnd = endWrite(P, `${id}-llm`, { endedAt: at(i + 1), outputJson: '"reply"' });
        if (i % 4 === 0) batches[0]!.push(start, end, child, childEnd);
        else if (i % 4 === 1) {
          batches[0]!.push(end, childEnd);
          batches[1]!.push(start, child);
        } else if (i % 4 === 2) {
          batches[1]!.push(start, child);
          batches[2]!.push(end, childEnd);
        } else batches[1]!.push(start); // never ends
      }
      for (const batch of batches) await store.calls.writeCalls(batch);
      await store.calls.deleteCalls({ projectId: P, ids: ['turn05', 'turn10'], deletedAt: at(99) });
      const written = await threads();
      expect(written.map((t) => [t.threadId, t.turnCount])).toEqual([
        ['th0', 10],
        ['th1', 9],
        ['th2', 9],
      ]);
      const matches = await filtered();
      // An end before its start (turn09), after it (turn14), never (turn07); the children's
      // "reply" is no turn's text; turn05 and turn10 are deleted.
      const all = ['th0', 'th1', 'th2'];
      expect(matches).toEqual([all, ['th0'], ['th2'], [], all, [], all, all, ['th2'], ['th0'], all]);

      await raw.command('TRUNCATE TABLE thread_turns');
      expect(await threads()).toEqual([]);
      const backfills = clickhouseMigrations
        .filter((m) => [10, 11, 19].includes(m.version))
        .flatMap((m) => m.statements.filter((s) => s.trim().startsWith('INSERT')));
      expect(backfills).toHaveLength(3);
      for (const round of [1, 2]) {
        for (const sql of backfills) await raw.command(sql);
        expect(await threads(), `round ${round}`).toEqual(written);
        expect(await filtered(), `round ${round}`).toEqual(matches);
      }
    });
  });
});
