/**
 * POST /graphql under sign-in abuse answers like the rest of the API: a throttled check 429 and
 * a saturated one 503, both with Retry-After (and a GraphQL error naming the cause), never the
 * 401 that tells a client its credentials are wrong.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';
import { basic, rawRequest } from '../testing/rawHttp.js';

const QUERY = JSON.stringify({ query: 'query { viewer { username } }' });
const graphql = (url: string, authorization: string, localAddress?: string) =>
  rawRequest(`${url}/graphql`, { headers: { authorization, 'content-type': 'application/json' }, body: QUERY, localAddress });

describe('POST /graphql when sign-ins are throttled', () => {
  const t = useTestServer({ env: { WEFT_LOGIN_MAX_FAILURES_PER_USER: '2', WEFT_LOGIN_WINDOW_SECONDS: '600' } });

  it('answers 429 with Retry-After and RATE_LIMITED once the username used up its failures, even with the right password', async () => {
    expect((await graphql(t.url, basic('alice', 'wrong-1'))).status).toBe(401);
    expect((await graphql(t.url, basic('alice', 'wrong-2'))).status).toBe(401);
    const blocked = await graphql(t.url, basic('alice', t.alice.password));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json.data).toBeNull();
    expect(blocked.json.errors).toEqual([
      {
        message: expect.stringMatching(/too many failed sign-ins/i),
        extensions: { code: 'RATE_LIMITED', retry_after: expect.any(Number) },
      },
    ]);
    // An API key is not throttled by username: the SDK's start-up still works.
    expect((await graphql(t.url, t.alice.authHeader)).status).toBe(200);
  });
});

describe('POST /graphql when password checks are saturated', () => {
  const t = useTestServer({
    env: {
      WEFT_MAX_CONCURRENT_HASHES: '1',
      WEFT_HASH_QUEUE: '0',
      WEFT_LOGIN_MAX_FAILURES_PER_USER: '1000',
      WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    },
  });

  it('answers 503 with Retry-After and SERVICE_UNAVAILABLE beyond the bound', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => graphql(t.url, basic(`flood-${i}`, 'wrong'))));
    const refused = results.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 503 || r.status === 401)).toBe(true);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect(r.json.errors[0].message).toMatch(/busy/);
    }
  });
});
