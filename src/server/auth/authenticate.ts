/**
 * Who is calling. Three ways in:
 * - HTTP Basic `user:password` (people, scripts), `api:<key>` (what the official Weave SDKs
 *   send) or `Authorization: Bearer <key>` (the published spec; W&B's hardware catalogue route
 *   accepts only Bearer). OTel exporters configured for Weave send `wandb-api-key: <key>`.
 * - The dashboard's session cookie (auth/sessions.ts), when no credentials header is sent.
 *
 * Verified credential headers are cached in memory for `CACHE_MS`, keyed by a SHA-256 of the
 * header, so a password's scrypt cost is paid once per client rather than once per request; a
 * revoked key or changed password stops working within `CACHE_MS` (at once where `forget()` is
 * called, and within about a second on every replica of a ClickHouse-backed server, which polls
 * the accounts epoch: auth/accountsEpoch.ts). Password attempts are throttled per address and username (auth/loginThrottle.ts) and
 * their hashing bounded (auth/hashLimiter.ts); an unknown username costs the same scrypt work as
 * a known one, so the time to answer does not tell which usernames exist.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Role } from '../../contract/roles.js';
import type { Store, UserRecord } from '../store/Store.js';
import { roleIn } from './roles.js';
import { KEY_ID_LENGTH, KEY_LENGTH } from './apiKeys.js';
import { HashLimiter, type HashLimits } from './hashLimiter.js';
import { LoginThrottle, type FailureLog, type ThrottleLimits } from './loginThrottle.js';
import { fastHash, hashSecret, needsRehash, SCRYPT_PARAMS, verifySecret, type ScryptParams } from './secrets.js';
import { readSessionCookie, SessionManager, type SessionLimits } from './sessions.js';

export interface AuthUser {
  username: string;
  isAdmin: boolean;
  entities: ReadonlySet<string>;
  /** Role per entity the user belongs to (auth/roles.ts reads it with `projectRoles`). */
  roles: Readonly<Record<string, Role>>;
  /** Per-project overrides of the entity role, keyed by `<entity>/<project>`. */
  projectRoles: Readonly<Record<string, Role>>;
  via: 'password' | 'api_key' | 'session';
  /** The API key's id when `via: 'api_key'` (audit rows name it), else null. */
  keyId?: string | null;
  /** The dashboard session behind the request (`via: 'session'`), else null. */
  sessionId?: string | null;
}

/** What a request offers to prove who it is. */
export interface RequestCredentials {
  /** `Authorization` header (Basic or Bearer). */
  authorization?: string | null;
  /** `wandb-api-key` header (OTel exporters). */
  apiKey?: string | null;
  /** `Cookie` header (the dashboard's session). */
  cookie?: string | null;
  /** Client address, for throttling. */
  address?: string;
}

/**
 * Where credentials are checked when not in this authenticator's cache. A request thread
 * (threads/) hands them to its process's main thread, so the login throttle, the bound on
 * password hashes and the one-check-per-burst rule hold for the process, not per thread.
 */
export interface CredentialChecker {
  /** An `Authorization` header (Basic or Bearer), as `authenticate` checks it on a cache miss. */
  verifyHeader(header: string, address: string): Promise<AuthUser>;
  verifyLogin(username: string, password: string, address: string): Promise<AuthUser>;
  hashPassword(password: string): Promise<string>;
}

export interface AuthenticatorOptions {
  /** Hears every `forget()`, so other server processes can drop their caches too. */
  onForget?: () => void;
  throttle?: ThrottleLimits;
  /** Where failed sign-ins are counted (a table every server process shares); default in memory. */
  failureLog?: FailureLog;
  /** Check credentials elsewhere (a request thread's main thread) instead of here. */
  checker?: CredentialChecker;
  hashLimits?: HashLimits;
  /** Parameters of new password hashes (WEFT_PASSWORD_SCRYPT_N); OWASP's unless configured. */
  scrypt?: ScryptParams;
  sessions?: SessionLimits;
  /** The sessions' clock (idle and absolute expiry) and the credential cache's; the system clock unless a test fixes it. */
  clock?: Clock;
  /**
   * With single sign-on only (WEFT_OIDC_ONLY), the usernames still allowed a password, and what
   * everyone else is told (403); absent: passwords work for everyone (docs/security/sso.md).
   */
  passwordSignIn?: { onlyFor: ReadonlySet<string>; refusal: string } | null;
}

const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

