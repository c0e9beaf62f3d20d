/**
 * Single sign-on over real HTTP against a real OpenID Connect provider (oidc-provider on
 * 127.0.0.1, testing/oidcIdp.ts): first sign-in creates the user with the mapped roles and a
 * working session, later ones reuse it and follow the groups, and every forged or wrong answer
 * (tampered state or cookie, wrong nonce, expired or foreign ID token) is refused with a page.
 * WEFT_OIDC_ONLY refuses passwords except for the break-glass users; API keys keep working.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, signInAtIdp, startTestIdp, type TestIdp } from '../testing/oidcIdp.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';

const ROLE_MAP = 'acme-admins=acme:admin,acme-dev=acme:member,acme-support=acme/support:annotator';

function oidcEnv(idp: TestIdp, extra: Record<string, string> = {}): Record<string, string> {
  return {
    WEFT_OIDC_ISSUER: idp.issuer,
    WEFT_OIDC_CLIENT_ID: idp.clientId,
    WEFT_OIDC_CLIENT_SECRET: idp.clientSecret,
    WEFT_OIDC_NAME: 'Acme ID',
    WEFT_OIDC_SCOPES: 'openid email profile groups',
    WEFT_OIDC_ROLES_CLAIM: 'groups',
    WEFT_OIDC_ROLE_MAP: ROLE_MAP,
    ...extra,
  };
}

/** Signs `login` in from /weft/oidc/start through the provider, then calls Weft's callback (optionally altered). */
async function signIn(t: TestServer, login: string, alter: (callback: URL, jar: CookieJar) => void = () => {}) {
  const { callbackUrl, cookies } = await signInAtIdp(`${t.url}/weft/oidc/start?return_to=%2Facme%2Fsupport%2Fcalls`, login);
  const callback = new URL(callbackUrl);
  alter(callback, cookies);
  const res = await fetch(callback, { redirect: 'manual', headers: { cookie: cookies.header(callback.href) } });
  cookies.take(callback.href, res);
  const session = cookies.get(t.url, 'weft_session');
  return { res, html: res.headers.get('content-type')?.startsWith('text/html') ? await res.text() : '', session };
}

