/**
 * The job runner and the monitor sweep on every backend in WEFT_TEST_STORES, with two server
 * processes' worth of runners on one database (two stores, as two replicas): every job runs
 * exactly once, a cancel reaches the running handler, a stopped runner's job is handed back and
 * resumed by the other, and two sweepers racing queue each ended call's scoring once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { uuidv7 } from '../core/ids.js';
import { CALLS_SCORE_JOB } from '../domain/calls/callsScore.js';
import { sweepMonitorInbox } from '../domain/llm/monitors.js';
import { createLogger } from '../logger.js';
import { endWrite, startWrite } from '../store/conformance/callWrites.js';
import type { Store } from '../store/Store.js';
import { testBackends } from '../testing/tempStore.js';
import { JobRunner, type JobHandler } from './JobRunner.js';
import { waitFor } from '../testing/waitFor.js';

const P = 'acme/runner';
const log = createLogger('error');

for (const backend of testBackends()) {
  describe(`job runner (${backend.name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function pairOfRunners(handlers: Record<string, JobHandler>, staleMs: number) {
      const pair = await backend.openPair();
      const runners = [pair.a, pair.b].map((store) => new JobRunner({ store, log, handlers, concurrency: 2, staleMs, pollMs: 50 }));
      cleanups.push(async () => {
        for (const r of runners) await r.stop();
        await pair.close();
      });
      return { ...pair, runners };
    }

    it('two processes run every job exactly once', async () => {
      const runs: string[] = [];
      const { a, runners } = await pairOfRunners(
        {
          count: async (job, ctx) => {
            runs.push(job.id);
            await ctx.progress(1, 1);
            return { seen: job.payload.n };
          },
        },
        10_000,
      );
      const ids: string[] = [];
      for (let n = 0; n < 10; n++)
        ids.push(await runners[n % 2]!.enqueue({ projectId: P, kind: 'count', payload: { n }, createdBy: 'alice' }));
      for (const r of runners) r.start();
      const jobs = await waitFor(
        () => a.jobs.listJobs({ projectId: P, limit: 50 }),
        (js) => js.length === 10 && js.every((j) => j.status === 'succeeded'),
      );
      expect(runs.sort()).toEqual([...ids].sort());
      for (const j of jobs) expect(j).toMatchObject({ attempts: 1, progressDone: 1, progressTotal: 1, result: { seen: j.payload.n } });
    });

    it('a cancel reaches the running handler; a stopped runner’s job is resumed by the other', async () => {
      let started = 0;
      const handlers: Record<string, JobHandler> = {
        // Runs until aborted.
        wait: (_job, ctx) =>
          new Promise((_resolve, reject) => {
            started++;
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
          }),
        // Finishes once another runner than the first has it.
        resume: async (job, ctx) => {
          if (job.owner !== runners[0]!.owner) return 'resumed';
          return new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))));
        },
      };
      // Stale after 2 s: with less, a heartbeat delayed on a busy engine let A re-claim its own
      // running job (attempts 2) before the stop.
      const { a, b, runners } = await pairOfRunners(handlers, 2000);
      const [ra, rb] = runners as [JobRunner, JobRunner];
      ra.start();
      const waiting = await ra.enqueue({ projectId: P, kind: 'wait', payload: {}, createdBy: 'alice' });
      await waitFor(
        () => a.jobs.getJob({ projectId: P, id: waiting }),
        (j) => j?.status === 'running',
      );
      await b.jobs.requestCancel({ projectId: P, id: waiting, now: Date.now() * 1000 });
      expect(
        await waitFor(
          () => a.jobs.getJob({ projectId: P, id: waiting }),
          (j) => j?.status !== 'running',
        ),
      ).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
      expect(started).toBe(1);

      const resumed = await ra.enqueue({ projectId: P, kind: 'resume', payload: {}, createdBy: 'alice' });
      await waitFor(
        () => a.jobs.getJob({ projectId: P, id: resumed }),
        (j) => j?.status === 'running',
      );
      // Process A stops mid-job and hands the job back: it is queued again with the interrupted
      // claim uncounted, on every backend, and B runs it once more, and it succeeds.
      await ra.stop();
      expect(await a.jobs.getJob({ projectId: P, id: resumed })).toMatchObject({ status: 'queued', attempts: 0, owner: null });
      rb.start();
      expect(
        await waitFor(
          () => b.jobs.getJob({ projectId: P, id: resumed }),
          (j) => j?.status === 'succeeded',
        ),
      ).toMatchObject({ attempts: 1, result: 'resumed', owner: null });
    });

    it('two monitor sweeps racing queue each ended call’s scoring once', async () => {
      const pair = await backend.openPair();
      cleanups.push(() => pair.close());
      const { a, b } = pair;
      const createdAt = Date.now() * 1000;
      await a.objects.createObject({
        projectId: P,
        objectId: 'all-calls',
        digest: 'monitor-v1',
        kind: 'object',
        baseObjectClass: 'Object',
        leafObjectClass: 'Monitor',
        valJson: JSON.stringify({
          _type: 'Monitor',
          active: true,
          sampling_rate: 1,
          scorers: [`weave:///${P}/object/judge:abc`],
          op_names: null,
          query: null,
        }),
        sizeBytes: 1,
        wbUserId: 'alice',
        createdAt,
      });
      await new Promise((r) => setTimeout(r, 5));
      const ids = Array.from({ length: 8 }, () => uuidv7());
      for (const [n, id] of ids.entries()) await (n % 2 ? a : b).calls.writeCalls([startWrite(P, id), endWrite(P, id)]);
      const sweep = (s: Store) => sweepMonitorInbox(s, { batch: 100, now: Date.now() * 1000 });
      const results = await Promise.all([sweep(a), sweep(b), sweep(a), sweep(b)]);
      // Whatever a racing sweep left (it lost), the next sweep has nothing more to do.
      expect(await sweep(a)).toEqual({ handled: 0, jobs: 0 });
      expect(results.reduce((n, r) => n + r.handled, 0)).toBe(ids.length);
      const jobs = (await a.jobs.listJobs({ projectId: P, kind: CALLS_SCORE_JOB, limit: 50 })).filter((j) => j.status === 'queued');
      expect(jobs.flatMap((j) => j.payload.call_ids as string[]).sort()).toEqual([...ids].sort());
      for (const j of jobs) expect(j.payload).toMatchObject({ trigger_ref: `weave:///${P}/object/all-calls:monitor-v1` });
    });
  });
}
