/**
 * Single sign-on with an OpenID Connect issuer (docs/security/sso.md): the authorization code
 * flow with PKCE (S256), `state` and `nonce`, through `openid-client`, which also does discovery
 * and verifies the ID token (signature, issuer, audience, expiry, nonce). This module keeps what
 * the flow needs between its two requests in a sealed cookie, links the issuer's account to a
 * Weft user, applies the role map, and starts a dashboard session as password sign-in does.
 */
import * as client from 'openid-client';
import type { Role } from '../../contract/roles.js';
import { ROLES } from '../../contract/roles.js';
import type { AuditEntry, AuditTrail } from '../audit/auditTrail.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import type { Store, UserRecord } from '../store/Store.js';
import type { Authenticator } from './authenticate.js';
import { isLoopbackUrl, type OidcConfig, type RoleMapEntry } from './oidcConfig.js';
import { failurePage, type FailurePage } from './oidcPages.js';
import type { SecretBox } from './secretBox.js';

export const OIDC_STATE_COOKIE = 'weft_oidc';
export const OIDC_CALLBACK_PATH = '/weft/oidc/callback';
/** How long a started sign-in may take at the issuer (the state cookie's lifetime). */
const STATE_TTL_SECONDS = 600;
/** After a failed discovery, the next request that needs it tries again once this has passed. */
const DISCOVERY_RETRY_MICROS = 15_000_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;
/** Sealed-cookie binding, so no other sealed value of the server can be replayed as this one. */
const STATE_BINDING = 'weft oidc state v1';
/** The issuer recorded for emails an administrator vouches for (`weft user email`). */
export const ADMIN_EMAIL_ISSUER = 'weft:admin';

export interface OidcStatus {
  enabled: boolean;
  name: string | null;
  /** Discovery succeeded: the button can work. */
  available: boolean;
  /** Why it is unavailable (the issuer's discovery failed), else null. */
  unavailable_reason: string | null;
  /** `everyone`, or `break_glass` when WEFT_OIDC_ONLY keeps passwords for the break-glass users only. */
  password_sign_in: 'everyone' | 'break_glass';
}

interface StateCookie {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** Epoch µs after which the cookie is refused even if the browser still sends it. */
  expires: number;
}

interface Deps {
  config: OidcConfig;
  box: SecretBox;
  store: Store;
  authenticator: Authenticator;
  log: Logger;
  clock: Clock;
  audit: AuditTrail;
  /** The server's public URL; known only once it listens (main.ts), so read when needed. */
  publicUrl: () => string;
}

/** A refusal on the way: rendered as a page, recorded in the audit log with `reason`. */
class SignInFailure extends Error {
  constructor(
    readonly page: FailurePage,
    readonly reason: string,
    readonly username: string | null = null,
  ) {
    super(page.title);
  }
}

export class OidcSignIn {
  readonly #deps: Deps;
  #client: client.Configuration | null = null;
  #error: string | null = null;
  #lastAttempt = -Infinity;
  #discovering: Promise<void> | null = null;
  /** New users are named one at a time in this process, so two first sign-ins never share a name. */
  #naming: Promise<unknown> = Promise.resolve();

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  get config(): OidcConfig {
    return this.#deps.config;
  }

  /** Where the issuer sends people back: register this at the issuer. */
  get redirectUri(): string {
    return `${this.#deps.config.redirectBase ?? this.#deps.publicUrl()}${OIDC_CALLBACK_PATH}`;
  }

  /** One discovery attempt; a failure is kept (and logged) for the login page to show, not thrown. */
  discover(): Promise<void> {
    this.#discovering ??= this.#discover().finally(() => (this.#discovering = null));
    return this.#discovering;
  }

