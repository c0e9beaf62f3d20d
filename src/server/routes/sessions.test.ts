/**
 * Dashboard sessions, CSRF and security headers over real HTTP: sign-in sets an HttpOnly
 * SameSite cookie whose token is stored only hashed; sessions are listed with the current one
 * marked and end by logout, by the user, by an admin, by a password change or reset, and by
 * idle and absolute expiry; cookie-authenticated writes must be same-origin; JSON endpoints
 * refuse form content types; every answer carries CSP, anti-framing, nosniff and Referrer-Policy.
 */
import { describe, expect, it } from 'vitest';
import { fastHash } from '../auth/secrets.js';
import { SessionManager } from '../auth/sessions.js';
import { basic, rawRequest, type RawResponse } from '../testing/rawHttp.js';
import { useTestServer } from '../testing/serverSuite.js';
import { ADMIN_PASSWORD, type TestServer } from '../testing/testServer.js';

const JSON_TYPE = { 'content-type': 'application/json' };

async function signIn(t: TestServer, username: string, password: string, userAgent = 'test-agent') {
  const res = await rawRequest(`${t.url}/weft/session`, {
    headers: { ...JSON_TYPE, 'user-agent': userAgent },
    body: JSON.stringify({ username, password }),
  });
  const setCookie = res.headers['set-cookie']?.[0] ?? '';
  const token = /weft_session=([^;]*)/.exec(setCookie)?.[1] ?? '';
  return { res, setCookie, token, cookie: `weft_session=${token}` };
}

const asCookie = (
  t: TestServer,
  path: string,
  cookie: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) => rawRequest(`${t.url}${path}`, { ...init, headers: { cookie, ...init.headers } });

const startCall = (project_id: string, id: string) =>
  JSON.stringify({ start: { project_id, id, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} } });

async function callCount(t: TestServer, project_id: string): Promise<number> {
  return (await t.admin.callsQueryStats({ project_id })).count;
}

/**
 * A user of their own, with alice's password (her hash copied, so no hash is computed here), for
 * tests that count a user's sessions on the shared server, where alice and bob sign in often.
 */
async function newUser(t: TestServer, username: string): Promise<{ username: string; password: string }> {
  const passwordHash = (await t.server.store.accounts.getUser('alice'))!.passwordHash;
  await t.server.store.accounts.upsertUser({ username, entities: [`${username}-co`], passwordHash });
  return { username, password: t.alice.password };
}

// One server for every test but the expiry ones (their own session settings): each server start
// hashes the admin password and boots request threads, and these tests need nothing fresh but the
// users whose sessions they count (newUser).
const t = useTestServer();

describe('POST /weft/session and DELETE /weft/session', () => {
  it('refuses a wrong password with 401 and no cookie', async () => {
    const { res, setCookie } = await signIn(t, 'alice', 'wrong-password');
    expect(res.status).toBe(401);
    expect(setCookie).toBe('');
  });

  it('sets an HttpOnly, SameSite=Lax, expiring cookie whose token is stored only as a hash', async () => {
    const { res, setCookie, token } = await signIn(t, 'alice', t.alice.password);
    expect(res.status).toBe(200);
    expect(setCookie).toMatch(/^weft_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).not.toContain('Secure'); // plain http here
    expect(res.json.user).toEqual({
      username: 'alice',
      is_admin: false,
      entities: ['alice-co'],
      roles: { 'alice-co': 'member' },
      project_roles: {},
      default_entity: 'alice-co',
      auth: 'session',
    });
    expect(res.json.session).toMatchObject({ username: 'alice', user_agent: 'test-agent', address: '127.0.0.1', current: true });
    expect(res.text).not.toContain(token);

    const stored = await t.server.store.accounts.listSessions('alice');
    const mine = stored.find((s) => s.sessionId === res.json.session.session_id)!;
    expect(mine.tokenHash).toBe(fastHash(token));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('authenticates requests by the cookie alone, and logout ends the session and clears the cookie', async () => {
    const { cookie } = await signIn(t, 'alice', t.alice.password);
    const me = await asCookie(t, '/weft/whoami', cookie);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: 'alice', auth: 'session' });

    const out = await asCookie(t, '/weft/session', cookie, { method: 'DELETE' });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ended: true });
    expect(out.headers['set-cookie']?.[0]).toMatch(/^weft_session=; .*Max-Age=0/);
    const after = await asCookie(t, '/weft/whoami', cookie);
    expect(after.status).toBe(401);
    expect(after.json.reason).toMatch(/session has ended/);
    // Logging out twice is harmless.
    expect((await asCookie(t, '/weft/session', cookie, { method: 'DELETE' })).json).toEqual({ ended: false });
  });

  it('signs in with an API key as user "api", keeping no key in the cookie', async () => {
    const { res, token } = await signIn(t, 'api', t.bob.apiKey);
    expect(res.status).toBe(200);
    expect(res.json.user.username).toBe('bob');
    expect(token).not.toContain(t.bob.apiKey);
  });

  it('marks Secure when served over https or told to always', () => {
    const manager = new SessionManager(t.server.store);
    expect(manager.cookie('x'.repeat(43), 'https://weft.example/weft/session')).toContain('; Secure');
    expect(manager.cookie('x'.repeat(43), 'http://127.0.0.1/weft/session')).not.toContain('Secure');
    const always = new SessionManager(t.server.store, { idleSeconds: 60, maxAgeSeconds: 60, secureCookies: 'always' });
    expect(always.cookie('x'.repeat(43), 'http://127.0.0.1/weft/session')).toContain('; Secure');
  });
});

