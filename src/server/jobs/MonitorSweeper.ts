/**
 * Drains the monitor inbox (domain/llm/monitors.ts) on a timer in the server process that runs the
 * jobs: one batch at a time, never overlapping, never on the request path. A batch that fails
 * (say the disk is full) stays in the inbox and is tried again at the next tick.
 */
import { systemClock, type Clock } from '../core/clock.js';
import { sweepMonitorInbox } from '../domain/llm/monitors.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';

export interface MonitorSweeperOptions {
  store: Store;
  log: Logger;
  /** Starts queued jobs now rather than at the runner's next poll. */
  kick: () => void;
  /** The wait between sweeps while calls end. */
  pollMs: number;
  /**
   * The longest wait while no call ends (default 30 × pollMs): each sweep that finds nothing
   * doubles the wait up to this; `wake()` (calls ended on this process) starts over at once.
   */
  maxIdlePollMs?: number;
  /** Ended calls handled per batch. */
  batch?: number;
  /** Where a sweep's "now" comes from: the services clock (the system clock when absent). */
  clock?: Clock;
}

export class MonitorSweeper {
  readonly #options: MonitorSweeperOptions;
  #timer: NodeJS.Timeout | null = null;
  #started = false;
  /** The wait before the next sweep: pollMs while calls end, growing while none do. */
  #idleMs = 0;
  /** Woken while a sweep ran: the next one comes within pollMs. */
  #woken = false;
  /** When the next sweep is due (performance.now()). */
  #dueAt = 0;
  #running: Promise<void> | null = null;
  /** When the last sweep that emptied the inbox began (performance.now()): every call ended before it was handled. */
  #caughtUpAt = performance.now();

  constructor(options: MonitorSweeperOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#idleMs = this.#options.pollMs;
    this.tick();
  }

  /**
   * Calls ended on this process: the idle back-off starts over, and the next sweep comes within
   * pollMs, as while calls keep ending. Calls ended on another replica are found within
   * maxIdlePollMs (docs/clickhouse.md "Quiet when idle").
   */
  wake(): void {
    if (!this.#started) return;
    this.#idleMs = this.#options.pollMs;
    if (this.#running) this.#woken = true;
    else if (this.#dueAt - performance.now() > this.#options.pollMs) this.#schedule(true);
  }

  /** Sweeps until the inbox is empty (or a batch fails); a tick while one runs is dropped. */
  tick(): void {
    if (this.#running || !this.#started) return;
    let found = 0;
    this.#running = this.#drain((n) => (found += n))
      .catch((err) => {
        found = 1; // a failure is retried at the busy pace, not backed off
        this.#options.log.warn(`monitors: sweeping ended calls failed, will retry: ${String(err)}`);
      })
      .finally(() => {
        this.#running = null;
        this.#schedule(found > 0 || this.#woken);
        this.#woken = false;
      });
  }

  #schedule(foundWork: boolean): void {
    if (!this.#started) return;
    const { pollMs, maxIdlePollMs = 30 * pollMs } = this.#options;
    this.#idleMs = foundWork ? pollMs : Math.min(maxIdlePollMs, this.#idleMs * 2);
    if (this.#timer) clearTimeout(this.#timer);
    const wait = foundWork ? pollMs : this.#idleMs;
    this.#dueAt = performance.now() + wait;
    this.#timer = setTimeout(() => this.tick(), wait);
    this.#timer.unref();
  }

  /** The wait before the next sweep while no call ends (tests). */
  get idlePollMs(): number {
    return this.#idleMs;
  }

  async #drain(found: (n: number) => void): Promise<void> {
    const { store, kick, clock = systemClock } = this.#options;
    const batch = this.#options.batch ?? 500;
    const began = performance.now();
    while (this.#started) {
      const { handled } = await sweepMonitorInbox(store, { batch, now: clock.nowMicros(), kick });
      found(handled);
      if (handled < batch) {
        this.#caughtUpAt = began;
        return;
      }
    }
  }

  /**
   * Seconds since the sweeper last found the inbox empty: up to the poll interval when it keeps
   * up (up to the idle back-off while no call ends); it grows while sweeps fail or fall behind (`/metrics`, docs/operations/metrics.md).
   */
  lagSeconds(): number {
    return (performance.now() - this.#caughtUpAt) / 1000;
  }

  async stop(): Promise<void> {
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