  async #discover(): Promise<void> {
    const { config, log } = this.#deps;
    this.#lastAttempt = this.#deps.clock.nowMicros();
    try {
      this.#client = await client.discovery(
        config.issuer,
        config.clientId,
        config.clientSecret ? { client_secret: config.clientSecret } : undefined,
        config.clientSecret ? client.ClientSecretBasic(config.clientSecret) : client.None(),
        {
          timeout: DISCOVERY_TIMEOUT_SECONDS,
          // openid-client refuses plain http; oidcConfig.ts allows it only for a loopback issuer.
          ...(config.issuer.protocol === 'http:' && isLoopbackUrl(config.issuer) ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      this.#error = null;
      log.debug(`Single sign-on: read the configuration of ${config.issuer.href}`);
    } catch (err) {
      this.#client = null;
      this.#error = `the issuer ${config.issuer.href} could not be reached or read (${describe(err)})`;
      log.warn(`Single sign-on is unavailable: ${this.#error}; trying again on the next sign-in`);
    }
  }

  /** The discovered client, retrying a failed discovery when the last try is old enough. */
  async #ready(): Promise<client.Configuration | null> {
    if (!this.#client && this.#deps.clock.nowMicros() - this.#lastAttempt >= DISCOVERY_RETRY_MICROS) await this.discover();
    return this.#client;
  }

  async status(): Promise<OidcStatus> {
    const ready = await this.#ready();
    return {
      enabled: true,
      name: this.#deps.config.name,
      available: ready !== null,
      unavailable_reason: ready ? null : this.#error,
      password_sign_in: this.#deps.config.only ? 'break_glass' : 'everyone',
    };
  }

  /** GET /weft/oidc/start: to the issuer, with PKCE, state and nonce kept in the sealed cookie. */
  async start(request: Request, returnTo: string | null | undefined, address: string): Promise<Response> {
    const oidc = await this.#ready();
    if (!oidc) {
      return this.#refuse(
        request,
        address,
        new SignInFailure(
          failurePage(
            503,
            'Single sign-on is unavailable',
            `Weft could not read ${this.#deps.config.name}'s configuration: ${this.#error}.`,
          ),
          'discovery_failed',
        ),
      );
    }
    const verifier = client.randomPKCECodeVerifier();
    const cookie: StateCookie = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      returnTo: safeReturnTo(returnTo),
      expires: this.#deps.clock.nowMicros() + STATE_TTL_SECONDS * 1e6,
    };
    const target = client.buildAuthorizationUrl(oidc, {
      redirect_uri: this.redirectUri,
      scope: this.#deps.config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: cookie.state,
      nonce: cookie.nonce,
    });
    const sealed = this.#deps.box.encrypt(JSON.stringify(cookie), STATE_BINDING);
    return new Response(null, {
      status: 302,
      headers: { location: target.href, 'set-cookie': this.#stateCookie(sealed, STATE_TTL_SECONDS, request), 'cache-control': 'no-store' },
    });
  }

