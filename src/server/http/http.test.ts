/**
 * Transport conventions every endpoint shares (docs/api/core.md §1), over real HTTP: HTTP Basic
 * auth (401 + WWW-Authenticate), entity isolation (403 writes nothing), admins, the FastAPI
 * 422 shape, JSON bodies with or without Content-Type, null = absent, unknown keys ignored,
 * 413 over the body limit, and JSON 404s.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../client/index.js';
import { createApiKey } from '../auth/apiKeys.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const unique = (name: string) => `${name}-${++seq}`;
const startBody = (project_id: string, id: string) => ({
  start: { project_id, id, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
});

/** Raw POST with an explicit Authorization header (or none). */
async function postAs(authorization: string | null, path: string, json: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  return fetch(`${t.url}${path}`, { method: 'POST', headers, body: JSON.stringify(json) });
}

/** Sends exactly these headers and bytes (fetch would add a Content-Type for string bodies). */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${t.url}${path}`,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function callCount(client: TestServer['admin'], project_id: string): Promise<number> {
  return (await client.callsQueryStats({ project_id })).count;
}

describe('authentication', () => {
  it('answers 401 with a {reason} and no Basic challenge when credentials are missing', async () => {
    const res = await postAs(null, '/call/read', { project_id: 'alice-co/x', id: 'c' });
    expect(res.status).toBe(401);
    // A `WWW-Authenticate: Basic` challenge would make a browser cache the password and send it
    // with cross-site form posts (CSRF); the SDKs send credentials up front and need none.
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toEqual({ reason: expect.any(String) });
  });

  it('requires credentials on every data endpoint', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/call/start', startBody('alice-co/x', 'c')],
      ['POST', '/call/end', { end: { project_id: 'alice-co/x', id: 'c', ended_at: '2024-01-01T00:00:00Z', summary: {} } }],
      ['POST', '/call/upsert_batch', { batch: [] }],
      ['POST', '/call/read', { project_id: 'alice-co/x', id: 'c' }],
      ['POST', '/call/update', { project_id: 'alice-co/x', call_id: 'c', display_name: 'n' }],
      ['POST', '/calls/delete', { project_id: 'alice-co/x', call_ids: ['c'] }],
      ['POST', '/calls/query_stats', { project_id: 'alice-co/x' }],
      ['POST', '/calls/stream_query', { project_id: 'alice-co/x' }],
      ['POST', '/service/projects_info', {}],
      ['GET', '/geolocate', undefined],
      ['GET', '/weft/whoami', undefined],
    ];
    for (const [method, path, json] of cases) {
      const res = await fetch(`${t.url}${path}`, {
        method,
        body: json === undefined ? undefined : JSON.stringify(json),
        headers: json === undefined ? {} : { 'content-type': 'application/json' },
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get('www-authenticate'), `${method} ${path}`).toBeNull();
    }
    expect(await callCount(t.admin, 'alice-co/x')).toBe(0);
  });

  it('checks credentials before validating the body', async () => {
    const res = await postAs(null, '/call/start', { nonsense: true });
    expect(res.status).toBe(401);
  });

  it('rejects a wrong password, an unknown user, a wrong Bearer key and unknown schemes', async () => {
    const bad = [
      basicAuthHeader('alice', 'wrong-password'),
      basicAuthHeader('nobody', 'alice-password'),
      basicAuthHeader('api', t.alice.password),
      `Bearer ${t.alice.password}`,
      `Digest username="alice"`,
      'Basic !!!not-base64',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
    ];
    for (const header of bad) {
      const res = await postAs(header, '/calls/query_stats', { project_id: 'alice-co/x' });
      expect(res.status, header).toBe(401);
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('rejects a wrong API key, including one that shares a real key id', async () => {
    const k = t.alice.apiKey;
    const sameIdWrongSecret = k.slice(0, 10) + (k[10] === 'a' ? 'b' : 'a') + k.slice(11);
    for (const key of [sameIdWrongSecret, 'x'.repeat(40), k.slice(0, 39), `${k}x`]) {
      const res = await postAs(basicAuthHeader('api', key), '/calls/query_stats', { project_id: 'alice-co/x' });
      expect(res.status, key).toBe(401);
    }
  });

  it('accepts a password login and an API key login for the same user', async () => {
    const byPassword = t.clientAs({ username: 'alice', password: t.alice.password });
    expect(await byPassword.whoami({})).toEqual({
      username: 'alice',
      is_admin: false,
      entities: ['alice-co'],
      roles: { 'alice-co': 'member' },
      project_roles: {},
      default_entity: 'alice-co',
      auth: 'password',
    });
    expect(await t.alice.client.whoami({})).toEqual({
      username: 'alice',
      is_admin: false,
      entities: ['alice-co'],
      roles: { 'alice-co': 'member' },
      project_roles: {},
      default_entity: 'alice-co',
      auth: 'api_key',
    });
  });

  it('rejects a revoked API key', async () => {
    const { key, keyId } = await createApiKey(t.server.store, 'alice', 'to-revoke');
    expect(await t.server.store.accounts.revokeApiKey(keyId, Date.now() * 1000)).toBe(true);
    const res = await postAs(basicAuthHeader('api', key), '/calls/query_stats', { project_id: 'alice-co/x' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ reason: expect.stringMatching(/revoked/i) });
  });

  it('accepts a second, unrevoked key of the same user', async () => {
    const { key } = await createApiKey(t.server.store, 'alice', 'second');
    const res = await postAs(basicAuthHeader('api', key), '/calls/query_stats', { project_id: 'alice-co/x' });
    expect(res.status).toBe(200);
  });

  it('serves the public endpoints without credentials, and with wrong ones', async () => {
    for (const path of ['/health', '/version', '/server_info', '/openapi.json', '/docs']) {
      expect((await fetch(`${t.url}${path}`)).status, path).toBe(200);
      const withBad = await fetch(`${t.url}${path}`, { headers: { authorization: basicAuthHeader('alice', 'wrong') } });
      expect(withBad.status, `${path} with wrong credentials`).toBe(200);
    }
  });
});

describe('entity isolation', () => {
  it("answers 403 {reason} when alice writes to bob's entity, and writes nothing", async () => {
    const project_id = `${t.bob.entity}/${unique('target')}`;
    const start = await postAs(t.alice.authHeader, '/call/start', startBody(project_id, 'c'));
    expect(start.status).toBe(403);
    expect(await start.json()).toEqual({ reason: expect.any(String) });
    const end = await postAs(t.alice.authHeader, '/call/end', {
      end: { project_id, id: 'c', ended_at: '2024-01-01T00:00:01Z', summary: {} },
    });
    expect(end.status).toBe(403);
    expect(await callCount(t.bob.client, project_id)).toBe(0);
    // Not even an empty project appears for bob (an end alone would have created it).
    expect((await t.bob.client.projectsInfo({})).map((p) => p.external_project_id)).not.toContain(project_id);
  });

  it('rejects a whole upsert_batch that touches a foreign project, writing none of its items', async () => {
    const own = `${t.alice.entity}/${unique('mixed')}`;
    const foreign = `${t.bob.entity}/${unique('mixed')}`;
    const res = await postAs(t.alice.authHeader, '/call/upsert_batch', {
      batch: [
        { mode: 'start', req: startBody(own, 'mine') },
        { mode: 'start', req: startBody(foreign, 'theirs') },
      ],
    });
    expect(res.status).toBe(403);
    expect(await callCount(t.alice.client, own)).toBe(0);
    expect(await callCount(t.bob.client, foreign)).toBe(0);
  });

  it("answers 403 on every read and change of another entity's calls and leaves them intact", async () => {
    const project_id = `${t.bob.entity}/${unique('private')}`;
    await t.bob.client.callStart(startBody(project_id, 'secret'));
    const attempts: [string, unknown][] = [
      ['/call/read', { project_id, id: 'secret' }],
      ['/calls/stream_query', { project_id }],
      ['/calls/query_stats', { project_id }],
      ['/call/update', { project_id, call_id: 'secret', display_name: 'pwned' }],
      ['/calls/delete', { project_id, call_ids: ['secret'] }],
    ];
    for (const [path, body] of attempts) {
      const res = await postAs(t.alice.authHeader, path, body);
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toEqual({ reason: expect.any(String) });
    }
    const { call } = await t.bob.client.callRead({ project_id, id: 'secret' });
    expect(call?.display_name).toBeNull();
    expect(call?.deleted_at).toBeNull();
  });

  it('lets bob in the other direction only into bob-co', async () => {
    const aliceProject = `${t.alice.entity}/${unique('a')}`;
    await t.alice.client.callStart(startBody(aliceProject, 'c'));
    const res = await postAs(t.bob.authHeader, '/call/read', { project_id: aliceProject, id: 'c' });
    expect(res.status).toBe(403);
    const own = await postAs(t.bob.authHeader, '/call/start', startBody(`${t.bob.entity}/${unique('b')}`, 'c'));
    expect(own.status).toBe(200);
  });

  it('lets an admin read and write every entity', async () => {
    const aliceProject = `${t.alice.entity}/${unique('adm')}`;
    const bobProject = `${t.bob.entity}/${unique('adm')}`;
    const elsewhere = `nobody-co/${unique('adm')}`;
    await t.alice.client.callStart(startBody(aliceProject, 'from-alice'));
    for (const project_id of [aliceProject, bobProject, elsewhere]) {
      await t.admin.callStart(startBody(project_id, 'from-admin'));
      expect((await t.admin.callRead({ project_id, id: 'from-admin' })).call?.wb_user_id).toBe('admin');
    }
    expect(await callCount(t.admin, aliceProject)).toBe(2);
    expect((await t.bob.client.callRead({ project_id: bobProject, id: 'from-admin' })).call?.id).toBe('from-admin');
    expect(await t.admin.whoami({})).toMatchObject({ username: 'admin', is_admin: true, auth: 'password' });
  });
});

describe('request bodies', () => {
  it('parses a JSON body sent without Content-Type (as the Python SDK does)', async () => {
    const project_id = `${t.alice.entity}/${unique('noct')}`;
    const res = await rawPost('/call/start', JSON.stringify(startBody(project_id, 'c')), { authorization: t.alice.authHeader });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ id: 'c', trace_id: expect.any(String) });
    expect(await callCount(t.alice.client, project_id)).toBe(1);
  });

  it('parses JSON sent with a JSON or another non-form Content-Type', async () => {
    const project_id = `${t.alice.entity}/${unique('ct')}`;
    for (const [i, type] of ['application/json', 'application/json; charset=utf-8', 'application/octet-stream'].entries()) {
      const res = await rawPost('/call/start', JSON.stringify(startBody(project_id, `c${i}`)), {
        authorization: t.alice.authHeader,
        'content-type': type,
      });
      expect(res.status, type).toBe(200);
    }
    expect(await callCount(t.alice.client, project_id)).toBe(3);
  });

  it('treats explicit nulls as absent', async () => {
    const project_id = `${t.alice.entity}/${unique('nulls')}`;
    const res = await postAs(t.alice.authHeader, '/call/start', {
      start: {
        project_id,
        id: 'c',
        op_name: 'op',
        started_at: '2024-01-01T00:00:00Z',
        display_name: null,
        trace_id: null,
        parent_id: null,
        thread_id: null,
        turn_id: null,
        attributes: null,
        inputs: null,
        otel_dump: null,
        wb_user_id: null,
        wb_run_id: null,
        wb_run_step: null,
      },
    });
    expect(res.status).toBe(200);
    const stats = await postAs(t.alice.authHeader, '/calls/query_stats', {
      project_id,
      filter: null,
      query: null,
      limit: null,
      include_total_storage_size: null,
      expand_columns: null,
    });
    expect(await stats.json()).toEqual({ count: 1, total_storage_size_bytes: null });
  });

  it('ignores unknown keys at the top level and inside nested objects', async () => {
    const project_id = `${t.alice.entity}/${unique('extra')}`;
    const start = startBody(project_id, 'c');
    const res = await postAs(t.alice.authHeader, '/call/start', {
      ...start,
      from_the_future: 1,
      start: { ...start.start, expected_digest: 'abc', brand_new: { x: 1 } },
    });
    expect(res.status).toBe(200);
    const q = await postAs(t.alice.authHeader, '/calls/stream_query', {
      project_id,
      include_usernames: true,
      filter: { call_ids: ['c'], some_new_filter: ['x'] },
    });
    expect(q.status).toBe(200);
    const rows = (await q.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.id)).toEqual(['c']);
    expect(rows[0]).not.toHaveProperty('brand_new');
  });

  it('422s invalid JSON with loc ["body"]', async () => {
    const res = await rawPost('/call/read', '{"project_id": "alice-co/x",', { authorization: t.alice.authHeader });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toEqual({ detail: [{ loc: ['body'], msg: expect.any(String), type: 'json_invalid' }] });
  });

  it('422s a JSON body that is not an object', async () => {
    for (const body of ['[]', '"text"', '42']) {
      const res = await rawPost('/call/read', body, { authorization: t.alice.authHeader });
      expect(res.status, body).toBe(422);
      expect(JSON.parse(res.body).detail[0].loc).toEqual(['body']);
    }
  });

  it('treats an empty body and a null body as no fields (422 missing, not a crash)', async () => {
    for (const body of ['', 'null']) {
      const res = await rawPost('/call/read', body, { authorization: t.alice.authHeader });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const detail = JSON.parse(res.body).detail as { loc: unknown[]; type: string }[];
      expect(detail).toContainEqual(expect.objectContaining({ loc: ['body', 'project_id'], type: 'missing' }));
      expect(detail).toContainEqual(expect.objectContaining({ loc: ['body', 'id'], type: 'missing' }));
    }
  });
});

describe('422 validation shape', () => {
  it('lists every problem as {loc, msg, type}, loc starting with "body"', async () => {
    const res = await postAs(t.alice.authHeader, '/calls/stream_query', {
      limit: 'ten',
      sort_by: [{ field: 'id', direction: 'sideways' }],
    });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: (string | number)[]; msg: string; type: string }[] };
    expect(detail.length).toBeGreaterThanOrEqual(3);
    for (const d of detail) {
      expect(d.loc[0]).toBe('body');
      expect(typeof d.msg).toBe('string');
      expect(typeof d.type).toBe('string');
    }
    const locs = detail.map((d) => d.loc);
    expect(locs).toContainEqual(['body', 'project_id']);
    expect(locs).toContainEqual(['body', 'limit']);
    expect(locs).toContainEqual(['body', 'sort_by', 0, 'direction']);
  });

  it('names a missing project_id loc ["body","project_id"] with type "missing"', async () => {
    const res = await postAs(t.alice.authHeader, '/calls/query_stats', {});
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: [{ loc: ['body', 'project_id'], msg: 'Field required', type: 'missing' }] });
  });

  it('reports a present value of the wrong type as a type error, not as missing', async () => {
    const res = await postAs(t.alice.authHeader, '/call/read', { project_id: 5, id: 'c' });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string; msg: string }[] };
    expect(detail[0]?.loc).toEqual(['body', 'project_id']);
    expect(detail[0]?.type).not.toBe('missing');
    expect(detail[0]?.type).toBe('string_type');
  });

  it('takes GET parameters from the query string, the last repeated value winning', async () => {
    const res = await t.fetch('/geolocate?ip=1.2.3.4&ip=5.6.7.8');
    // Repeated scalar keys: the last one wins, and the request succeeds.
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ip: string }).ip).toBe('5.6.7.8');
  });
});

describe('body size limit', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { WEFT_MAX_BODY_BYTES: '1000' } });
  });
  afterAll(async () => {
    await small.close();
  });

  it('answers 413 with a reason naming the limit above WEFT_MAX_BODY_BYTES and writes nothing', async () => {
    const project_id = `${small.alice.entity}/big`;
    const body = { start: { ...startBody(project_id, 'big').start, inputs: { blob: 'x'.repeat(2000) } } };
    const res = await small.fetch('/call/start', { json: body });
    expect(res.status).toBe(413);
    expect((await res.json()).reason).toMatch(/^The request body is \d+ bytes; the limit is 1000 \(WEFT_MAX_BODY_BYTES\)$/);
    expect((await small.alice.client.callsQueryStats({ project_id })).count).toBe(0);
  });

  it('answers 413 for an oversized chunked body that has no Content-Length', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ project_id: 'alice-co/x', id: 'y'.repeat(3000) }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 500) controller.enqueue(bytes.slice(i, i + 500));
        controller.close();
      },
    });
    const res = await fetch(`${small.url}/call/read`, {
      method: 'POST',
      headers: { authorization: small.alice.authHeader },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ reason: 'The request body is over 1000 bytes; the limit is 1000 (WEFT_MAX_BODY_BYTES)' });
  });

  it('accepts a body just under the limit', async () => {
    const project_id = `${small.alice.entity}/fits`;
    const res = await small.fetch('/call/start', { json: startBody(project_id, 'ok') });
    expect(res.status).toBe(200);
  });
});

describe('unknown paths', () => {
  it('answers 404 with a JSON {reason}, with or without credentials', async () => {
    for (const init of [{}, { headers: { authorization: '' } }]) {
      const res = await t.fetch('/no/such/endpoint', init);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ reason: expect.any(String) });
    }
  });

  it('answers 404 for a known path with the wrong method', async () => {
    const res = await t.fetch('/call/start');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ reason: expect.stringContaining('/call/start') });
  });
});