/**
 * A stored-hash look-alike for unknown usernames: verifying against it runs scrypt at today's
 * parameters (same time as a real user's) and never matches (the "hash" is random bytes).
 */
function dummyHash({ N, r, p }: ScryptParams): string {
  return ['scrypt', N, r, p, randomBytes(16).toString('base64url'), randomBytes(32).toString('base64url')].join('$');
}

export class Authenticator {
  readonly #store: Store;
  readonly #cache = new Map<string, { user: AuthUser; until: number }>();
  readonly #inflight = new Map<string, Promise<AuthUser>>();
  /** Counts `forgetLocally()` calls: an answer checked before the latest one is not cached. */
  #generation = 0;
  readonly #onForget: (() => void) | undefined;
  readonly #throttle: LoginThrottle;
  readonly #hashes: HashLimiter;
  readonly #scrypt: ScryptParams;
  readonly #dummyHash: string;
  readonly #checker: CredentialChecker | null;
  readonly #clock: Clock;
  readonly #passwordSignIn: AuthenticatorOptions['passwordSignIn'];
  /** Dashboard sessions: created by sign-in, read on every cookie request. */
  readonly sessions: SessionManager;

  constructor(store: Store, options: AuthenticatorOptions = {}) {
    this.#store = store;
    this.#onForget = options.onForget;
    this.#throttle = new LoginThrottle(options.throttle, options.failureLog);
    this.#hashes = new HashLimiter(options.hashLimits);
    this.#scrypt = options.scrypt ?? SCRYPT_PARAMS;
    this.#dummyHash = dummyHash(this.#scrypt);
    this.#checker = options.checker ?? null;
    this.#clock = options.clock ?? systemClock;
    this.#passwordSignIn = options.passwordSignIn ?? null;
    this.sessions = new SessionManager(store, options.sessions, options.clock);
  }

