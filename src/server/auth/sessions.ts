/**
 * Dashboard sessions: signing in creates a server-side session and hands the browser a random
 * token in a cookie; no password or key ever reaches browser storage.
 *
 * - Token: 32 random bytes (base64url). Only its SHA-256 is stored (auth/secrets.ts says why a
 *   fast hash fits random secrets), so a copy of the database cannot sign anyone in.
 * - Cookie `weft_session`: `HttpOnly` (no script reads it), `SameSite=Lax`, `Path=/`, `Secure`
 *   when the request came over https (or always, with WEFT_SECURE_COOKIES=always behind a TLS
 *   proxy). Lax, not Strict: a link to a trace pasted in chat or mail is a top-level GET from
 *   another site, and with Strict it would land on the login page. Lax still withholds the
 *   cookie from cross-site POSTs, and every cookie-authenticated write must also pass the
 *   same-origin check (http/sameOrigin.ts), so Lax costs no CSRF protection.
 * - Expiry: idle (no request for `idleSeconds`) and absolute (`maxAgeSeconds` after sign-in),
 *   both checked here on every request; the cookie's Max-Age is the absolute lifetime.
 * - Ending: logout, a password change (all the user's other sessions), an admin, or the user
 *   from Settings. Sessions are read from the store on every request, never cached, so an
 *   ended session stops working at once in every tab and every server process.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { SessionRecord, Store } from '../store/Store.js';
import { fastHash } from './secrets.js';

export const SESSION_COOKIE = 'weft_session';

export interface SessionLimits {
  /** A session unused for this long ends. */
  idleSeconds: number;
  /** A session ends this long after sign-in, however busy. */
  maxAgeSeconds: number;
  /** `auto`: Secure cookies when the request came over https; `always`: also over http (TLS ended by a proxy). */
  secureCookies: 'auto' | 'always';
}

/** Defaults: a week idle, 30 days at most. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleSeconds: 7 * 24 * 3600, maxAgeSeconds: 30 * 24 * 3600, secureCookies: 'auto' };

/** `last_seen_at` is written at most this often per session (a busy tab must not write on every request), or a tenth of the idle limit when that is shorter. */
const TOUCH_EVERY_MICROS = 60_000_000;
const USER_AGENT_MAX = 512;

export class SessionManager {
  readonly #store: Store;
  readonly limits: SessionLimits;
  readonly #clock: Clock;

  constructor(store: Store, limits: SessionLimits = DEFAULT_SESSION_LIMITS, clock: Clock = systemClock) {
    this.#store = store;
    this.limits = limits;
    this.#clock = clock;
  }

  /** Starts a session; the token goes into the cookie and nowhere else. */
  async create(req: { username: string; userAgent: string; address: string }): Promise<{ token: string; session: SessionRecord }> {
    const now = this.#clock.nowMicros();
    await this.#store.accounts.deleteExpiredSessions(now, now - this.limits.idleSeconds * 1e6);
    const token = randomBytes(32).toString('base64url');
    const session: SessionRecord = {
      sessionId: randomUUID(),
      tokenHash: fastHash(token),
      username: req.username,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.limits.maxAgeSeconds * 1e6,
      userAgent: req.userAgent.slice(0, USER_AGENT_MAX),
      address: req.address,
    };
    await this.#store.accounts.createSession(session);
    return { token, session };
  }

  /** The live session a token belongs to, or null (unknown, ended, idle too long or too old). */
  async resolve(token: string): Promise<SessionRecord | null> {
    const session = await this.#store.accounts.getSessionByTokenHash(fastHash(token));
    if (!session) return null;
    const now = this.#clock.nowMicros();
    if (session.expiresAt <= now || session.lastSeenAt + this.limits.idleSeconds * 1e6 <= now) {
      await this.#store.accounts.deleteSession(session.sessionId);
      return null;
    }
    if (now - session.lastSeenAt >= Math.min(TOUCH_EVERY_MICROS, (this.limits.idleSeconds * 1e6) / 10)) {
      await this.#store.accounts.touchSession(session.sessionId, now);
      session.lastSeenAt = now;
    }
    return session;
  }

  /** The `Set-Cookie` value carrying a new session's token. */
  cookie(token: string, requestUrl: string): string {
    return serializeCookie(token, this.limits.maxAgeSeconds, this.#secure(requestUrl));
  }

  /** The `Set-Cookie` value that removes the cookie (logout). */
  clearingCookie(requestUrl: string): string {
    return serializeCookie('', 0, this.#secure(requestUrl));
  }

  #secure(requestUrl: string): boolean {
    return this.limits.secureCookies === 'always' || requestUrl.startsWith('https:');
  }
}

function serializeCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The session token from a `Cookie` header, or null. */
export function readSessionCookie(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}
