/**
 * Failed-login throttling, per client address and per username, over a sliding window.
 *
 * - A username with `perUser` failures in the last `windowSeconds` is refused (429 with
 *   `Retry-After`) until the oldest of them leaves the window, whoever asks: this stops a
 *   distributed guess at one account. A known and an unknown username are counted alike, so the
 *   429 tells nothing about which names exist.
 * - An address with `perAddress` failures in the window is refused for any username: this stops
 *   one client guessing across many accounts. The address limit is higher because many people
 *   can share one address (an office NAT; behind a reverse proxy, set WEFT_TRUSTED_PROXIES so
 *   the address is the client's, http/clientAddress.ts).
 * - The check comes before the password is hashed, so a refused attempt costs nothing, and a
 *   right password is refused too while blocked (otherwise the 429 would stop being a wall).
 *   Credentials already verified (the authenticator's 60 s cache), API keys and sessions are
 *   never refused, so a signed-in person and the SDKs keep working during an attack.
 * - A success clears that username's count (not the address's: one valid account must not
 *   launder an address's guesses at others).
 *
 * Defaults (settable, README "Settings"): 10 failures per username and 100 per address in
 * 15 minutes. Where the failures are kept is a FailureLog: in memory for one process, or the
 * database's `login_failures` table (store/sqlite/loginFailures.ts), which every server process
 * of `--workers N` shares, so the bounds hold for the whole server, and across restarts. The
 * request threads of a process never hold a throttle: they ask the main thread's
 * (threads/mainThreadAuth.ts).
 */
import { TooManyRequestsError } from '../errors.js';
import { metrics } from '../metrics/hooks.js';

export interface ThrottleLimits {
  /** Failures per username within the window before that username is refused. */
  perUser: number;
  /** Failures per client address within the window before that address is refused. */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perUser: 10, perAddress: 100, windowSeconds: 15 * 60 };

/** Where failure times are kept: `u:<name>` and `a:<address>` keys, times in epoch ms. */
export interface FailureLog {
  /** The `limit`-th most recent failure time of `key` after `since`, or null when it has fewer. */
  nthRecent(key: string, limit: number, since: number): number | null;
  add(keys: string[], at: number, since: number): void;
  clear(key: string): void;
}

/** Keys remembered at most; beyond it, the oldest entries go first (memory stays bounded under a flood of names). */
const MAX_KEYS = 100_000;

/** Failures in this process's memory: for one server process on a store without a shared table. */
export class MemoryFailureLog implements FailureLog {
  /** Failure times per key, oldest first; Map order = least recently failed first. */
  readonly #failures = new Map<string, number[]>();

  nthRecent(key: string, limit: number, since: number): number | null {
    const times = this.#recent(key, since);
    return times.length < limit ? null : times[times.length - limit]!;
  }

  add(keys: string[], at: number, since: number): void {
    for (const key of keys) {
      const times = this.#recent(key, since);
      // Only the last `limit`-many matter; keep a few more so a burst cannot grow one entry without bound.
      times.push(at);
      if (times.length > 1000) times.splice(0, times.length - 1000);
      this.#failures.delete(key);
      this.#failures.set(key, times);
      if (this.#failures.size > MAX_KEYS) this.#failures.delete(this.#failures.keys().next().value!);
    }
  }

  clear(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string, since: number): number[] {
    const times = this.#failures.get(key);
    if (!times) return [];
    while (times.length > 0 && times[0]! <= since) times.shift();
    if (times.length === 0) this.#failures.delete(key);
    return times;
  }
}

export class LoginThrottle {
  readonly #limits: ThrottleLimits;
  readonly #log: FailureLog;

  constructor(limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS, log: FailureLog = new MemoryFailureLog()) {
    this.#limits = limits;
    this.#log = log;
  }

  /** Throws 429 when the username or the address has used up its failures. */
  check(username: string | null, address: string, now = Date.now()): void {
    // An unknown address ('': a caller that did not say) is not one bucket shared by everyone.
    const byAddress = address === '' ? 0 : this.#retryAfter(`a:${address}`, this.#limits.perAddress, now);
    if (byAddress > 0) {
      metrics.loginThrottled('address');
      throw new TooManyRequestsError(`Too many failed sign-ins from your address; try again in ${formatWait(byAddress)}`, byAddress);
    }
    if (username === null) return;
    const byUser = this.#retryAfter(`u:${username}`, this.#limits.perUser, now);
    if (byUser > 0) {
      metrics.loginThrottled('username');
      throw new TooManyRequestsError(`Too many failed sign-ins for this username; try again in ${formatWait(byUser)}`, byUser);
    }
  }

  /** Counts a failed attempt against the address and (when given) the username. */
  recordFailure(username: string | null, address: string, now = Date.now()): void {
    metrics.loginFailed(username === null ? 'api_key' : 'password');
    const keys = [...(address !== '' ? [`a:${address}`] : []), ...(username !== null ? [`u:${username}`] : [])];
    if (keys.length) this.#log.add(keys, now, now - this.#windowMs);
  }

  /** A successful sign-in clears the username's failures. */
  recordSuccess(username: string): void {
    this.#log.clear(`u:${username}`);
  }

  get #windowMs(): number {
    return this.#limits.windowSeconds * 1000;
  }

  /** Seconds until `key` may try again; 0 when it may now. */
  #retryAfter(key: string, limit: number, now: number): number {
    const oldest = this.#log.nthRecent(key, limit, now - this.#windowMs);
    return oldest === null ? 0 : (oldest + this.#windowMs - now) / 1000;
  }
}

function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  return s < 120 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`;
}