  /**
   * The user behind an `Authorization` header (Basic or Bearer), or UnauthorizedError (401),
   * TooManyRequestsError (429, throttled) or ServiceUnavailableError (503, hashing saturated).
   */
  async authenticate(header: string | undefined | null, options: { address?: string } = {}): Promise<AuthUser> {
    if (!header) throw new UnauthorizedError();
    const cacheKey = createHash('sha256').update(header).digest('base64url');
    const hit = this.#cache.get(cacheKey);
    if (hit && hit.until > this.#nowMs()) return hit.user;

    // Concurrent requests with the same new credentials (an SDK's first burst) share one check:
    // one password hash, not one per request.
    const pending = this.#inflight.get(cacheKey);
    if (pending) return pending;
    const generation = this.#generation;
    const verifying = this.#checker
      ? this.#checker.verifyHeader(header, options.address ?? '')
      : this.verifyHeader(header, options.address ?? '');
    this.#inflight.set(cacheKey, verifying);
    try {
      const user = await verifying;
      // A revocation seen while this check ran may have come after the key was read: answer
      // this request, but do not keep the answer for the next ones.
      if (generation !== this.#generation) return user;
      if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
      this.#cache.set(cacheKey, { user, until: this.#nowMs() + CACHE_MS });
      return user;
    } finally {
      this.#inflight.delete(cacheKey);
    }
  }

  #nowMs(): number {
    return this.#clock.nowMicros() / 1000;
  }

  /** A whole request's credentials: a credentials header when there is one, else the session cookie. */
  async authenticateRequest(creds: RequestCredentials): Promise<AuthUser> {
    const header = creds.authorization || (creds.apiKey ? `Bearer ${creds.apiKey}` : null);
    if (header) return this.authenticate(header, { address: creds.address });
    const token = readSessionCookie(creds.cookie);
    if (!token) throw new UnauthorizedError();
    const session = await this.sessions.resolve(token);
    if (!session) throw new UnauthorizedError('Your session has ended (signed out, expired or revoked); sign in again');
    const user = await this.#store.accounts.getUser(session.username);
    if (!user) throw new UnauthorizedError('Your session belongs to a user that no longer exists');
    return { ...toAuthUser(user, 'session'), sessionId: session.sessionId };
  }

  /**
   * Checks a username and password (or `api` and a key) for signing in, throttled and bounded
   * like a Basic header but never cached: every sign-in is checked afresh.
   */
  async verifyLogin(username: string, password: string, address: string): Promise<AuthUser> {
    if (this.#checker) return this.#checker.verifyLogin(username, password, address);
    return username === 'api' ? this.#verifyKey(password, address) : this.#verifyPassword(username, password, address);
  }

  /** Hashes a new password, within the same concurrency bound as verifying. */
  hashPassword(password: string): Promise<string> {
    if (this.#checker) return this.#checker.hashPassword(password);
    return this.#hashes.run(() => hashSecret(password, this.#scrypt));
  }

  /** Forgets cached credentials (after a key is revoked or a password changes), everywhere. */
  forget(): void {
    this.forgetLocally();
    this.#onForget?.();
  }

  /** Forgets this process's cached credentials only (another process already changed them). */
  forgetLocally(): void {
    this.#generation++;
    this.#cache.clear();
  }

  /** Checks a credentials header afresh (no cache): throttled, hash-bounded. */
  async verifyHeader(header: string, address: string): Promise<AuthUser> {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (bearer) return this.#verifyKey(bearer[1]!, address);
    const [username, password] = decodeBasic(header);
    return username === 'api' ? this.#verifyKey(password, address) : this.#verifyPassword(username, password, address);
  }

  async #verifyPassword(username: string, password: string, address: string): Promise<AuthUser> {
    // Refused before any hashing, and alike for every name but the break-glass ones (which are
    // configuration, not secrets), so the answer tells nothing about which users exist.
    if (this.#passwordSignIn && !this.#passwordSignIn.onlyFor.has(username)) throw new ForbiddenError(this.#passwordSignIn.refusal);
    this.#throttle.check(username, address);
    const user = await this.#store.accounts.getUser(username);
    // Unknown users and users without a password cost the same scrypt work as a wrong password.
    const stored = user?.passwordHash ?? this.#dummyHash;
    const ok = await this.#hashes.run(() => verifySecret(password, stored));
    if (!user?.passwordHash || !ok) {
      this.#throttle.recordFailure(username, address);
      throw new UnauthorizedError('Wrong username or password');
    }
    this.#throttle.recordSuccess(username);
    if (needsRehash(user.passwordHash, this.#scrypt)) await this.#rehash(user.username, password);
    return toAuthUser(user, 'password');
  }

  /** Replaces a hash made with older parameters; a failure (e.g. the limiter is full) leaves it for the next sign-in. */
  async #rehash(username: string, password: string): Promise<void> {
    try {
      await this.#store.accounts.upsertUser({ username, passwordHash: await this.hashPassword(password) });
    } catch {
      // The old hash still verifies; try again next time.
    }
  }

  async #verifyKey(key: string, address: string): Promise<AuthUser> {
    const record = key.length === KEY_LENGTH ? await this.#store.accounts.getApiKey(key.slice(0, KEY_ID_LENGTH)) : null;
    const ok =
      record !== null &&
      record.revokedAt === null &&
      (record.keyHash.startsWith('sha256$')
        ? verifySecret(key, record.keyHash)
        : this.#hashes.run(() => verifySecret(key, record.keyHash)));
    if (!record || !(await ok)) {
      // A 40-character random key cannot be guessed, so a valid key always passes, even from an
      // address that is blocked (an SDK behind the same NAT as an attacker keeps working). Wrong
      // keys count against the address (no username: "api" is every SDK's) and get 429 once it is blocked.
      this.#throttle.recordFailure(null, address);
      this.#throttle.check(null, address);
      throw new UnauthorizedError('Unknown or revoked API key; create one with `npx weft key create --user <name>`');
    }
    // Keys stored by older versions as scrypt hashes move to SHA-256 at their first use.
    if (!record.keyHash.startsWith('sha256$')) await this.#store.accounts.updateApiKeyHash(record.keyId, fastHash(key));
    const user = await this.#store.accounts.getUser(record.username);
    if (!user) throw new UnauthorizedError('The API key belongs to a user that no longer exists');
    return { ...toAuthUser(user, 'api_key'), keyId: record.keyId };
  }
}

function toAuthUser(user: UserRecord, via: AuthUser['via']): AuthUser {
  return {
    username: user.username,
    isAdmin: user.isAdmin,
    entities: new Set(user.entities),
    roles: user.roles,
    projectRoles: user.projectRoles,
    via,
    sessionId: null,
    keyId: null,
  };
}

function decodeBasic(header: string): [string, string] {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new UnauthorizedError('Send HTTP Basic credentials (user:password or api:<key>) or `Authorization: Bearer <api key>`');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new UnauthorizedError('Malformed Basic credentials');
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** True when the user has any role in `<entity>/<project>` (may at least read it): what listings filter by. */
export function canAccessProject(user: AuthUser, projectId: string): boolean {
  return roleIn(user, projectId) !== null;
}
