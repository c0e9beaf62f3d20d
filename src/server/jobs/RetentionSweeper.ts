/**
 * Deletes calls past their project's retention rule (docs/operations/retention.md) on a timer in
 * the server process, never on the request path. Each batch is one short write transaction of
 * at most BATCH calls on the writer, and the sweeper yields to the event loop between batches,
 * so requests and group commits interleave with it; a tick stops after MAX_PER_TICK calls and
 * the next tick goes on. Ticks never overlap.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';

/**
 * Calls per batch. Expiring a call costs what deleting it does: its threads and its stats cells
 * are refolded (a cell that loses its slowest call rescans its calls for the new maximum), about
 * 0.5 ms a call on a loaded 2-core machine, and a batch holds the writer, and the main thread
 * that hands requests to the threads, for all of it. At 500 a batch the readers' p99 rose to
 * 9.5 s under load; at 100, to 1.8 s (bench/retentionSweep.ts, docs/performance.md).
 */
export const RETENTION_BATCH = 100;
/** Calls per tick, so one tick's work is bounded however far behind the sweep is. */
export const RETENTION_MAX_PER_TICK = 50_000;

const DAY_MICROS = 86_400_000_000;

export interface SweepReport {
  /** Calls removed, per project. */
  projects: { projectId: string; days: number; calls: number; feedback: number; files: number; fileBytes: number }[];
  calls: number;
  feedback: number;
  /** Files only the removed calls referred to, removed with them, and their bytes. */
  files: number;
  fileBytes: number;
  batches: number;
  /** Whether the bound per tick stopped it with expired calls left. */
  more: boolean;
}

/** One sweep: every project with a rule in force, oldest calls first, within the bounds. */
export async function sweepRetention(
  store: Store,
  options: { now: number; batch?: number; maxCalls?: number; stopped?: () => boolean },
): Promise<SweepReport> {
  const batch = options.batch ?? RETENTION_BATCH;
  const maxCalls = options.maxCalls ?? RETENTION_MAX_PER_TICK;
  const report: SweepReport = { projects: [], calls: 0, feedback: 0, files: 0, fileBytes: 0, batches: 0, more: false };
  for (const { projectId, days } of await store.retention.projectsInForce()) {
    const before = options.now - days * DAY_MICROS;
    const done = { projectId, days, calls: 0, feedback: 0, files: 0, fileBytes: 0 };
    for (;;) {
      if (report.calls >= maxCalls || options.stopped?.()) {
        report.more = true;
        break;
      }
      const limit = Math.min(batch, maxCalls - report.calls);
      const expired = await store.retention.expireCalls({ projectId, before, limit, now: options.now });
      report.batches++;
      done.calls += expired.calls;
      done.feedback += expired.feedback;
      report.calls += expired.calls;
      report.feedback += expired.feedback;
      done.files += expired.files;
      done.fileBytes += expired.fileBytes;
      report.files += expired.files;
      report.fileBytes += expired.fileBytes;
      if (expired.calls < limit) break;
      // Let requests and group commits run between two batches.
      await yieldToLoop();
    }
    if (done.calls > 0) report.projects.push(done);
    if (report.more) break;
  }
  return report;
}

export interface RetentionSweeperOptions {
  store: Store;
  log: Logger;
  everyMs: number;
  /** Where a sweep's "now" comes from: the services clock (the system clock when absent). */
  clock?: Clock;
}

export class RetentionSweeper {
  readonly #options: RetentionSweeperOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<SweepReport | null> | null = null;

  constructor(options: RetentionSweeperOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweepNow(), this.#options.everyMs);
    this.#timer.unref();
  }

  /** Runs one sweep now, or waits for the one running; answers its report (null when it failed). */
  sweepNow(): Promise<SweepReport | null> {
    const { store, log, clock = systemClock } = this.#options;
    this.#running ??= sweepRetention(store, { now: clock.nowMicros(), stopped: () => this.#stopping })
      .then((report) => {
        if (report.calls > 0)
          log.info(`retention: deleted ${report.calls} call(s) and ${report.files} file(s) in ${report.batches} batch(es)`);
        return report;
      })
      .catch((err: unknown) => {
        log.warn(`retention: sweep failed, will retry at the next tick: ${String(err)}`);
        return null;
      })
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  #stopping = false;

  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
