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
  pollMs: number;
  /** Ended calls handled per batch. */
  batch?: number;
  /** Where a sweep's "now" comes from: the services clock (the system clock when absent). */
  clock?: Clock;
}

export class MonitorSweeper {
  readonly #options: MonitorSweeperOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  /** When the last sweep that emptied the inbox began (performance.now()): every call ended before it was handled. */
  #caughtUpAt = performance.now();

  constructor(options: MonitorSweeperOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.tick(), this.#options.pollMs);
    this.#timer.unref();
    this.tick();
  }

  /** Sweeps until the inbox is empty (or a batch fails); a tick while one runs is dropped. */
  tick(): void {
    if (this.#running) return;
    this.#running = this.#drain()
      .catch((err) => this.#options.log.warn(`monitors: sweeping ended calls failed, will retry: ${String(err)}`))
      .finally(() => {
        this.#running = null;
      });
  }

  async #drain(): Promise<void> {
    const { store, kick, clock = systemClock } = this.#options;
    const batch = this.#options.batch ?? 500;
    const began = performance.now();
    while (this.#timer) {
      const { handled } = await sweepMonitorInbox(store, { batch, now: clock.nowMicros(), kick });
      if (handled < batch) {
        this.#caughtUpAt = began;
        return;
      }
    }
  }

  /**
   * Seconds since the sweeper last found the inbox empty: up to the poll interval when it keeps
   * up; it grows while sweeps fail or fall behind (`/metrics`, docs/operations/metrics.md).
   */
  lagSeconds(): number {
    return (performance.now() - this.#caughtUpAt) / 1000;
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
