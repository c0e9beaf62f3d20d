/**
 * How a replica hears that credentials changed on another one. Replicas of a ClickHouse-backed
 * Weft share nothing but the database, so the node:cluster relay (cluster.ts) cannot reach them.
 * Instead every revocation, password change and ended session bumps the database's accounts
 * epoch (store/clickhouse/accounts.ts), and each server process reads it about once a second (one
 * tiny query per process, never per request). When it moved, the process drops its cached
 * credentials, so a revoked key or an old password stops working everywhere within about
 * `intervalMs` plus one query.
 *
 * A failed read also drops the cache: a replica that cannot see the epoch cannot know that
 * nothing was revoked, and its next requests check credentials against the database (which
 * answers, or fails those requests as it would have anyway).
 *
 * SQLite keeps the cluster relay: every process of a SQLite server runs on one machine, where
 * the relay is immediate and costs nothing, and its accounts tables have no epoch to read.
 */
import type { Logger } from '../logger.js';

export interface EpochWatchOptions {
  /** Reads the current epoch (one small query). */
  read: () => Promise<number>;
  /** Called when the epoch moved, or could not be read. */
  forget: () => void;
  log: Logger;
  intervalMs?: number;
}

/** About once a second: the "within ~1 s" every replica promises for a revoked key. */
export const EPOCH_POLL_MS = 1000;

export class AccountsEpochWatch {
  readonly #options: EpochWatchOptions;
  #seen: number | null = null;
  #failing = false;
  #timer: NodeJS.Timeout | null = null;
  #polling: Promise<void> | null = null;
  #stopped = false;

  constructor(options: EpochWatchOptions) {
    this.#options = options;
  }

  /** Reads the epoch once (an unreachable database fails the start), then keeps polling. */
  async start(): Promise<void> {
    this.#seen = await this.#options.read();
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#polling;
  }

  #schedule(): void {
    if (this.#stopped) return;
    // A timeout after each poll, not an interval: a slow database never gets overlapping polls.
    this.#timer = setTimeout(() => {
      this.#polling = this.poll().finally(() => this.#schedule());
    }, this.#options.intervalMs ?? EPOCH_POLL_MS);
    this.#timer.unref();
  }

  /** One poll: forgets the cached credentials when the epoch moved or could not be read. */
  async poll(): Promise<void> {
    try {
      const epoch = await this.#options.read();
      if (this.#failing) this.#options.log.info('The accounts epoch can be read again.');
      this.#failing = false;
      if (epoch !== this.#seen) {
        this.#seen = epoch;
        this.#options.forget();
      }
    } catch (err) {
      if (!this.#failing)
        this.#options.log.warn(
          `Cannot read the accounts epoch (${(err as Error).message}); credentials are checked afresh until it can be read.`,
        );
      this.#failing = true;
      this.#options.forget();
    }
  }
}