  /** GET /weft/oidc/callback: verify, link, map roles, start the session, back to the dashboard. */
  async callback(request: Request, address: string, userAgent: string): Promise<Response> {
    try {
      const state = this.#readStateCookie(request);
      const oidc = await this.#ready();
      if (!oidc) {
        throw new SignInFailure(
          failurePage(
            503,
            'Single sign-on is unavailable',
            `Weft could not read ${this.#deps.config.name}'s configuration: ${this.#error}.`,
          ),
          'discovery_failed',
        );
      }
      const claims = await this.#exchange(oidc, request, state);
      const { user, created, linkedByEmail } = await this.#userFor(claims);
      const rolesChanged = await this.#applyRoleMap(user.username, claims);
      const current = (await this.#deps.store.accounts.getUser(user.username))!;
      if (!current.isAdmin && current.entities.length === 0 && Object.keys(current.projectRoles).length === 0) {
        throw new SignInFailure(this.#noMembershipPage(current.username), 'no_membership', current.username);
      }
      const { token } = await this.#deps.authenticator.sessions.create({ username: current.username, userAgent, address });
      await this.#record({
        actor: { username: current.username, keyId: null, via: 'oidc' },
        address,
        action: 'auth.sign_in',
        target: current.username,
        entity: null,
        projectId: null,
        outcome: 'success',
        details: { issuer: String(claims.iss), created, linked_by_email: linkedByEmail, roles_changed: rolesChanged },
      });
      const headers = new Headers({ location: state.returnTo, 'cache-control': 'no-store' });
      headers.append('set-cookie', this.#deps.authenticator.sessions.cookie(token, request.url));
      headers.append('set-cookie', this.#stateCookie('', 0, request));
      return new Response(null, { status: 303, headers });
    } catch (err) {
      if (err instanceof SignInFailure) return this.#refuse(request, address, err);
      this.#deps.log.error('Single sign-on callback failed', err);
      return this.#refuse(
        request,
        address,
        new SignInFailure(
          failurePage(502, 'Sign-in could not be completed', `Weft could not finish the sign-in: ${describe(err)}.`),
          'error',
        ),
      );
    }
  }

  #readStateCookie(request: Request): StateCookie {
    const raw = readCookie(request.headers.get('cookie'), OIDC_STATE_COOKIE);
    const missing = () =>
      new SignInFailure(
        failurePage(
          400,
          'This sign-in was not started here, or took too long',
          'Weft found no sign-in in progress in this browser (it lasts 10 minutes and must start and end in the same browser), so it cannot check that this answer from the identity provider is for you.',
        ),
        'state_cookie_missing',
      );
    if (!raw) throw missing();
    const opened = this.#deps.box.decrypt(raw, STATE_BINDING);
    if (opened === null) {
      throw new SignInFailure(
        failurePage(
          400,
          'The sign-in could not be checked',
          'The sign-in cookie was altered or sealed by another server, so Weft refused it.',
        ),
        'state_cookie_invalid',
      );
    }
    const state = JSON.parse(opened) as StateCookie;
    if (state.expires < this.#deps.clock.nowMicros()) throw missing();
    return state;
  }

  /** The code for tokens; openid-client checks state, PKCE, and the ID token (signature, iss, aud, exp, nonce). */
  async #exchange(oidc: client.Configuration, request: Request, state: StateCookie): Promise<client.IDToken> {
    // The URL the issuer redirected to, as registered: behind a proxy the request's own URL differs.
    const current = new URL(this.redirectUri);
    current.search = new URL(request.url).search;
    try {
      const tokens = await client.authorizationCodeGrant(oidc, current, {
        pkceCodeVerifier: state.verifier,
        expectedState: state.state,
        expectedNonce: state.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the issuer sent no ID token');
      return claims;
    } catch (err) {
      throw classify(err, this.#deps.config.name);
    }
  }

  /** The linked user; else, on a first sign-in, the user with the same verified email (when allowed) or a new one. */
  async #userFor(claims: client.IDToken): Promise<{ user: UserRecord; created: boolean; linkedByEmail: boolean }> {
    const { store, config, clock } = this.#deps;
    const issuer = String(claims.iss);
    const subject = String(claims.sub);
    const email = typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.toLowerCase() : null;
    const emailVerified = claims.email_verified === true;
    const now = clock.nowMicros();
    const link = async (username: string) =>
      store.identities.upsertIdentity({ issuer, subject, username, email, emailVerified, createdAt: now, lastSignInAt: now });

    const known = await store.identities.getIdentity(issuer, subject);
    if (known) {
      await link(known.username);
      const user = (await store.accounts.getUser(known.username)) ?? (await store.accounts.upsertUser({ username: known.username }));
      return { user, created: false, linkedByEmail: false };
    }
    if (config.linkByEmail && email && emailVerified) {
      const owners = [];
      for (const name of await store.identities.usernamesByVerifiedEmail(email)) {
        const owner = await store.accounts.getUser(name);
        if (owner) owners.push(owner);
      }
      if (owners.length > 1) {
        throw new SignInFailure(
          failurePage(
            403,
            'Your email belongs to more than one Weft user',
            `${email} is recorded for ${owners.map((o) => o.username).join(', ')}, so Weft cannot tell which one is you. An administrator can remove the address from all but one of them.`,
          ),
          'email_ambiguous',
        );
      }
      if (owners.length === 1) {
        await link(owners[0]!.username);
        return { user: owners[0]!, created: false, linkedByEmail: true };
      }
    }
    const next = this.#naming.then(async () => {
      const username = await uniqueUsername(store, usernameFrom(claims));
      const user = await store.accounts.upsertUser({ username });
      await link(username);
      return user;
    });
    this.#naming = next.catch(() => {});
    return { user: await next, created: true, linkedByEmail: false };
  }

