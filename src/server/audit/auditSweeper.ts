/**
 * Drops audit rows older than WEFT_AUDIT_RETENTION_DAYS, once at start and then hourly (a
 * background sweep, never in a request). Unset, nothing is ever dropped. After a sweep the
 * oldest row kept is the chain's anchor for `weft audit verify` (docs/security/audit.md).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';

const DAY_MICROS = 86_400 * 1e6;
export const AUDIT_SWEEP_INTERVAL_MS = 3_600_000;

export class AuditSweeper {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #days: number;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> | null = null;

  constructor(o: { store: Store; clock: Clock; log: Logger; retentionDays: number }) {
    this.#store = o.store;
    this.#clock = o.clock;
    this.#log = o.log;
    this.#days = o.retentionDays;
  }

  /** One sweep now: answers how many rows went. */
  async sweepOnce(): Promise<number> {
    const dropped = await this.#store.audit.sweep(this.#clock.nowMicros() - this.#days * DAY_MICROS);
    if (dropped) this.#log.info(`Audit log: dropped ${dropped} row(s) older than ${this.#days} day(s) (WEFT_AUDIT_RETENTION_DAYS)`);
    return dropped;
  }

  start(): void {
    const tick = () => {
      this.#running = this.sweepOnce().catch((err: unknown) =>
        this.#log.warn(`Audit log sweep failed; retried in an hour: ${String(err)}`),
      );
    };
    tick();
    this.#timer = setInterval(tick, AUDIT_SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
