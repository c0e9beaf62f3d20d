/**
 * With request threads (the default) and without (WEFT_THREADS=0), a server gives the same
 * answers: the same middleware (security headers, same-origin check for cookie writes, content
 * types, body limits, the request limits from the environment) runs for endpoints served by a
 * thread and for those kept on the main thread (/health, the model-backed ones). Each probe is
 * sent to both servers and their answers compared.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';
import { rawRequest, type RawResponse } from '../testing/rawHttp.js';
import type { TestServer } from '../testing/testServer.js';

const SETTINGS = { WEFT_MAX_QUERY_OPERANDS: '5', WEFT_MAX_BODY_BYTES: '20000' };
const SHOWN_HEADERS = [
  'content-type',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'retry-after',
];

interface Probe {
  what: string;
  method?: string;
  path: string;
  headers?: (t: TestServer, cookie: string) => Record<string, string>;
  body?: string;
}

const alice = (t: TestServer) => ({ authorization: t.alice.authHeader });
const json = { 'content-type': 'application/json' };
const start = (id: string) =>
  JSON.stringify({ start: { project_id: 'alice-co/same', id, op_name: 'op', started_at: '2026-01-01T00:00:00Z' } });

const PROBES: Probe[] = [
  { what: '/health (main thread)', path: '/health' },
  { what: 'an unknown path', path: '/no/such/endpoint' },
  { what: 'no credentials (thread)', path: '/weft/whoami' },
  { what: 'a read (thread)', path: '/weft/whoami', headers: alice },
  { what: 'a model-backed read (main thread)', path: '/weft/providers?project_id=alice-co/same', headers: alice },
  { what: 'the docs page (its own CSP)', path: '/docs' },
  {
    what: 'a form content type on a model-backed endpoint (main thread)',
    method: 'POST',
    path: '/completions/create',
    headers: (t) => ({ ...alice(t), 'content-type': 'text/plain' }),
    body: '{}',
  },
  {
    what: 'a form content type on a thread endpoint',
    method: 'POST',
    path: '/call/start',
    headers: (t) => ({ ...alice(t), 'content-type': 'application/x-www-form-urlencoded' }),
    body: start('form'),
  },
  {
    what: 'a query past WEFT_MAX_QUERY_OPERANDS (thread)',
    method: 'POST',
    path: '/calls/query_stats',
    headers: (t) => ({ ...alice(t), ...json }),
    body: JSON.stringify({
      project_id: 'alice-co/same',
      query: { $expr: { $in: [{ $getField: 'op_name' }, [1, 2, 3, 4, 5, 6].map((n) => ({ $literal: `op${n}` }))] } },
    }),
  },
  {
    what: 'a body past WEFT_MAX_BODY_BYTES (thread)',
    method: 'POST',
    path: '/call/upsert_batch',
    headers: (t) => ({ ...alice(t), ...json }),
    body: JSON.stringify({ batch: [], padding: 'x'.repeat(30_000) }),
  },
  {
    what: 'a cross-site cookie write to a thread endpoint',
    method: 'POST',
    path: '/call/start',
    headers: (_, cookie) => ({ cookie, ...json, 'sec-fetch-site': 'cross-site' }),
    body: start('csrf'),
  },
  {
    what: 'a cross-origin cookie write to a model-backed endpoint (main thread)',
    method: 'POST',
    path: '/weft/providers',
    headers: (_, cookie) => ({ cookie, ...json, origin: 'https://evil.example' }),
    body: JSON.stringify({ project_id: 'alice-co/same', name: 'x', base_url: 'http://127.0.0.1:1', api_key: 'k' }),
  },
  {
    what: 'a same-origin cookie read (thread)',
    path: '/weft/whoami',
    headers: (_, cookie) => ({ cookie, 'sec-fetch-site': 'same-origin' }),
  },
];

/** What must be the same: status, the headers above, and the body. */
function answer(res: RawResponse) {
  const headers = Object.fromEntries(SHOWN_HEADERS.map((h) => [h, res.headers[h] ?? null]));
  return { status: res.status, headers, body: res.json ?? res.text };
}

async function signIn(t: TestServer): Promise<string> {
  const res = await rawRequest(`${t.url}/weft/session`, {
    headers: json,
    body: JSON.stringify({ username: 'alice', password: t.alice.password }),
  });
  expect(res.status).toBe(200);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

describe('the same answers with request threads on and off', () => {
  const threaded = useTestServer({ env: { ...SETTINGS, WEFT_THREADS: '1' } });
  const single = useTestServer({ env: { ...SETTINGS, WEFT_THREADS: '0' } });

  it('runs requests in threads by default, and on the main thread with WEFT_THREADS=0', () => {
    expect(threaded.server.threads).not.toBeNull();
    expect(single.server.threads).toBeNull();
  });

  it('answers every probe alike', async () => {
    const cookies = { threaded: await signIn(threaded), single: await signIn(single) };
    for (const probe of PROBES) {
      const send = (t: TestServer, cookie: string) =>
        rawRequest(`${t.url}${probe.path}`, { method: probe.method, headers: probe.headers?.(t, cookie) ?? {}, body: probe.body });
      const [a, b] = [await send(threaded, cookies.threaded), await send(single, cookies.single)];
      expect(answer(a), probe.what).toEqual(answer(b));
    }
  });

  it('applies the limits from the environment in the threads', async () => {
    const res = await rawRequest(`${threaded.url}/calls/query_stats`, {
      method: 'POST',
      headers: { ...alice(threaded), ...json },
      body: PROBES[8]!.body,
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json)).toContain('WEFT_MAX_QUERY_OPERANDS');
    const big = await rawRequest(`${threaded.url}/call/upsert_batch`, {
      method: 'POST',
      headers: { ...alice(threaded), ...json },
      body: PROBES[9]!.body,
    });
    expect(big.status).toBe(413);
    expect(big.json.reason).toContain('WEFT_MAX_BODY_BYTES');
  });
});
