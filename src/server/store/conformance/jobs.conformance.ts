/**
 * Conformance suite for JobsStore: the durable queue of the job runner (jobs/JobRunner.ts). Its
 * promises: a job is claimed by one owner at a time — also when the runners of two processes
 * (two stores on one database) race for the same jobs; a stale owner is taken over and cannot
 * finish or renew a job it lost; cancelling a queued job ends it, cancelling a running one flags
 * it; a job interrupted `maxAttempts` times is failed with the reason, never left running;
 * claims are fair across entities and projects, and a project at its running cap gets none.
 */
import { describe, expect, it } from 'vitest';
import type { OpenStore, OpenStorePair } from '../../testing/tempStore.js';
import type { Store } from '../Store.js';

const P = 'acme/jobs';
const T0 = 1_750_000_000_000_000;
const SECOND = 1_000_000;

const job = (id: string, createdAt: number, kind = 'calls_score') => ({
  id,
  projectId: P,
  kind,
  payload: { call_ids: [id], n: 1 },
  createdBy: 'alice',
  createdAt,
});

/** A claim at `now` that treats heartbeats older than `staleMs` before it as gone. */
const claim = (s: Store, owner: string, now: number, opts: { staleMs?: number; maxAttempts?: number; perProject?: number } = {}) =>
  s.jobs.claimNext({
    owner,
    now,
    staleBefore: now - (opts.staleMs ?? 30 * SECOND),
    maxAttempts: opts.maxAttempts ?? 3,
    ...(opts.perProject ? { maxRunningPerProject: opts.perProject } : {}),
  });

