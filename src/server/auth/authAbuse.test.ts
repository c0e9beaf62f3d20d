/**
 * Authentication under abuse, over real HTTP (issue: hostile input, abuse and sessions):
 * failed-login throttling per username and per address (429 + Retry-After), the same time to
 * answer for unknown and known usernames, a bounded number of concurrent password hashes (503
 * + Retry-After) that leaves cached credentials and API keys alone, OWASP scrypt parameters
 * with re-hash on login, SHA-256 API keys (old scrypt ones migrate), and Bearer keys.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';
import { ADMIN_PASSWORD } from '../testing/testServer.js';
import { basic, rawRequest } from '../testing/rawHttp.js';
import { createApiKey } from './apiKeys.js';
import { fastHash } from './secrets.js';

const whoami = (url: string, authorization: string, localAddress?: string) =>
  rawRequest(`${url}/weft/whoami`, { headers: { authorization }, localAddress });

/** A password hash as versions before the OWASP parameters stored it (N=2^14). */
function oldHash(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The server of every test but the throttling ones (their own limits): throttling out of the way,
 * and one hash at a time with one waiting, which the bounded-hashing tests need and the others,
 * sending one request at a time, do not notice. Each server start hashes the admin password and
 * boots request threads, so the file starts two, not one per describe.
 */
const t = useTestServer({
  env: {
    // The server's default scrypt cost (OWASP's), not the test servers' cheap one: the oracle, the
    // hash bound and the parameters are about that cost. The throttling server counts, so it is cheap.
    WEFT_PASSWORD_SCRYPT_N: '',
    WEFT_MAX_CONCURRENT_HASHES: '1',
    WEFT_HASH_QUEUE: '1',
    WEFT_LOGIN_MAX_FAILURES_PER_USER: '1000',
    WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
  },
});

// The throttling and oracle tests each wait on ten or more sequential password hashes (~0.6 s of
// scrypt apiece on a quiet core, several times that when another test file hashes beside them):
// a generous bound on a hang, not a timing.
const HASH_BOUND_TESTS = { timeout: 180_000 };

describe('failed-login throttling', HASH_BOUND_TESTS, () => {
  // A fixed clock: credentials verified before a test's guessing stay cached (one minute by the
  // server's clock) however long the guesses' hashes take on a loaded machine.
  const fixed = Date.now() * 1000;
  const throttled = useTestServer({
    env: { WEFT_LOGIN_MAX_FAILURES_PER_USER: '4', WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS: '9', WEFT_LOGIN_WINDOW_SECONDS: '600' },
    clock: { nowMicros: () => fixed },
  });

  it('answers 429 with Retry-After once a username has used up its failures, even for the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await whoami(throttled.url, basic('alice', `wrong-${i}`))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);

    const blocked = await whoami(throttled.url, basic('alice', throttled.alice.password));
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(blocked.json.reason).toMatch(/too many failed sign-ins/i);

    // The same username from another address is still blocked: the count is per username.
    expect((await whoami(throttled.url, basic('alice', throttled.alice.password), '127.0.0.2')).status).toBe(429);
    // Others sign in: bob with his password, alice's API key (keys are not throttled by username).
    expect((await whoami(throttled.url, basic('bob', throttled.bob.password))).status).toBe(200);
    expect((await whoami(throttled.url, throttled.alice.authHeader)).status).toBe(200);
    // Sign-in through the dashboard's endpoint is the same wall.
    const login = await rawRequest(`${throttled.url}/weft/session`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: throttled.alice.password }),
    });
    expect(login.status).toBe(429);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('answers 429 to an address guessing across usernames, while other addresses sign in', async () => {
    const from = '127.0.0.3';
    // bob's credentials verified (and cached) before the guessing starts.
    expect((await whoami(throttled.url, basic('bob', throttled.bob.password))).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await whoami(throttled.url, basic(`guess-${i}`, 'password'), from)).status);
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(statuses[9]).toBe(429);
    // A right password not yet verified is refused at that address too (the address is the wall),
    // and so are API keys that are wrong; a fresh address is unaffected.
    expect((await whoami(throttled.url, basic('admin', ADMIN_PASSWORD), from)).status).toBe(429);
    expect((await whoami(throttled.url, basic('api', 'x'.repeat(40)), from)).status).toBe(429);
    expect((await whoami(throttled.url, basic('admin', ADMIN_PASSWORD), '127.0.0.4')).status).toBe(200);
    // Credentials verified earlier (bob, above) and valid API keys pass the wall:
    // an attack on an address or a name does not sign out people already working.
    expect((await whoami(throttled.url, basic('bob', throttled.bob.password), from)).status).toBe(200);
    expect((await whoami(throttled.url, throttled.bob.authHeader, from)).status).toBe(200);
  });
});

