/**
 * A real OpenID Connect identity provider for tests: the `oidc-provider` package on 127.0.0.1
 * (its development sign-in pages accept any login; the login is the account id), with one
 * confidential client whose redirect URIs the test sets once Weft's port is known.
 *
 * It is reached through a small front server of the test's own, which passes every request
 * through unchanged except, when `tamperNextIdToken` was called, the next token answer: its
 * ID token is re-signed with the provider's own signing key (the test generates and holds it)
 * after the given change of claims. So a wrong nonce, audience or expiry arrives with a valid
 * signature, and it is the relying party's verification that must refuse it.
 *
 * @example
 * const idp = await startTestIdp({ accounts: { 'sub-1': { preferred_username: 'carol', groups: ['acme-dev'] } } });
 * idp.redirectUris = [`${weftUrl}/weft/oidc/callback`];
 * await signInAtIdp(startUrl, 'sub-1');   // drives the login and consent pages with fetch
 * await idp.close();
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import Provider from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';

export type Claims = Record<string, unknown>;

export interface TestIdp {
  /** The issuer URL (the front server's), what WEFT_OIDC_ISSUER holds. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The client's registered redirect URIs; set before the first sign-in. */
  redirectUris: string[];
  /** Each account's claims, by account id (`sub`); editable between sign-ins (new groups, say). */
  accounts: Record<string, Claims>;
  /** The next token answer's ID token gets these claims instead, re-signed with the provider's key. */
  tamperNextIdToken(change: (claims: Claims) => Claims): void;
  /** How many answers were tampered with so far. */
  tampered: number;
  /**
   * The next redirect back to a registered redirect URI goes to `change(url)` instead, as a
   * forged or altered link would (a browser test cannot alter a request that follows a redirect).
   */
  tamperNextRedirect(change: (url: URL) => URL): void;
  close(): Promise<void>;
}

export async function startTestIdp(
  options: { accounts?: Record<string, Claims>; clientId?: string; clientSecret?: string; port?: number } = {},
): Promise<TestIdp> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `test-${randomUUID().slice(0, 8)}`;
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };

  const front = createServer();
  await listen(front, options.port);
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const idp: TestIdp = {
    issuer,
    clientId: options.clientId ?? 'weft-test',
    clientSecret: options.clientSecret ?? 'weft-test-secret-0123456789abcdef',
    redirectUris: [],
    accounts: options.accounts ?? {},
    tampered: 0,
    tamperNextIdToken: (change) => {
      tamper = change;
    },
    tamperNextRedirect: (change) => {
      tamperRedirect = change;
    },
    close: async () => {
      await Promise.all([close(front), close(inner)]);
    },
  };
  let tamper: ((claims: Claims) => Claims) | null = null;
  let tamperRedirect: ((url: URL) => URL) | null = null;

  // The client is read through the adapter at each use, so redirect URIs set later count.
  class Adapter extends MemoryAdapter {
    readonly #model: string;
    constructor(model: string) {
      super(model);
      this.#model = model;
    }
    override async find(id: string) {
      if (this.#model === 'Client' && id === idp.clientId) {
        return {
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          redirect_uris: idp.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        };
      }
      return super.find(id);
    }
  }

  const provider = new Provider(issuer, {
    adapter: Adapter,
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    pkce: { required: () => true },
    // Scope claims in the ID token itself (Keycloak's, Okta's and Entra's default for groups), not only at userinfo.
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'], groups: ['groups'] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, ...(idp.accounts[id] ?? {}) }),
    }),
  });
  const inner = createServer(provider.callback());
  await listen(inner);
  const innerPort = (inner.address() as AddressInfo).port;

  front.on('request', (req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      const location = up.headers.location;
      const redirectChange = tamperRedirect;
      if (redirectChange && location && idp.redirectUris.some((uri) => location.startsWith(`${uri}?`))) {
        tamperRedirect = null;
        idp.tampered++;
        res.writeHead(up.statusCode ?? 302, { ...up.headers, location: redirectChange(new URL(location)).href });
        up.pipe(res);
        return;
      }
      const change = tamper;
      if (!change || req.method !== 'POST' || !req.url?.startsWith('/token') || up.statusCode !== 200) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      tamper = null;
      void readAll(up).then(async (text) => {
        const body = JSON.parse(text) as { id_token: string };
        const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8')) as Claims;
        body.id_token = await resign(change(claims), privateKey, kid);
        idp.tampered++;
        const headers = { ...up.headers };
        delete headers['content-length'];
        res.writeHead(200, headers);
        res.end(JSON.stringify(body));
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return idp;
}

async function resign(claims: Claims, key: KeyObject, kid: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}

/**
 * Follows a sign-in from Weft's `/weft/oidc/start` through the provider's login and consent pages
 * as a browser would (cookies kept per origin, forms posted), until the provider redirects back
 * to Weft's callback; answers that callback URL and the cookies Weft set on the way.
 */
export async function signInAtIdp(
  startUrl: string,
  login: string,
  cookies: CookieJar = new CookieJar(),
): Promise<{ callbackUrl: string; cookies: CookieJar }> {
  const weftOrigin = new URL(startUrl).origin;
  let url = startUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), cookie: cookies.header(url) } });
    cookies.take(url, res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (new URL(next).origin === weftOrigin && new URL(next).pathname === '/weft/oidc/callback') return { callbackUrl: next, cookies };
      url = next;
      init = {};
      continue;
    }
    const html = await res.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`The identity provider answered ${res.status} without a form at ${url}:\n${html.slice(0, 500)}`);
    const fields = new URLSearchParams();
    for (const m of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields.set(m[1]!, m[2]!);
    if (fields.get('prompt') === 'login') {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    url = new URL(form[1]!, url).href;
    init = { method: 'POST', body: fields.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('The sign-in did not come back to Weft within 20 steps');
}

/** Just enough of a browser's cookie store: one jar per origin, names to values, no expiry. */
export class CookieJar {
  readonly #byOrigin = new Map<string, Map<string, string>>();

  take(url: string, res: Response): void {
    const origin = new URL(url).origin;
    const jar = this.#byOrigin.get(origin) ?? new Map<string, string>();
    this.#byOrigin.set(origin, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string): string {
    return [...(this.#byOrigin.get(new URL(url).origin) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(url: string, name: string): string | undefined {
    return this.#byOrigin.get(new URL(url).origin)?.get(name);
  }

  set(url: string, name: string, value: string): void {
    const origin = new URL(url).origin;
    const jar = this.#byOrigin.get(origin) ?? new Map<string, string>();
    this.#byOrigin.set(origin, jar);
    jar.set(name, value);
  }
}

function readAll(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

const listen = (server: Server, port = 0) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