export function describeJobsConformance(open: OpenStore, openPair: OpenStorePair): void {
  describe('jobs', () => {
    it('queues, lists newest first, and an id enqueued again changes nothing', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('j1', T0));
        await store.jobs.enqueue(job('j2', T0 + SECOND, 'evaluate_model'));
        await store.jobs.enqueue({ ...job('j1', T0), payload: { call_ids: ['j1'], n: 1 } });
        expect(await store.jobs.getJob({ projectId: P, id: 'j1' })).toEqual({
          id: 'j1',
          projectId: P,
          kind: 'calls_score',
          payload: { call_ids: ['j1'], n: 1 },
          status: 'queued',
          progressDone: 0,
          progressTotal: null,
          error: null,
          result: null,
          attempts: 0,
          cancelRequested: false,
          owner: null,
          createdBy: 'alice',
          createdAt: T0,
          startedAt: null,
          finishedAt: null,
          heartbeatAt: null,
        });
        expect((await store.jobs.listJobs({ projectId: P, limit: 10 })).map((j) => j.id)).toEqual(['j2', 'j1']);
        expect((await store.jobs.listJobs({ projectId: P, kind: 'calls_score', limit: 10 })).map((j) => j.id)).toEqual(['j1']);
        expect(await store.jobs.listJobs({ projectId: P, limit: 1 })).toHaveLength(1);
        expect(await store.jobs.getJob({ projectId: 'other/project', id: 'j1' })).toBeNull();
        expect(await store.jobs.getJob({ projectId: P, id: 'missing' })).toBeNull();
      } finally {
        await close();
      }
    });

    it('claims the oldest job first; the owner heartbeats, reports progress and finishes it', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('late', T0 + 5 * SECOND));
        await store.jobs.enqueue(job('early', T0));
        const now = T0 + 10 * SECOND;
        const first = await claim(store, 'runner-a', now);
        expect(first).toMatchObject({ id: 'early', status: 'running', owner: 'runner-a', attempts: 1, startedAt: now, heartbeatAt: now });
        expect(await store.jobs.heartbeat({ id: 'early', owner: 'runner-a', now: now + SECOND })).toEqual({
          cancelRequested: false,
          owned: true,
        });
        expect(await store.jobs.heartbeat({ id: 'early', owner: 'someone-else', now: now + SECOND })).toEqual({
          cancelRequested: false,
          owned: false,
        });
        await store.jobs.setProgress({ id: 'early', owner: 'runner-a', done: 3, total: 8 });
        // Progress from a process that does not own the job is ignored.
        await store.jobs.setProgress({ id: 'early', owner: 'someone-else', done: 7, total: 8 });
        expect(await store.jobs.getJob({ projectId: P, id: 'early' })).toMatchObject({
          progressDone: 3,
          progressTotal: 8,
          heartbeatAt: now + SECOND,
        });

        expect(await claim(store, 'runner-a', now + 2 * SECOND)).toMatchObject({ id: 'late', attempts: 1 });
        expect(await claim(store, 'runner-a', now + 3 * SECOND)).toBeNull();

        // Only the owner's finish counts.
        await store.jobs.finish({ id: 'early', owner: 'someone-else', status: 'failed', error: 'no', result: null, now: now + 4 * SECOND });
        await store.jobs.finish({
          id: 'early',
          owner: 'runner-a',
          status: 'succeeded',
          error: null,
          result: { rows: 8 },
          now: now + 5 * SECOND,
        });
        await store.jobs.finish({ id: 'early', owner: 'runner-a', status: 'failed', error: 'again', result: null, now: now + 6 * SECOND });
        expect(await store.jobs.getJob({ projectId: P, id: 'early' })).toMatchObject({
          status: 'succeeded',
          result: { rows: 8 },
          error: null,
          owner: null,
          attempts: 1,
          finishedAt: now + 5 * SECOND,
          progressDone: 3,
        });
        expect(await store.jobs.heartbeat({ id: 'early', owner: 'runner-a', now: now + 7 * SECOND })).toMatchObject({ owned: false });
        // A finished job is never claimed again, however old its heartbeat.
        expect(await claim(store, 'runner-b', now + 3600 * SECOND)).toMatchObject({ id: 'late', attempts: 2 });
        expect(await claim(store, 'runner-b', now + 7200 * SECOND)).toMatchObject({ id: 'late', attempts: 3 });
      } finally {
        await close();
      }
    });

    it('two stores racing on one database claim every job exactly once', async () => {
      const { a, b, close } = await openPair();
      try {
        const N = 12;
        for (let i = 0; i < N; i++) await (i % 2 ? a : b).jobs.enqueue(job(`race${String(i).padStart(2, '0')}`, T0 + i));
        const claimed: { id: string; owner: string }[] = [];
        // Three runners per process, each claiming until nothing is left, all at once.
        const runner = async (store: Store, owner: string) => {
          for (;;) {
            const got = await claim(store, owner, T0 + SECOND);
            if (!got) return;
            claimed.push({ id: got.id, owner });
          }
        };
        await Promise.all(['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].map((owner) => runner(owner.startsWith('a') ? a : b, owner)));
        expect(claimed.map((c) => c.id).sort()).toEqual(Array.from({ length: N }, (_, i) => `race${String(i).padStart(2, '0')}`));
        for (const c of claimed) {
          // The store agrees with the winner, from either process.
          for (const s of [a, b]) expect(await s.jobs.getJob({ projectId: P, id: c.id })).toMatchObject({ owner: c.owner, attempts: 1 });
        }
      } finally {
        await close();
      }
    });

    it('two stores racing for one stale job: one takes it over; the old owner can neither renew nor finish it', async () => {
      const { a, b, close } = await openPair();
      try {
        await a.jobs.enqueue(job('stale', T0));
        expect(await claim(a, 'old', T0 + SECOND)).toMatchObject({ id: 'stale' });
        // Still fresh: nobody takes it.
        expect(await claim(b, 'new-b', T0 + 10 * SECOND)).toBeNull();
        const later = T0 + 60 * SECOND;
        const results = await Promise.all([claim(a, 'new-a', later), claim(b, 'new-b', later), claim(b, 'new-b2', later)]);
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!;
        expect(winner).toMatchObject({ id: 'stale', status: 'running', attempts: 2, startedAt: T0 + SECOND, heartbeatAt: later });

        expect(await a.jobs.heartbeat({ id: 'stale', owner: 'old', now: later + SECOND })).toMatchObject({ owned: false });
        await a.jobs.finish({ id: 'stale', owner: 'old', status: 'succeeded', error: null, result: 'old', now: later + SECOND });
        await a.jobs.setProgress({ id: 'stale', owner: 'old', done: 99, total: 99 });
        expect(await b.jobs.getJob({ projectId: P, id: 'stale' })).toMatchObject({
          status: 'running',
          owner: winner.owner,
          progressDone: 0,
        });
        await b.jobs.finish({
          id: 'stale',
          owner: winner.owner!,
          status: 'succeeded',
          error: null,
          result: 'new',
          now: later + 2 * SECOND,
        });
        expect(await a.jobs.getJob({ projectId: P, id: 'stale' })).toMatchObject({ status: 'succeeded', result: 'new', attempts: 2 });
      } finally {
        await close();
      }
    });

    it('an owner finishing while another process takes its job over: exactly one of the two happens', async () => {
      const { a, b, close } = await openPair();
      try {
        for (let i = 0; i < 4; i++) {
          const id = `pair${i}`;
          await a.jobs.enqueue(job(id, T0 + i));
          const mine = await claim(a, 'slow', T0 + SECOND);
          expect(mine).toMatchObject({ id });
          const [, taken] = await Promise.all([
            a.jobs.finish({ id, owner: 'slow', status: 'succeeded', error: null, result: i, now: T0 + 90 * SECOND }),
            claim(b, 'taker', T0 + 90 * SECOND),
          ]);
          const after = (await a.jobs.getJob({ projectId: P, id }))!;
          if (taken) {
            expect(after).toMatchObject({ status: 'running', owner: 'taker', attempts: 2, result: null });
            await b.jobs.finish({ id, owner: 'taker', status: 'succeeded', error: null, result: i, now: T0 + 91 * SECOND });
          } else {
            expect(after).toMatchObject({ status: 'succeeded', owner: null, attempts: 1, result: i });
          }
        }
      } finally {
        await close();
      }
    });

    it('cancels a queued job at once and flags a running one', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('queued', T0));
        await store.jobs.enqueue(job('running', T0 + 1));
        const cancelled = await store.jobs.requestCancel({ projectId: P, id: 'queued', now: T0 + SECOND });
        expect(cancelled).toMatchObject({ status: 'cancelled', error: 'Cancelled', finishedAt: T0 + SECOND, owner: null });
        // The cancelled job is never claimed.
        expect(await claim(store, 'runner', T0 + 2 * SECOND)).toMatchObject({ id: 'running' });
        expect(await claim(store, 'runner', T0 + 2 * SECOND)).toBeNull();

        const flagged = await store.jobs.requestCancel({ projectId: P, id: 'running', now: T0 + 3 * SECOND });
        expect(flagged).toMatchObject({ status: 'running', cancelRequested: true, owner: 'runner' });
        expect(await store.jobs.heartbeat({ id: 'running', owner: 'runner', now: T0 + 4 * SECOND })).toEqual({
          cancelRequested: true,
          owned: true,
        });
        await store.jobs.finish({
          id: 'running',
          owner: 'runner',
          status: 'cancelled',
          error: 'Cancelled',
          result: null,
          now: T0 + 5 * SECOND,
        });
        expect(await store.jobs.getJob({ projectId: P, id: 'running' })).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
        // Cancelling a finished job changes nothing; an unknown one answers null.
        expect(await store.jobs.requestCancel({ projectId: P, id: 'running', now: T0 + 6 * SECOND })).toMatchObject({
          status: 'cancelled',
          finishedAt: T0 + 5 * SECOND,
        });
        expect(await store.jobs.requestCancel({ projectId: P, id: 'nope', now: T0 })).toBeNull();
      } finally {
        await close();
      }
    });

    it('a job its owner releases (a graceful stop) is queued again, that claim uncounted; only the owner can', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('held', T0));
        await store.jobs.enqueue(job('dropped', T0 + 1));
        expect(await claim(store, 'a', T0 + SECOND)).toMatchObject({ id: 'held', attempts: 1 });
        await store.jobs.release!({ id: 'held', owner: 'someone else' });
        expect(await store.jobs.getJob({ projectId: P, id: 'held' })).toMatchObject({ status: 'running', owner: 'a' });
        await store.jobs.release!({ id: 'held', owner: 'a' });
        expect(await store.jobs.getJob({ projectId: P, id: 'held' })).toMatchObject({
          status: 'queued',
          owner: null,
          attempts: 0,
          heartbeatAt: null,
          startedAt: T0 + SECOND,
        });
        // The released claim is over: its owner can neither renew nor finish it.
        expect(await store.jobs.heartbeat({ id: 'held', owner: 'a', now: T0 + 2 * SECOND })).toMatchObject({ owned: false });
        // Claimed at once by anyone (no heartbeat to wait out), as a fresh job.
        expect(await claim(store, 'b', T0 + 3 * SECOND)).toMatchObject({ id: 'held', owner: 'b', attempts: 1 });
        await store.jobs.finish({ id: 'held', owner: 'b', status: 'succeeded', error: null, result: 'ok', now: T0 + 4 * SECOND });
        expect(await store.jobs.getJob({ projectId: P, id: 'held' })).toMatchObject({ status: 'succeeded', attempts: 1, result: 'ok' });
        // A released job can be cancelled as a queued one.
        expect(await claim(store, 'a', T0 + 5 * SECOND)).toMatchObject({ id: 'dropped' });
        await store.jobs.release!({ id: 'dropped', owner: 'a' });
        expect(await store.jobs.requestCancel({ projectId: P, id: 'dropped', now: T0 + 6 * SECOND })).toMatchObject({
          status: 'cancelled',
          finishedAt: T0 + 6 * SECOND,
        });
        expect(await claim(store, 'a', T0 + 7 * SECOND)).toBeNull();
      } finally {
        await close();
      }
    });

    it('a stale job whose cancellation was asked for is cancelled, not resumed', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('doomed', T0));
        await claim(store, 'gone', T0 + SECOND);
        await store.jobs.requestCancel({ projectId: P, id: 'doomed', now: T0 + 2 * SECOND });
        expect(await claim(store, 'next', T0 + 120 * SECOND)).toBeNull();
        expect(await store.jobs.getJob({ projectId: P, id: 'doomed' })).toMatchObject({
          status: 'cancelled',
          error: 'Cancelled',
          owner: null,
          finishedAt: T0 + 120 * SECOND,
        });
      } finally {
        await close();
      }
    });

    it('a job interrupted maxAttempts times is failed with the reason, and the next job is claimed', async () => {
      const { store, close } = await open();
      try {
        await store.jobs.enqueue(job('crashy', T0));
        await store.jobs.enqueue(job('fine', T0 + 1));
        const opts = { staleMs: 10 * SECOND, maxAttempts: 2 };
        expect(await claim(store, 'p1', T0 + SECOND, opts)).toMatchObject({ id: 'crashy', attempts: 1 });
        expect(await claim(store, 'p1', T0 + SECOND, opts)).toMatchObject({ id: 'fine', attempts: 1 });
        await store.jobs.finish({ id: 'fine', owner: 'p1', status: 'succeeded', error: null, result: null, now: T0 + 2 * SECOND });
        // p1 died; p2 resumes the job, then dies too.
        expect(await claim(store, 'p2', T0 + 20 * SECOND, opts)).toMatchObject({ id: 'crashy', attempts: 2, owner: 'p2' });
        expect(await claim(store, 'p3', T0 + 40 * SECOND, opts)).toBeNull();
        const failed = await store.jobs.getJob({ projectId: P, id: 'crashy' });
        expect(failed).toMatchObject({ status: 'failed', attempts: 2, owner: null, finishedAt: T0 + 40 * SECOND });
        expect(failed!.error).toMatch(/Interrupted 2 time\(s\) by a server restart or crash/);
      } finally {
        await close();
      }
    });

    it('claims fairly: the entity, then the project, with the fewest running first; a project at its cap gets none', async () => {
      const { store, close } = await open();
      try {
        const at = (id: string, projectId: string, createdAt: number) => store.jobs.enqueue({ ...job(id, createdAt), projectId });
        // One tenant queues five jobs in two projects before another queues two.
        for (let i = 0; i < 3; i++) await at(`busy-a${i}`, 'busy/a', T0 + i);
        for (let i = 0; i < 2; i++) await at(`busy-b${i}`, 'busy/b', T0 + 10 + i);
        await at('quiet-1', 'quiet/x', T0 + 100);
        await at('quiet-2', 'quiet/x', T0 + 101);
        expect(await store.jobs.countOpen({ projectId: 'busy/a' })).toBe(3);
        const now = T0 + SECOND;
        const next = async (owner: string) => (await claim(store, owner, now, { perProject: 1 }))?.id ?? null;
        // The oldest; then the other entity (it runs nothing); then busy/b (none running in the
        // project); then nothing: every project is at its cap of one.
        expect([await next('o1'), await next('o2'), await next('o3'), await next('o4')]).toEqual(['busy-a0', 'quiet-1', 'busy-b0', null]);
        await store.jobs.finish({ id: 'quiet-1', owner: 'o2', status: 'succeeded', error: null, result: null, now });
        // quiet's second job goes before busy's older ones: its entity runs none of the two running.
        expect(await next('o5')).toBe('quiet-2');
        expect(await store.jobs.countOpen({ projectId: 'quiet/x' })).toBe(1);
        // Without a cap, fairness still orders the claims.
        expect((await claim(store, 'o6', now))?.id).toBe('busy-a1');
      } finally {
        await close();
      }
    });
  });
}