describe('username oracle', HASH_BOUND_TESTS, () => {
  it('takes about as long to refuse an unknown username as a known one', async () => {
    const time = async (authorization: string) => {
      const started = performance.now();
      expect((await whoami(t.url, authorization)).status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(basic('alice', `wrong-${i}`)));
      unknown.push(await time(basic(`nobody-${i}`, `wrong-${i}`)));
    }
    // Before: 0.5 ms against 43 ms (an 80x tell). Equal work makes the ratio ~1; allow 4x for a busy machine.
    const ratio = median(known) / median(unknown);
    expect(ratio, `known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`).toBeLessThan(4);
    expect(ratio).toBeGreaterThan(1 / 4);
  });
});

describe('bounded password hashing', () => {
  it('checks a burst of requests with the same new credentials once (one hash, no 503)', async () => {
    const burst = await Promise.all(Array.from({ length: 6 }, () => whoami(t.url, basic('bob', t.bob.password))));
    expect(burst.map((r) => r.status)).toEqual(Array(6).fill(200));
  });

  it('refuses hashes beyond the bound with 503 + Retry-After, while cached credentials and API keys answer at once', async () => {
    // alice signed in a moment ago: her verified credentials are cached.
    expect((await whoami(t.url, basic('alice', t.alice.password))).status).toBe(200);

    let pending = 0;
    const flood = Array.from({ length: 6 }, (_, i) => {
      pending++;
      return whoami(t.url, basic(`flood-${i}`, 'wrong')).finally(() => pending--);
    });
    // While the flood is being hashed, the cached login and an API key are answered before it ends.
    const cached = await whoami(t.url, basic('alice', t.alice.password));
    const byKey = await whoami(t.url, t.alice.authHeader);
    const pendingWhenAnswered = pending;
    const results = await Promise.all(flood);

    expect(cached.status).toBe(200);
    expect(byKey.status).toBe(200);
    expect(pendingWhenAnswered).toBeGreaterThan(0);
    const refused = results.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(4); // one hashing, one waiting, the rest refused
    expect(results.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json.reason).toMatch(/busy/);
    }
  });
});

describe('hash parameters', () => {
  it('stores passwords with scrypt at N=2^17, r=8, p=1', async () => {
    const user = await t.server.store.accounts.getUser('admin');
    expect(user!.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('re-hashes an old password hash at the current parameters on a successful login', async () => {
    await t.server.store.accounts.upsertUser({ username: 'olduser', entities: ['old-co'], passwordHash: oldHash('old-password-1') });
    expect((await whoami(t.url, basic('olduser', 'wrong'))).status).toBe(401);
    expect((await t.server.store.accounts.getUser('olduser'))!.passwordHash).toMatch(/^scrypt\$16384\$/);

    expect((await whoami(t.url, basic('olduser', 'old-password-1'))).status).toBe(200);
    const rehashed = (await t.server.store.accounts.getUser('olduser'))!.passwordHash!;
    expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
    // The new hash verifies the same password (no cache: through the sign-in endpoint).
    const login = await rawRequest(`${t.url}/weft/session`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'olduser', password: 'old-password-1' }),
    });
    expect(login.status).toBe(200);
  });

  it('stores API keys as SHA-256, and moves a key stored as scrypt to SHA-256 at its first use', async () => {
    const { key, keyId } = await createApiKey(t.server.store, 'alice', 'new');
    expect((await t.server.store.accounts.getApiKey(keyId))!.keyHash).toBe(fastHash(key));

    const legacy = 'l'.repeat(10) + randomBytes(15).toString('hex');
    await t.server.store.accounts.createApiKey({
      keyId: legacy.slice(0, 10),
      username: 'alice',
      keyHash: oldHash(legacy),
      name: 'old',
      createdAt: 1,
    });
    expect((await whoami(t.url, basic('api', legacy))).status).toBe(200);
    expect((await t.server.store.accounts.getApiKey(legacy.slice(0, 10)))!.keyHash).toBe(fastHash(legacy));
    expect((await whoami(t.url, `Bearer ${legacy}`)).status).toBe(200);
  });

  it('accepts `Authorization: Bearer <key>` wherever Basic api:<key> is accepted', async () => {
    const res = await whoami(t.url, `Bearer ${t.alice.apiKey}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ username: 'alice', auth: 'api_key' });
    const write = await rawRequest(`${t.url}/call/start`, {
      headers: { authorization: `Bearer ${t.bob.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        start: { project_id: 'bob-co/bearer', op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
      }),
    });
    expect(write.status).toBe(200);
    expect((await whoami(t.url, `Bearer ${'z'.repeat(40)}`)).status).toBe(401);
  });
});