describe('GET /weft/sessions, DELETE /weft/sessions/:id, DELETE /weft/users/:username/sessions', () => {
  it("lists the caller's sessions with the current one marked, and ends another one", async () => {
    const dora = await newUser(t, 'dora');
    const laptop = await signIn(t, dora.username, dora.password, 'laptop-browser');
    const phone = await signIn(t, dora.username, dora.password, 'phone-browser');
    const list = await asCookie(t, '/weft/sessions', laptop.cookie);
    expect(list.status).toBe(200);
    const sessions = list.json.sessions as {
      session_id: string;
      user_agent: string;
      current: boolean;
      created_at: string;
      last_seen_at: string;
    }[];
    expect(sessions.map((s) => [s.user_agent, s.current])).toEqual([
      ['laptop-browser', true],
      ['phone-browser', false],
    ]);
    expect(sessions[0]!.created_at).toMatch(/Z$/);
    expect(JSON.stringify(list.json)).not.toContain(laptop.token);

    const phoneId = sessions[1]!.session_id;
    const ended = await asCookie(t, `/weft/sessions/${phoneId}`, laptop.cookie, { method: 'DELETE' });
    expect(ended.json).toEqual({ ended: true });
    expect((await asCookie(t, '/weft/whoami', phone.cookie)).status).toBe(401);
    expect((await asCookie(t, '/weft/whoami', laptop.cookie)).status).toBe(200);
  });

  it("refuses to list or end another user's sessions unless admin; admins end all of a user's sessions", async () => {
    const alice = await signIn(t, 'alice', t.alice.password);
    const bob = await signIn(t, 'bob', t.bob.password);
    const aliceId = (await asCookie(t, '/weft/sessions', alice.cookie)).json.sessions[0].session_id;
    expect((await asCookie(t, '/weft/sessions?username=alice', bob.cookie)).status).toBe(403);
    expect((await asCookie(t, `/weft/sessions/${aliceId}`, bob.cookie, { method: 'DELETE' })).status).toBe(403);
    expect((await asCookie(t, '/weft/users/alice/sessions', bob.cookie, { method: 'DELETE' })).status).toBe(403);

    expect((await t.admin.sessionsList({ username: 'alice' })).sessions.length).toBeGreaterThan(0);
    const { num_ended } = await t.admin.userSessionsRevoke({ username: 'alice' });
    expect(num_ended).toBeGreaterThan(0);
    expect((await asCookie(t, '/weft/whoami', alice.cookie)).status).toBe(401);
    expect((await asCookie(t, '/weft/whoami', bob.cookie)).status).toBe(200);
    // API keys are separate credentials and keep working.
    expect((await t.alice.client.whoami({})).username).toBe('alice');
  });
});

