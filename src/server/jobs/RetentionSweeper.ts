/**
 * Deletes calls past their project's retention rule (docs/operations/retention.md) on a timer in
 * the server process, never on the request path. Each batch is one short write transaction,
 * sized to take about RETENTION_BATCH_TARGET_MS, and the sweep yields between batches, so
 * requests and group commits interleave with it; a tick stops after MAX_PER_TICK calls and the
 * next tick goes on. Ticks never overlap. On a SQLite file the batches run on a thread of their
 * own (retentionThread.ts), so the main thread is never busy with them.
 */
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';
import { sweepRetention, type SweepReport } from './retentionSweep.js';
import type { WriteTurns } from '../threads/writeTurns.js';
import { RetentionThread } from './retentionThread.js';

export { sweepRetention, type SweepReport } from './retentionSweep.js';

export interface RetentionSweeperOptions {
  store: Store;
  log: Logger;
  everyMs: number;
  /** Where a sweep's "now" comes from: the services clock (the system clock when absent). */
  clock?: Clock;
  /**
   * Run the batches on a thread of their own over this SQLite file, taking turns on the write
   * lock with the process's group commit (retentionThread.ts); without it they run here.
   */
  thread?: { file: string; turns: WriteTurns | null };
}

export class RetentionSweeper {
  readonly #options: RetentionSweeperOptions;
  readonly #thread: RetentionThread | null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<SweepReport | null> | null = null;

  constructor(options: RetentionSweeperOptions) {
    this.#options = options;
    this.#thread = options.thread ? new RetentionThread({ ...options.thread, log: options.log }) : null;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweepNow(), this.#options.everyMs);
    this.#timer.unref();
  }

  /** Runs one sweep now, or waits for the one running; answers its report (null when it failed). */
  sweepNow(): Promise<SweepReport | null> {
    const { log, clock = systemClock } = this.#options;
    const now = clock.nowMicros();
    this.#running ??= this.#sweep(now)
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

  async #sweep(now: number): Promise<SweepReport> {
    const { store } = this.#options;
    // The thread (an isolate and a connection) only once some rule is in force: most servers
    // have none, and asking costs one small read.
    if (this.#thread && (await store.retention.projectsInForce()).length > 0) return this.#thread.sweep(now);
    return sweepRetention(store, { now, stopped: () => this.#stopping });
  }

  /** Whether a batch on the sweep's thread holds the write turn now (tests). */
  get batchOpen(): boolean {
    return this.#thread?.batchOpen ?? false;
  }

  #stopping = false;

  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    // The thread stops after its batch in progress, and the sweep waiting for it ends then.
    await Promise.all([this.#thread?.stop(), this.#running]);
  }
}
