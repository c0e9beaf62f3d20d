/**
 * An idle server looks for work less and less often (the job runner's claims, the monitor
 * sweeper's inbox reads: on ClickHouse each is a FINAL scan), up to 30 poll intervals apart,
 * a job queued on this process starts at once, and calls ended on it are swept one poll later. Timers are faked, so
 * two idle minutes pass in no time; the store is a real SQLite file, its calls counted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.js';
import { metrics, onCallsEnded } from '../metrics/hooks.js';
import type { Store } from '../store/Store.js';
import { openTempSqliteStore } from '../testing/tempStore.js';
import { JobRunner } from './JobRunner.js';
import { MonitorSweeper } from './MonitorSweeper.js';

const log = createLogger('error');
const P = 'acme/idle';

/** The store with one method of one sub-store counted (the real method still answers). */
function counting<K extends 'jobs' | 'monitors'>(store: Store, part: K, method: string): { store: Store; calls: () => number } {
  let n = 0;
  const inner = store[part] as object;
  const counted = new Proxy(inner, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...a: unknown[]) => unknown).bind(target);
      return key === method
        ? (...args: unknown[]) => {
            n++;
            return bound(...args);
          }
        : bound;
    },
  });
  const wrapped = new Proxy(store, { get: (target, key) => (key === part ? counted : Reflect.get(target, key)) });
  return { store: wrapped, calls: () => n };
}

describe('idle back-off', () => {
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('the job runner backs off to 30 polls while idle, and runs a job queued here at once', async () => {
    const temp = await openTempSqliteStore();
    cleanups.push(temp.close);
    const { store, calls } = counting(temp.store, 'jobs', 'claimNext');
    const ran: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const runner = new JobRunner({
      store,
      log,
      concurrency: 1,
      staleMs: 10_000,
      pollMs: 1000,
      handlers: {
        note: async (job) => {
          ran.push(job.id);
          done();
          return null;
        },
      },
    });
    cleanups.push(() => runner.stop());
    runner.start();
    await vi.advanceTimersByTimeAsync(120_000);
    // Polling every second would have looked 120 times; backing off 1, 2, 4 ... 30 s, 8 times.
    expect(calls()).toBeLessThanOrEqual(10);
    expect(runner.idlePollMs).toBe(30_000);

    const before = calls();
    const id = await runner.enqueue({ projectId: P, kind: 'note', payload: {}, createdBy: 'ada' });
    // No timer advanced: the enqueue itself started the job.
    await finished;
    expect(ran).toEqual([id]);
    expect(calls()).toBeGreaterThan(before);
    await vi.advanceTimersByTimeAsync(0);
    expect(runner.idlePollMs).toBe(1000);
  });

  it('the monitor sweeper backs off while no call ends, and sweeps one poll after calls end here', async () => {
    const temp = await openTempSqliteStore();
    cleanups.push(temp.close);
    const { store, calls } = counting(temp.store, 'monitors', 'pendingEnded');
    const sweeper = new MonitorSweeper({ store, log, kick: () => undefined, pollMs: 1000 });
    const unwake = onCallsEnded(() => sweeper.wake());
    cleanups.push(async () => {
      unwake();
      await sweeper.stop();
    });
    sweeper.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls()).toBeLessThanOrEqual(10);
    expect(sweeper.idlePollMs).toBe(30_000);

    const before = calls();
    // What every write path reports when calls end on this process: a sweep one poll later,
    // not at the end of the 30 s wait.
    metrics.ingested('sdk', 0, 1);
    expect(sweeper.idlePollMs).toBe(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(before + 1);
  });
});
