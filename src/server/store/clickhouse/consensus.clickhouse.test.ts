/**
 * The ClickHouse-only recovery paths of the consensus slots (consensus.ts) that the
 * backend-neutral suites cannot reach: a proposal that got stored beside the winner (its
 * proposer stalled past the deduplication window) still loses, and a monitor batch decided by a
 * process that died before applying it is applied by the next sweep, once.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { decidedSlot, proposeSlot } from './consensus.js';

const P = 'acme/consensus';

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse consensus slots', () => {
    let store: ClickHouseStore;
    let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
    beforeEach(async () => {
      db = await createTempClickHouseDatabase();
      store = await ClickHouseStore.open(db);
    });
    afterEach(async () => {
      await store.close();
      await db.drop();
    });

    it('a proposal stored after the slot was decided (past the deduplication window) does not take it', async () => {
      await store.jobs.enqueue({ id: 'j', projectId: P, kind: 'calls_score', payload: {}, createdBy: 'a', createdAt: 1 });
      const now = Date.now() * 1000;
      const claimed = await store.jobs.claimNext({ owner: 'first', now, staleBefore: now - 60e6, maxAttempts: 3 });
      expect(claimed).toMatchObject({ owner: 'first' });
      // What a stalled proposer's row looks like once the window forgot the slot's token: a
      // plain insert beside the winner, later by the server's clock, with a token that sorts first.
      await store.db.insert('job_slots', [
        { job_id: 'j', slot: 1, action: 'claim', owner: 'stalled', token: '0', at: now, error: null, result: null },
      ]);
      const ref = { table: 'job_slots', keyColumn: 'job_id', key: 'j', slot: 1 } as const;
      expect(await decidedSlot<{ owner: string; token: string }>(store.db, ref)).toMatchObject({ owner: 'first' });
      expect(await store.jobs.getJob({ projectId: P, id: 'j' })).toMatchObject({ owner: 'first', attempts: 1 });
      expect(await store.jobs.heartbeat({ id: 'j', owner: 'stalled', now })).toMatchObject({ owned: false });
      // And a proposal for a decided slot inside the window is dropped by deduplication.
      const late = await proposeSlot(store.db, ref, { action: 'claim', owner: 'late', at: now, error: null, result: null });
      expect(late.won).toBe(false);
      const rows = await store.db.all<{ n: string }>(`SELECT count() AS n FROM job_slots WHERE job_id = 'j' AND owner = 'late'`);
      expect(Number(rows[0]!.n)).toBe(0);
    });

    it('a monitor batch decided by a process that died before applying it is applied by the next sweep, once', async () => {
      const createdAt = Date.now() * 1000;
      await store.objects.createObject({
        projectId: P,
        objectId: 'm',
        digest: 'd1',
        kind: 'object',
        baseObjectClass: 'Object',
        leafObjectClass: 'Monitor',
        valJson: JSON.stringify({ _type: 'Monitor', active: true }),
        sizeBytes: 1,
        wbUserId: 'a',
        createdAt,
      });
      await new Promise((r) => setTimeout(r, 5));
      await store.calls.writeCalls([startWrite(P, 'c1'), endWrite(P, 'c1'), startWrite(P, 'c2'), endWrite(P, 'c2')]);
      const [batch] = await store.monitors.pendingEnded({ limit: 10, now: Date.now() * 1000 });
      expect(batch!.calls.map((c) => c.callId).sort()).toEqual(['c1', 'c2']);
      const job = { id: randomUUID(), projectId: P, kind: 'calls_score', payload: { call_ids: ['c1', 'c2'] }, createdBy: 'a', createdAt };
      // The dying process won the slot, and nothing after.
      const cursor = JSON.parse(batch!.cursor) as { slot: number; high: number };
      const { won } = await proposeSlot(
        store.db,
        { table: 'monitor_sweeps', keyColumn: 'project_id', key: P, slot: cursor.slot },
        { high: cursor.high, call_ids: ['c1', 'c2'], jobs: JSON.stringify([job]) },
      );
      expect(won).toBe(true);
      expect(await store.jobs.getJob({ projectId: P, id: job.id })).toBeNull();

      // Another process's sweep (a fresh store: no memory of what was settled) applies it first.
      const other = await ClickHouseStore.open(db);
      try {
        expect(await other.monitors.pendingEnded({ limit: 10, now: Date.now() * 1000 })).toEqual([]);
        expect(await other.jobs.getJob({ projectId: P, id: job.id })).toMatchObject({ status: 'queued' });
        expect(await other.monitors.pendingEnded({ limit: 10, now: Date.now() * 1000 })).toEqual([]);
        expect(await other.jobs.listJobs({ projectId: P, limit: 10 })).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  });
});
