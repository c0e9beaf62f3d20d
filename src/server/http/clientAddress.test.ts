/**
 * The client address behind a reverse proxy (WEFT_TRUSTED_PROXIES), over real HTTP: without
 * trusted proxies X-Forwarded-For is ignored (a client cannot pick a fresh address per guess);
 * with the peer trusted, the rightmost untrusted hop is the client, for the login throttle and
 * for the address a session records.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';
import { basic, rawRequest } from '../testing/rawHttp.js';
import { TrustedProxies } from './clientAddress.js';

const THROTTLE = { WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS: '3', WEFT_LOGIN_MAX_FAILURES_PER_USER: '1000', WEFT_LOGIN_WINDOW_SECONDS: '600' };

const whoami = (url: string, authorization: string, forwardedFor?: string) =>
  rawRequest(`${url}/weft/whoami`, { headers: { authorization, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });

/** Signs in as alice through the dashboard endpoint and lists her sessions' addresses. */
async function sessionAddress(url: string, password: string, forwardedFor: string): Promise<string> {
  const login = await rawRequest(`${url}/weft/session`, {
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ username: 'alice', password }),
  });
  expect(login.status).toBe(200);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const list = await rawRequest(`${url}/weft/sessions`, { headers: { cookie } });
  expect(list.status).toBe(200);
  return list.json.sessions.at(-1).address;
}

describe('without trusted proxies', () => {
  const t = useTestServer({ env: THROTTLE });

  it('ignores X-Forwarded-For: guesses under changing forwarded addresses count against the one peer', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await whoami(t.url, basic(`nobody-${i}`, 'wrong'), `203.0.113.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('records the peer address on a session, not the forwarded one', async () => {
    // The previous test blocked 127.0.0.1 for passwords; sign in from another loopback address.
    const login = await rawRequest(`${t.url}/weft/session`, {
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
      body: JSON.stringify({ username: 'alice', password: t.alice.password }),
      localAddress: '127.0.0.5',
    });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const list = await rawRequest(`${t.url}/weft/sessions`, { headers: { cookie } });
    expect(list.json.sessions.at(-1).address).toMatch(/127\.0\.0\.5$/);
  });
});

describe('with the proxy trusted (WEFT_TRUSTED_PROXIES)', () => {
  const t = useTestServer({ env: { ...THROTTLE, WEFT_TRUSTED_PROXIES: '127.0.0.0/8, ::1' } });

  it('throttles each forwarded client on its own, by the rightmost untrusted hop', async () => {
    const attacker = '203.0.113.7';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await whoami(t.url, basic(`guess-${i}`, 'wrong'), attacker)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Prepending a made-up address does not help: the proxy appended the real one at the right.
    expect((await whoami(t.url, basic('guess-x', 'wrong'), `10.9.9.9, ${attacker}`)).status).toBe(429);
    // A trusted hop (a second proxy) between is skipped.
    expect((await whoami(t.url, basic('guess-y', 'wrong'), `${attacker}, 127.0.0.9`)).status).toBe(429);
    // Another client behind the same proxy signs in.
    expect((await whoami(t.url, basic('alice', t.alice.password), '203.0.113.8')).status).toBe(200);
    // The proxy's own address was never blocked.
    expect((await whoami(t.url, basic('bob', t.bob.password))).status).toBe(200);
  });

  it('records the forwarded client address on a session', async () => {
    expect(await sessionAddress(t.url, t.alice.password, '198.51.100.23')).toBe('198.51.100.23');
  });
});

describe('TrustedProxies', () => {
  it('reads addresses and CIDR ranges, v4 and v6, and v4-mapped peers', () => {
    const trusted = TrustedProxies.parse('10.0.0.0/8, 192.168.1.1 fd00::/8');
    expect(trusted.trusts('10.1.2.3')).toBe(true);
    expect(trusted.trusts('::ffff:10.1.2.3')).toBe(true);
    expect(trusted.trusts('192.168.1.2')).toBe(false);
    expect(trusted.trusts('fd12::1')).toBe(true);
    expect(trusted.clientAddress('10.0.0.1', '1.1.1.1, 2.2.2.2, 10.0.0.2')).toBe('2.2.2.2');
    expect(trusted.clientAddress('8.8.8.8', '1.1.1.1')).toBe('8.8.8.8');
    // Every hop trusted: the leftmost stands for the client; a hop that is not an address is not believed.
    expect(trusted.clientAddress('10.0.0.1', '10.0.0.3, 10.0.0.2')).toBe('10.0.0.3');
    expect(trusted.clientAddress('10.0.0.1', 'evil, 10.0.0.2')).toBe('10.0.0.2');
    expect(() => TrustedProxies.parse('10.0.0.0/33')).toThrow(/CIDR/);
    expect(() => TrustedProxies.parse('proxy.local')).toThrow(/not an address/);
  });
});