  /**
   * Sets, changes or removes the memberships the role map governs (the scopes it names) from the
   * claim's values; memberships in other entities and projects are left as they are.
   */
  async #applyRoleMap(username: string, claims: client.IDToken): Promise<number> {
    const { rolesClaim, roleMap } = this.#deps.config;
    if (!rolesClaim) return 0;
    const desired = desiredRoles(roleMap, claimValues(claims[rolesClaim]));
    const user = (await this.#deps.store.accounts.getUser(username))!;
    let changed = 0;
    for (const [scope, role] of desired) {
      const have = scope.includes('/') ? (user.projectRoles[scope] ?? null) : (user.roles[scope] ?? null);
      if (have === role) continue;
      await this.#deps.store.accounts.setRole(username, scope, role);
      changed++;
    }
    // Another process's cached credentials would keep the old roles for up to a minute otherwise.
    if (changed) this.#deps.authenticator.forget();
    return changed;
  }

  #noMembershipPage(username: string): FailurePage {
    const { name, rolesClaim } = this.#deps.config;
    const why = rolesClaim
      ? `Your ${name} account is in none of the groups (claim "${rolesClaim}") that give access to Weft, so you have no entity or project here.`
      : 'You have no entity or project in Weft yet.';
    return failurePage(
      403,
      'Signed in, but you have no access yet',
      `${why} Ask an administrator to add you (your Weft username is "${username}"), then try again.`,
    );
  }

  async #refuse(request: Request, address: string, failure: SignInFailure): Promise<Response> {
    await this.#record({
      actor: { username: failure.username, keyId: null, via: 'oidc' },
      address,
      action: 'auth.sign_in_failed',
      target: failure.username ?? '',
      entity: null,
      projectId: null,
      outcome: failure.page.status === 403 ? 'denied' : 'failure',
      details: { reason: failure.reason, issuer: this.#deps.config.issuer.href },
    });
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    headers.append('set-cookie', this.#stateCookie('', 0, request));
    return new Response(failure.page.html, { status: failure.page.status, headers });
  }

  async #record(entry: AuditEntry): Promise<void> {
    try {
      await this.#deps.audit.record(entry);
    } catch (err) {
      this.#deps.log.error('Could not record a sign-in in the audit log', err);
    }
  }

  /** The state cookie: only sent back to /weft/oidc, HttpOnly, Lax (the issuer's redirect back is a top-level GET). */
  #stateCookie(value: string, maxAge: number, request: Request): string {
    const secure = this.#deps.authenticator.sessions.limits.secureCookies === 'always' || request.url.startsWith('https:');
    return `${OIDC_STATE_COOKIE}=${value}; Path=/weft/oidc; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  }
}

/** A claim's values as strings: a list of strings, or one string. */
export function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string');
  return [];
}

/** For every scope the map names: the highest role a matching value gives, or null (no membership). */
export function desiredRoles(map: RoleMapEntry[], values: string[]): Map<string, Role | null> {
  const have = new Set(values);
  const out = new Map<string, Role | null>();
  for (const entry of map) {
    if (!out.has(entry.scope)) out.set(entry.scope, null);
    if (!have.has(entry.value)) continue;
    const current = out.get(entry.scope) ?? null;
    if (current === null || ROLES.indexOf(entry.role) > ROLES.indexOf(current)) out.set(entry.scope, entry.role);
  }
  return out;
}

/** A username from `preferred_username`, else the email's local part, cleaned to the Username rule. */
export function usernameFrom(claims: { preferred_username?: unknown; email?: unknown; sub?: unknown }): string {
  const pick = [claims.preferred_username, claims.email].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? 'user';
  const local = pick.includes('@') ? pick.slice(0, pick.indexOf('@')) : pick;
  // Lower-cased: "Carol.Smith" and "carol.smith" must not become two look-alike users.
  const cleaned = local
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 56)
    .replace(/[._-]+$/, '');
  return cleaned === '' || cleaned === 'api' ? 'user' : cleaned;
}

/** `base`, or `base-2`, `base-3`, … when taken. */
async function uniqueUsername(store: Store, base: string): Promise<string> {
  if (!(await store.accounts.getUser(base))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!(await store.accounts.getUser(candidate))) return candidate;
  }
}

/** Only a path on this site (never `//host` or another origin) is followed after sign-in. */
export function safeReturnTo(returnTo: string | null | undefined): string {
  if (!returnTo || !returnTo.startsWith('/') || returnTo.startsWith('//') || returnTo.startsWith('/\\') || /[\r\n]/.test(returnTo))
    return '/';
  return returnTo;
}

