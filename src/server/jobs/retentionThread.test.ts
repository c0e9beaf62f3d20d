/**
 * The retention sweep's batches run on a thread of their own (retentionThread.ts), so the main
 * thread, which hands requests out and answers them, is never busy with one. Shown without any
 * timing: the test holds the SQLite write lock itself, so the sweep's first batch waits inside it
 * (holding the write turn), and meanwhile the main thread still answers reads.
 */
import Database from 'better-sqlite3';
import { threadId } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const NOW_MS = Date.UTC(2026, 1, 15, 12);
const P = 'alice-co/ret-thread';
let t: TestServer;

const count = async () => (await t.alice.client.callsQueryStats({ project_id: P })).count;

describe('the retention sweep thread', () => {
  beforeAll(async () => {
    t = await startTestServer({ env: { WEFT_STORE: 'sqlite' }, clock: { nowMicros: () => NOW_MS * 1000 } });
  });
  afterAll(() => t?.close());

  it('keeps the main thread answering while a batch is open, and runs the batches elsewhere', async () => {
    const started = new Date(NOW_MS - 40 * 86_400_000).toISOString();
    await t.alice.client.callUpsertBatch({
      batch: Array.from({ length: 30 }, (_, i) => ({
        mode: 'start' as const,
        req: { start: { project_id: P, id: `c${i}`, trace_id: `c${i}`, op_name: 'op', started_at: started, inputs: {} } },
      })),
    });
    await t.admin.retentionSet({ project_id: P, days: 30 });
    const store = t.server.store;
    if (!(store instanceof SqliteStore)) throw new Error('a SQLite server was expected');

    const lock = new Database(store.file);
    try {
      lock.exec('BEGIN IMMEDIATE');
      const sweep = t.server.retention.sweepNow();
      // The sweep's thread has the write turn and waits for the lock inside its batch.
      while (!t.server.retention.batchOpen) await nextTurn();
      // Were the batch on the main thread, it would be waiting there, and nothing would answer.
      expect(await count()).toBe(30);
      expect((await t.fetch('/health')).status).toBe(200);
      lock.exec('ROLLBACK');
      const report = await sweep;
      expect(report).toMatchObject({ calls: 30, more: false });
      expect(report!.threadId).not.toBe(threadId);
    } finally {
      lock.close();
    }
    expect(await count()).toBe(0);
  });
});