async function whoami(t: TestServer, session: string) {
  const res = await fetch(`${t.url}/weft/whoami`, { headers: { cookie: `weft_session=${session}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { username: string; roles: Record<string, string>; project_roles: Record<string, string>; auth: string };
}

describe('single sign-on with OpenID Connect', () => {
  let idp: TestIdp;
  let t: TestServer;
  beforeAll(async () => {
    idp = await startTestIdp({
      accounts: {
        'sub-carol': {
          preferred_username: 'carol.smith',
          email: 'carol@acme.test',
          email_verified: true,
          groups: ['acme-dev', 'acme-support'],
        },
        'sub-other-carol': { preferred_username: 'Carol.Smith@acme.test', groups: ['acme-dev'] },
        'sub-nobody': { preferred_username: 'nobody', groups: ['marketing'] },
      },
    });
    t = await startTestServer({ env: oidcEnv(idp) });
    idp.redirectUris = [`${t.url}/weft/oidc/callback`];
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('tells the login page that single sign-on is on, and its name', async () => {
    const res = await fetch(`${t.url}/weft/oidc/config`);
    expect(await res.json()).toEqual({
      enabled: true,
      name: 'Acme ID',
      available: true,
      unavailable_reason: null,
      password_sign_in: 'everyone',
    });
  });

  it('starts the code flow with PKCE S256, state and nonce, in a sealed HttpOnly Lax cookie', async () => {
    const res = await fetch(`${t.url}/weft/oidc/start`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get('location')!);
    expect(target.origin).toBe(idp.issuer);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      client_id: idp.clientId,
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: `${t.url}/weft/oidc/callback`,
      scope: 'openid email profile groups',
    });
    expect(target.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(target.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^weft_oidc=v1\.[\w.-]+; Path=\/weft\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // Sealed: neither the state, the nonce nor the verifier can be read from it.
    expect(cookie).not.toContain(target.searchParams.get('state')!);
  });

  it('creates the user on first sign-in with the mapped roles, and a working session', async () => {
    const { res, session } = await signIn(t, 'sub-carol');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/acme/support/calls');
    expect(session).toBeTruthy();
    const me = await whoami(t, session!);
    expect(me).toMatchObject({
      username: 'carol.smith',
      auth: 'session',
      roles: { acme: 'member' },
      project_roles: { 'acme/support': 'annotator' },
    });
    const stored = await t.server.store.identities.listIdentities('carol.smith');
    expect(stored).toMatchObject([{ issuer: idp.issuer, subject: 'sub-carol', email: 'carol@acme.test', emailVerified: true }]);
    // The session is a dashboard session like a password one: listed, and it can sign out.
    const sessions = await fetch(`${t.url}/weft/sessions`, { headers: { cookie: `weft_session=${session}` } });
    expect(((await sessions.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  it('reuses the user on the next sign-in and follows the groups, leaving manual grants alone', async () => {
    await t.server.store.accounts.setRole('carol.smith', 'beta', 'viewer');
    idp.accounts['sub-carol']!.groups = ['acme-admins'];
    const { res, session } = await signIn(t, 'sub-carol');
    expect(res.status).toBe(303);
    const me = await whoami(t, session!);
    expect(me.username).toBe('carol.smith');
    expect(me.roles).toEqual({ acme: 'admin', beta: 'viewer' });
    expect(me.project_roles).toEqual({});
    expect((await t.server.store.accounts.listUsers()).filter((u) => u.username.startsWith('carol'))).toHaveLength(1);
  });

  it('gives a second person with the same name a name of their own', async () => {
    const { res, session } = await signIn(t, 'sub-other-carol');
    expect(res.status).toBe(303);
    expect((await whoami(t, session!)).username).toBe('carol.smith-2');
  });

  it('tells a person in no mapped group that they have no access, without a session', async () => {
    const { res, html, session } = await signIn(t, 'sub-nobody');
    expect(res.status).toBe(403);
    expect(html).toContain('Signed in, but you have no access yet');
    expect(html).toContain('claim &quot;groups&quot;');
    expect(html).toContain('Try again');
    expect(session).toBeUndefined();
  });

  it('refuses a tampered state with a page', async () => {
    const { res, html, session } = await signIn(t, 'sub-carol', (callback) => callback.searchParams.set('state', 'forged-state-value'));
    expect(res.status).toBe(400);
    expect(html).toContain('The sign-in answer does not match this browser');
    expect(html).toContain('href="/login"');
    expect(session).toBeUndefined();
  });

  it('refuses a tampered or missing state cookie with a page', async () => {
    const altered = await signIn(t, 'sub-carol', (callback, jar) => {
      const sealed = jar.get(callback.href, 'weft_oidc')!;
      jar.set(callback.href, 'weft_oidc', sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA'));
    });
    expect(altered.res.status).toBe(400);
    expect(altered.html).toContain('The sign-in could not be checked');
    const missing = await signIn(t, 'sub-carol', (callback, jar) => jar.set(callback.href, 'weft_oidc', ''));
    expect(missing.res.status).toBe(400);
    expect(missing.html).toContain('This sign-in was not started here, or took too long');
  });

  it('accepts an ID token the proxy re-signed unchanged, so the refusals below are for their claim alone', async () => {
    const before = idp.tampered;
    idp.tamperNextIdToken((c) => c);
    const { res, session } = await signIn(t, 'sub-carol');
    expect(idp.tampered).toBe(before + 1);
    expect(res.status).toBe(303);
    expect((await whoami(t, session!)).username).toBe('carol.smith');
  });

  for (const [what, change, claim] of [
    ['a wrong nonce', (c: Record<string, unknown>) => ({ ...c, nonce: 'not-the-nonce' }), 'nonce'],
    [
      'an expired ID token',
      (c: Record<string, unknown>) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
      'exp',
    ],
    ['an ID token for another audience', (c: Record<string, unknown>) => ({ ...c, aud: 'some-other-client' }), 'aud'],
  ] as const) {
    it(`refuses ${what}, correctly signed by the provider, with a page`, async () => {
      const before = idp.tampered;
      idp.tamperNextIdToken(change);
      const { res, html, session } = await signIn(t, 'sub-carol');
      expect(idp.tampered).toBe(before + 1);
      expect(res.status).toBe(401);
      expect(html).toContain('The identity token was refused');
      expect(html).toContain(`&quot;${claim}&quot;`);
      expect(session).toBeUndefined();
    });
  }

  it('never follows a return_to to another site', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const { callbackUrl, cookies } = await signInAtIdp(`${t.url}/weft/oidc/start?return_to=${encodeURIComponent(returnTo)}`, 'sub-carol');
      const res = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: cookies.header(callbackUrl) } });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    }
  });
});

describe('single sign-on only, linking by verified email', () => {
  let idp: TestIdp;
  let t: TestServer;
  beforeAll(async () => {
    idp = await startTestIdp({
      accounts: {
        'sub-alice': { preferred_username: 'alice.a', email: 'Alice@Acme.test', email_verified: true, groups: ['acme-dev'] },
        'sub-unverified': { preferred_username: 'mallory', email: 'alice@acme.test', email_verified: false, groups: ['acme-dev'] },
      },
    });
    t = await startTestServer({ env: oidcEnv(idp, { WEFT_OIDC_ONLY: '1', WEFT_OIDC_LINK_BY_EMAIL: '1' }) });
    idp.redirectUris = [`${t.url}/weft/oidc/callback`];
    // An administrator vouched for alice's address (`weft user email alice alice@acme.test`).
    await t.server.store.identities.upsertIdentity({
      issuer: 'weft:admin',
      subject: 'alice',
      username: 'alice',
      email: 'alice@acme.test',
      emailVerified: true,
      createdAt: 1,
      lastSignInAt: 1,
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const passwordSignIn = (username: string, password: string) =>
    fetch(`${t.url}/weft/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });

  it('says password sign-in is for the break-glass users only', async () => {
    expect(await (await fetch(`${t.url}/weft/oidc/config`)).json()).toMatchObject({ enabled: true, password_sign_in: 'break_glass' });
  });

  it('refuses password sign-in and Basic passwords but for break-glass users; API keys keep working', async () => {
    const refused = await passwordSignIn('alice', t.alice.password);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { reason: string }).reason).toContain('Sign in with Acme ID');
    const basic = await fetch(`${t.url}/weft/whoami`, {
      headers: { authorization: `Basic ${Buffer.from(`alice:${t.alice.password}`).toString('base64')}` },
    });
    expect(basic.status).toBe(403);
    expect((await passwordSignIn('admin', ADMIN_PASSWORD)).status).toBe(200);
    const key = await fetch(`${t.url}/weft/whoami`, { headers: { authorization: t.alice.authHeader } });
    expect(key.status).toBe(200);
  });

  it('links a first sign-in to the user whose verified email it is', async () => {
    const { res, session } = await signIn(t, 'sub-alice');
    expect(res.status).toBe(303);
    const me = await whoami(t, session!);
    expect(me.username).toBe('alice');
    expect(me.roles).toEqual({ 'alice-co': 'member', acme: 'member' });
  });

  it('never links on an email the provider did not verify', async () => {
    const { res, session } = await signIn(t, 'sub-unverified');
    expect(res.status).toBe(303);
    expect((await whoami(t, session!)).username).toBe('mallory');
  });
});

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('single sign-on with request threads, an unreachable issuer and a fixed clock', () => {
  let idp: TestIdp | null = null;
  let t: TestServer;
  let port: number;
  let now = Date.now() * 1000;
  beforeAll(async () => {
    port = await freePort();
    const issuer = { issuer: `http://127.0.0.1:${port}`, clientId: 'weft-test', clientSecret: 'weft-test-secret-0123456789abcdef' };
    t = await startTestServer({
      env: { ...oidcEnv(issuer as TestIdp, { WEFT_OIDC_ONLY: '1' }), WEFT_READ_THREADS: '1', WEFT_WRITE_THREADS: '1' },
      clock: { nowMicros: () => now },
    });
  });
  afterAll(async () => {
    await t.close();
    await idp?.close();
  });

  it('starts anyway, says why single sign-on is unavailable, and tries again later', async () => {
    const config = async () => (await fetch(`${t.url}/weft/oidc/config`)).json();
    expect(await config()).toMatchObject({
      enabled: true,
      available: false,
      unavailable_reason: expect.stringContaining(`127.0.0.1:${port}`),
    });
    const start = await fetch(`${t.url}/weft/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(503);
    expect(await start.text()).toContain('Single sign-on is unavailable');

    idp = await startTestIdp({ port, accounts: { 'sub-erin': { preferred_username: 'erin', groups: ['acme-dev'] } } });
    idp.redirectUris = [`${t.url}/weft/oidc/callback`];
    // Not before the retry interval: a down issuer is not asked on every page load.
    expect(await config()).toMatchObject({ available: false });
    now += 16_000_000;
    expect(await config()).toMatchObject({ available: true, unavailable_reason: null });
    const { res, session } = await signIn(t, 'sub-erin');
    expect(res.status).toBe(303);
    expect((await whoami(t, session!)).roles).toEqual({ acme: 'member' });
  });

  it('refuses a sign-in that took longer than ten minutes at the issuer', async () => {
    const { res, html } = await signIn(t, 'sub-erin', () => {
      now += 601_000_000;
    });
    expect(res.status).toBe(400);
    expect(html).toContain('This sign-in was not started here, or took too long');
  });

  it('refuses passwords in request threads too, but for the break-glass admin', async () => {
    const signInAs = (username: string, password: string) =>
      fetch(`${t.url}/weft/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
    expect((await signInAs('bob', t.bob.password)).status).toBe(403);
    expect((await signInAs('admin', ADMIN_PASSWORD)).status).toBe(200);
    expect((await fetch(`${t.url}/weft/whoami`, { headers: { authorization: t.bob.authHeader } })).status).toBe(200);
  });
});
