/**
 * Conformance suite for MonitorsStore: the ended calls of projects with a `Monitor` object, as
 * the monitor sweeper takes them. Its promises: a call that ends after a monitor exists is
 * handed out (a retried end does not hand it out again); calls of other projects, and calls
 * that ended before, are not; a batch not settled is handed out again (a restart loses
 * nothing); when two processes settle the same calls, exactly one succeeds and only its jobs are
 * queued; a forgotten project starts again with its next Monitor version.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OpenStore, OpenStorePair } from '../../testing/tempStore.js';
import type { EndedBatch, MonitorJob } from '../MonitorsStore.js';
import type { Store } from '../Store.js';
import { endWrite, startWrite } from './callWrites.js';

const P = 'acme/monitored';
const Q = 'acme/unmonitored';

/** The store clock: monitors and the calls after them are ordered by when Weft stored them. */
const nowMicros = () => Date.now() * 1000;
const tick = () => new Promise((r) => setTimeout(r, 5));

async function saveMonitor(s: Store, active: boolean): Promise<number> {
  await tick();
  const createdAt = nowMicros();
  await s.objects.createObject({
    projectId: P,
    objectId: 'watcher',
    digest: `digest-${active}-${createdAt}`,
    kind: 'object',
    baseObjectClass: 'Object',
    leafObjectClass: 'Monitor',
    valJson: JSON.stringify({ _type: 'Monitor', active, sampling_rate: 1, scorers: [], op_names: null, query: null }),
    sizeBytes: 10,
    wbUserId: 'alice',
    createdAt,
  });
  await tick();
  return createdAt;
}

/** A call written whole (start and end in one write), or only its start. */
const finished = (s: Store, project: string, id: string) => s.calls.writeCalls([startWrite(project, id), endWrite(project, id)]);

const pending = (s: Store) => s.monitors.pendingEnded({ limit: 100, now: nowMicros() });
const idsOf = (batches: EndedBatch[], project = P) =>
  batches
    .flatMap((b) => b.calls)
    .filter((c) => c.projectId === project)
    .map((c) => c.callId)
    .sort();

const scoreJob = (callIds: string[]): MonitorJob => ({
  id: randomUUID(),
  projectId: P,
  kind: 'calls_score',
  payload: { call_ids: callIds },
  createdBy: 'alice',
  createdAt: nowMicros(),
});

/** Settles every batch, with one job per batch; answers the jobs of the batches this store settled. */
async function settle(s: Store, batches: EndedBatch[]): Promise<MonitorJob[]> {
  const queued: MonitorJob[] = [];
  for (const batch of batches) {
    const job = scoreJob(batch.calls.map((c) => c.callId));
    if (await s.monitors.ackEnded({ batch, jobs: [job], now: nowMicros() })) queued.push(job);
  }
  return queued;
}

export function describeMonitorsConformance(open: OpenStore, openPair: OpenStorePair): void {
  describe('monitors', () => {
    it('hands out the calls that end after a monitor exists, once, and queues the jobs of a settled batch', async () => {
      const { store, close } = await open();
      try {
        await finished(store, P, 'before');
        await saveMonitor(store, true);
        await finished(store, P, 'whole');
        await store.calls.writeCalls([startWrite(P, 'split')]);
        await store.calls.writeCalls([startWrite(P, 'open')]);
        await store.calls.writeCalls([endWrite(P, 'split')]);
        await finished(store, Q, 'elsewhere');
        const batches = await pending(store);
        expect(idsOf(batches)).toEqual(['split', 'whole']);
        expect(idsOf(batches, Q)).toEqual([]);

        const [job] = await settle(store, batches);
        expect(job).toBeDefined();
        expect(await store.jobs.getJob({ projectId: P, id: job!.id })).toMatchObject({ status: 'queued', payload: job!.payload });
        expect(idsOf(await pending(store))).toEqual([]);

        // A retried end does not hand the call out again; the open call's end does.
        await store.calls.writeCalls([endWrite(P, 'whole')]);
        await store.calls.writeCalls([endWrite(P, 'open')]);
        const next = await pending(store);
        expect(idsOf(next)).toEqual(['open']);
        expect(await settle(store, next)).toHaveLength(1);
        expect(idsOf(await pending(store))).toEqual([]);
      } finally {
        await close();
      }
    });

    it('a batch not settled is handed out again; of two processes settling the same calls exactly one succeeds', async () => {
      const { a, b, close } = await openPair();
      try {
        await saveMonitor(a, true);
        const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
        for (const id of ids) await finished(i(id) % 2 ? a : b, P, id);
        const seenByA = await pending(a);
        // A sweep that stopped before settling (a restart) lost nothing: the other process sees it all.
        const seenByB = await pending(b);
        expect(idsOf(seenByA)).toEqual(ids);
        expect(idsOf(seenByB)).toEqual(ids);

        const [jobsA, jobsB] = await Promise.all([settle(a, seenByA), settle(b, seenByB)]);
        const queued = [...jobsA, ...jobsB];
        expect(queued.flatMap((j) => j.payload.call_ids as string[]).sort()).toEqual(ids);
        const listed = await a.jobs.listJobs({ projectId: P, limit: 50 });
        expect(listed.map((j) => j.id).sort()).toEqual(queued.map((j) => j.id).sort());
        expect(idsOf(await pending(a))).toEqual([]);
        expect(idsOf(await pending(b))).toEqual([]);
        // A late settle of the stale batch changes nothing.
        expect(await settle(a, seenByA)).toEqual([]);
        expect(await a.jobs.listJobs({ projectId: P, limit: 50 })).toHaveLength(queued.length);
      } finally {
        await close();
      }
    });

    it('a forgotten project hands out nothing until a new Monitor version is stored', async () => {
      const { store, close } = await open();
      try {
        const paused = await saveMonitor(store, false);
        await store.monitors.forgetProject({ projectId: P, monitorsUpTo: paused });
        await finished(store, P, 'while-paused');
        expect(idsOf(await pending(store))).toEqual([]);
        await saveMonitor(store, true);
        await finished(store, P, 'after-resume');
        expect(idsOf(await pending(store))).toEqual(['after-resume']);
      } finally {
        await close();
      }
    });
  });
}

/** Spreads writes over both stores by the call number. */
const i = (id: string) => Number(id.slice(1));