describe('POST /weft/password and PUT /weft/users/:username/password', () => {
  it('changes your password after checking the current one, ending your other sessions', async () => {
    await newUser(t, 'carol');
    const here = await signIn(t, 'carol', t.alice.password);
    const there = await signIn(t, 'carol', t.alice.password);
    const change = (current: string) =>
      asCookie(t, '/weft/password', here.cookie, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ current_password: current, new_password: 'carol-new-password' }),
      });
    const wrong = await change('not-it');
    expect(wrong.status).toBe(400);
    expect(wrong.json.reason).toMatch(/current password is wrong/);
    expect((await asCookie(t, '/weft/whoami', there.cookie)).status).toBe(200);

    const ok = await change(t.alice.password);
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ num_sessions_ended: 1 });
    expect((await asCookie(t, '/weft/whoami', there.cookie)).status).toBe(401);
    expect((await asCookie(t, '/weft/whoami', here.cookie)).status).toBe(200);
    expect((await rawRequest(`${t.url}/weft/whoami`, { headers: { authorization: basic('carol', t.alice.password) } })).status).toBe(401);
    expect((await rawRequest(`${t.url}/weft/whoami`, { headers: { authorization: basic('carol', 'carol-new-password') } })).status).toBe(
      200,
    );
  });

  it("lets an admin set a user's password, ending all their sessions; nobody else may", async () => {
    const erin = await newUser(t, 'erin');
    const signedIn = await signIn(t, erin.username, erin.password);
    const alice = await signIn(t, 'alice', t.alice.password);
    const byAlice = await asCookie(t, '/weft/users/erin/password', alice.cookie, {
      method: 'PUT',
      headers: JSON_TYPE,
      body: JSON.stringify({ new_password: 'hijacked-password' }),
    });
    expect(byAlice.status).toBe(403);

    expect(await t.admin.userPasswordReset({ username: 'erin', new_password: 'erin-reset-password' })).toEqual({ num_sessions_ended: 1 });
    expect((await asCookie(t, '/weft/whoami', signedIn.cookie)).status).toBe(401);
    expect((await signIn(t, 'erin', 'erin-reset-password')).res.status).toBe(200);
    expect((await signIn(t, 'erin', erin.password)).res.status).toBe(401);
    await expect(t.admin.userPasswordReset({ username: 'nobody', new_password: 'whatever-password' })).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('session expiry', () => {
  // A clock the tests move: sessions expire by the server's clock, so no test sleeps.
  let now = Date.now() * 1000;
  const clock = { nowMicros: () => now };
  const advanceSeconds = (s: number) => void (now += s * 1e6);
  const idle = useTestServer({ env: { WEFT_SESSION_IDLE_SECONDS: '60' }, clock });
  const absolute = useTestServer({ env: { WEFT_SESSION_MAX_AGE_SECONDS: '60' }, clock });

  it('ends a session left idle longer than WEFT_SESSION_IDLE_SECONDS', async () => {
    const { cookie } = await signIn(idle, 'alice', idle.alice.password);
    advanceSeconds(59);
    expect((await asCookie(idle, '/weft/whoami', cookie)).status).toBe(200);
    advanceSeconds(59); // 118 s after sign-in, but only 59 s idle: still alive
    expect((await asCookie(idle, '/weft/whoami', cookie)).status).toBe(200);
    advanceSeconds(61);
    expect((await asCookie(idle, '/weft/whoami', cookie)).status).toBe(401);
  });

  it('ends a session WEFT_SESSION_MAX_AGE_SECONDS after sign-in however busy, and says so in Max-Age', async () => {
    const { cookie, setCookie } = await signIn(absolute, 'alice', absolute.alice.password);
    expect(setCookie).toContain('Max-Age=60;');
    for (let i = 0; i < 5; i++) {
      advanceSeconds(11);
      expect((await asCookie(absolute, '/weft/whoami', cookie)).status).toBe(200);
    }
    advanceSeconds(6);
    expect((await asCookie(absolute, '/weft/whoami', cookie)).status).toBe(401);
  });
});

describe('CSRF: cross-site writes and form content types', () => {
  it('refuses a cookie-authenticated write from another site (Origin or Sec-Fetch-Site), and writes nothing', async () => {
    const project = `${t.alice.entity}/csrf-cookie`;
    const { cookie } = await signIn(t, 'alice', t.alice.password);
    const cases: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await asCookie(t, '/call/start', cookie, {
        method: 'POST',
        headers: { ...JSON_TYPE, ...headers },
        body: startCall(project, `x${i}`),
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json.reason).toMatch(/Cross-site request refused/);
    }
    expect(await callCount(t, project)).toBe(0);

    // The same request from the dashboard's own pages goes through.
    const host = new URL(t.url).host;
    const same = await asCookie(t, '/call/start', cookie, {
      method: 'POST',
      headers: { ...JSON_TYPE, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
      body: startCall(project, 'ok'),
    });
    expect(same.status).toBe(200);
    // Reads with the cookie are not checked (a top-level link from another site is a GET).
    expect((await asCookie(t, '/weft/whoami', cookie, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    expect(await callCount(t, project)).toBe(1);
  });

  it('does not apply the cookie check to Basic and Bearer requests, and refuses a cross-site sign-in', async () => {
    const project = `${t.alice.entity}/csrf-basic`;
    const res = await rawRequest(`${t.url}/call/start`, {
      headers: { ...JSON_TYPE, authorization: `Bearer ${t.alice.apiKey}`, origin: 'https://tool.example', 'sec-fetch-site': 'cross-site' },
      body: startCall(project, 'c'),
    });
    expect(res.status).toBe(200);
    const login = await rawRequest(`${t.url}/weft/session`, {
      headers: { ...JSON_TYPE, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ username: 'alice', password: t.alice.password }),
    });
    expect(login.status).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a cross-site text/plain form post that would write a call, even with credentials the browser holds', async () => {
    const project = `${t.alice.entity}/csrf-form`;
    // What <form enctype="text/plain"> sends: the browser would attach credentials it cached; here, the key itself.
    const form = await rawRequest(`${t.url}/call/start`, {
      headers: { 'content-type': 'text/plain', authorization: t.alice.authHeader, origin: 'https://evil.example' },
      body: startCall(project, 'form'),
    });
    expect(form.status).toBe(415);
    expect(form.json.reason).toMatch(/text\/plain.*refused/);
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain;charset=UTF-8']) {
      const res = await rawRequest(`${t.url}/call/start`, {
        headers: { 'content-type': type, authorization: t.alice.authHeader },
        body: startCall(project, 'f2'),
      });
      expect(res.status, type).toBe(415);
    }
    expect(await callCount(t, project)).toBe(0);

    // No Content-Type at all (the Python SDK) and application/json are read as JSON.
    expect(
      (await rawRequest(`${t.url}/call/start`, { headers: { authorization: t.alice.authHeader }, body: startCall(project, 'none') }))
        .status,
    ).toBe(200);
    expect(
      (
        await rawRequest(`${t.url}/call/start`, {
          headers: { ...JSON_TYPE, authorization: t.alice.authHeader },
          body: startCall(project, 'json'),
        })
      ).status,
    ).toBe(200);
    expect(await callCount(t, project)).toBe(2);
  });

  it('keeps multipart for the file upload and protobuf for OTLP', async () => {
    const form = new FormData();
    form.append('project_id', `${t.alice.entity}/files`);
    form.append('file', new Blob(['hello']), 'hello.txt');
    const upload = await fetch(`${t.url}/files/create`, { method: 'POST', headers: { authorization: t.alice.authHeader }, body: form });
    expect(upload.status).toBe(200);
    const otlp = await fetch(`${t.url}/otel/v1/traces?project_id=${encodeURIComponent(`${t.alice.entity}/otel`)}`, {
      method: 'POST',
      headers: { authorization: t.alice.authHeader, 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(0),
    });
    expect(otlp.status).not.toBe(415);
  });

  it('answers 401 with no Basic challenge a browser could cache', async () => {
    const res = await rawRequest(`${t.url}/call/start`, { headers: JSON_TYPE, body: startCall('alice-co/x', 'c') });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

describe('security headers', () => {
  const expectHeaders = (res: RawResponse) => {
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;| 'sha256-)/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  };

  it('are on API answers, errors and the docs page', async () => {
    expectHeaders(await rawRequest(`${t.url}/health`));
    expectHeaders(await rawRequest(`${t.url}/weft/whoami`, { headers: { authorization: basic('admin', ADMIN_PASSWORD) } }));
    expectHeaders(await rawRequest(`${t.url}/no/such/path`));
    expectHeaders(await rawRequest(`${t.url}/call/start`, { headers: JSON_TYPE, body: '{}' }));
    const docs = await rawRequest(`${t.url}/docs`);
    expectHeaders(docs);
    // The docs page's one inline script is allowed by its hash, nothing else inline.
    expect(String(docs.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });
});