/** What the user is told when openid-client refuses the answer (the reason goes to the audit log). */
function classify(err: unknown, name: string): SignInFailure {
  if (err instanceof SignInFailure) return err;
  type Failure = { code?: string; message?: string; cause?: unknown; error?: string; error_description?: string };
  const e = err as Failure;
  // openid-client wraps the check that failed (oauth4webapi's error, naming the claim) in a generic one.
  const inner = (e.cause && typeof e.cause === 'object' && 'message' in e.cause ? e.cause : e) as Failure;
  const message = inner.message ?? String(err);
  const claim = (inner.cause as { claim?: unknown } | undefined)?.claim;
  if (err instanceof client.AuthorizationResponseError) {
    return new SignInFailure(
      failurePage(
        403,
        `${name} did not sign you in`,
        `${name} answered "${e.error}"${e.error_description ? `: ${e.error_description}` : ''}.`,
      ),
      `idp_${e.error ?? 'error'}`,
    );
  }
  if (/"state"/.test(message)) {
    return new SignInFailure(
      failurePage(
        400,
        'The sign-in answer does not match this browser',
        "The state the identity provider sent back is not the one this browser's sign-in started with, so Weft refused it (it could be a forged or replayed link).",
      ),
      'state_mismatch',
    );
  }
  if (err instanceof client.ResponseBodyError) {
    return new SignInFailure(
      failurePage(
        401,
        `${name} refused the sign-in`,
        `${name}'s token endpoint answered "${e.error}"${e.error_description ? `: ${e.error_description}` : ''}.`,
      ),
      `token_${e.error ?? 'error'}`,
    );
  }
  if (typeof e.code === 'string' && e.code.startsWith('OAUTH_')) {
    const idToken =
      e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' || typeof claim === 'string';
    return new SignInFailure(
      failurePage(
        401,
        idToken ? 'The identity token was refused' : 'The sign-in was refused',
        `Weft could not accept ${idToken ? 'the ID token from ' : 'the answer of '}${name}: ${message}.`,
      ),
      typeof claim === 'string' ? `id_token_${claim}` : idToken ? 'id_token_invalid' : 'oauth_error',
    );
  }
  return new SignInFailure(
    failurePage(502, 'Sign-in could not be completed', `Weft could not finish the sign-in with ${name}: ${message}.`),
    'error',
  );
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
