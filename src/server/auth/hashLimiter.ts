/**
 * Bounds how many password hashes run at once. One scrypt hash at the OWASP parameters takes
 * 128 MiB and ~0.6 s of a core (auth/secrets.ts), so an unbounded flood of logins with fresh
 * credentials would exhaust memory and starve every other request. At most `concurrency`
 * hashes run and at most `queue` wait; anything beyond is refused at once with 503 and
 * `Retry-After`, costing nothing. Credentials already verified (the authenticator's cache),
 * API keys (a fast hash) and sessions never come here, so they are unaffected by a flood.
 */
import { ServiceUnavailableError } from '../errors.js';

export interface HashLimits {
  /** Hashes computed at the same time (each holds 128 MiB while it runs). */
  concurrency: number;
  /** Hashes allowed to wait for a slot; more are refused with 503. */
  queue: number;
}

/** Defaults: 2 hashes at once (256 MiB), 8 waiting (a few seconds' wait at most). */
export const DEFAULT_HASH_LIMITS: HashLimits = { concurrency: 2, queue: 8 };

export class HashLimiter {
  readonly #limits: HashLimits;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limits: HashLimits = DEFAULT_HASH_LIMITS) {
    this.#limits = { concurrency: Math.max(1, limits.concurrency), queue: Math.max(0, limits.queue) };
  }

  /** Runs `work` when a slot is free, or throws 503 when all slots and the queue are taken. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limits.concurrency) {
      if (this.#waiting.length >= this.#limits.queue) {
        throw new ServiceUnavailableError(
          'The server is busy checking other passwords; try again shortly (API keys and signed-in sessions are not affected)',
          1,
        );
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
