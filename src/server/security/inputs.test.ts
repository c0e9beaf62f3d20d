/**
 * What the server takes from a request and what it will not, over HTTP against real servers
 * (docs/security/inputs.md):
 * - GraphQL `serverInfo.frontendHost` is the configured public URL or the listen address, never
 *   the request's `Host` header;
 * - entity and project names follow one rule wherever one is created (no NUL, no `..`, ...);
 * - a compressed JSON body is refused with 415, not read as if it were JSON.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/rawHttp.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  rawRequest(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: t.alice.authHeader, ...headers },
    body: JSON.stringify({ query, variables }),
  });

const start = (project_id: string) => ({
  start: { project_id, id: 'c1', op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
});

describe('GraphQL serverInfo.frontendHost', () => {
  it('answers the listen address, whatever Host the request names', async () => {
    const res = await gql('{ serverInfo { frontendHost } }', {}, { host: 'evil.example:666' });
    expect(res.status).toBe(200);
    expect(res.json.data.serverInfo.frontendHost).toBe(t.url);
  });

  it('answers WEFT_PUBLIC_URL when it is set (here with requests on the main thread)', async () => {
    const other = await startTestServer({ env: { WEFT_PUBLIC_URL: 'https://weft.example.com/', WEFT_THREADS: '0' } });
    try {
      const res = await rawRequest(`${other.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: other.alice.authHeader, host: 'evil.example' },
        body: JSON.stringify({ query: '{ serverInfo { frontendHost } }' }),
      });
      expect(res.json.data.serverInfo.frontendHost).toBe('https://weft.example.com');
    } finally {
      await other.close();
    }
  });
});

describe('entity and project names', () => {
  const BAD = ['..', '.', 'a\u0000b', 'a:b', 'a#b', 'a\\b'];

  it('upsertModel refuses a bad project or entity name and creates nothing', async () => {
    const upsert =
      'mutation U($name: String, $entity: String) { upsertModel(input: { name: $name, entityName: $entity }) { model { name } } }';
    for (const name of BAD) {
      const res = await gql(upsert, { name, entity: t.alice.entity });
      expect(res.json.data).toEqual({ upsertModel: null });
      expect(res.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(res.json.errors[0].message).toContain('not "." or ".."');
    }
    const badEntity = await gql(upsert, { name: 'fine', entity: '..' });
    expect(badEntity.json.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(badEntity.json.errors[0].message).toMatch(/entity name must be/);
    const projects = await t.alice.client.projectsInfo({});
    expect(projects.map((p) => p.project).filter((p) => BAD.includes(p) || p === 'fine')).toEqual([]);
  });

  it('every write refuses a bad project_id with 422 saying the rule', async () => {
    for (const name of BAD) {
      const res = await t.fetch('/call/start', { json: start(`${t.alice.entity}/${name}`) });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain('not \\".\\" or \\"..\\"');
    }
    // An entity part is held to the same rule (the access check would otherwise answer first).
    expect((await t.fetch('/call/start', { json: start(`../${t.alice.entity}`) })).status).toBe(422);
  });

  it('a /v2/{entity}/{project} path refuses a bad name, decoded from the path', async () => {
    const v2Start = (project: string) =>
      rawRequest(`${t.url}/v2/${t.alice.entity}/${project}/call/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: t.alice.authHeader },
        body: JSON.stringify(start(`${t.alice.entity}/x`)),
      });
    for (const project of ['a%00b', 'a%3Ab', 'a%5Cb']) expect((await v2Start(project)).status).toBe(422);
    // `%2E%2E` is `..` to the URL parser, which drops the segment: no route, no project.
    expect((await v2Start('%2E%2E')).status).toBe(404);
  });

  it('OTLP refuses a bad project from the project_id header with 400', async () => {
    const res = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [] }] }] }),
      headers: { 'content-type': 'application/json', project_id: `${t.alice.entity}/..` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).reason).toContain('not "." or ".."');
  });

  it('a user cannot be created in an entity with a bad name', async () => {
    const admin = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
    const res = await t.fetch('/weft/users', {
      json: { username: 'mallory', password: 'long-enough-pw', entities: ['..'] },
      headers: { authorization: admin },
    });
    expect(res.status).toBe(422);
  });
});

describe('compressed JSON bodies', () => {
  const body = JSON.stringify(start('alice-co/zipped'));

  it('refuses gzip and deflate with 415 naming what to send', async () => {
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
    ] as const) {
      const res = await t.fetch('/call/start', {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expect(res.status).toBe(415);
      expect((await res.json()).reason).toMatch(/send the JSON uncompressed/);
    }
  });

  it('still takes an uncompressed body marked identity', async () => {
    const res = await t.fetch('/call/start', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
  });
});
