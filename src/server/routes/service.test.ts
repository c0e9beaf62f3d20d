/**
 * Service endpoints over real HTTP (docs/api/core.md §3.1): health, server_info, version,
 * projects_info, geolocate, whoami, and the public OpenAPI document and docs page.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** GET without credentials. */
const anonymous = (path: string) => fetch(`${t.url}${path}`);

const startBody = (project_id: string, id: string, started_at = '2024-01-01T00:00:00Z') => ({
  start: { project_id, id, op_name: 'op', started_at, attributes: {}, inputs: {} },
});

describe('GET /health', () => {
  it('answers {"status":"ok"} without credentials', async () => {
    const res = await anonymous('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /server_info', () => {
  it('answers the minimum Python SDK version and the server version (a semver), publicly', async () => {
    const res = await anonymous('/server_info');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { min_required_weave_python_version: string; trace_server_version: string | null };
    expect(Object.keys(body).sort()).toEqual(['min_required_weave_python_version', 'trace_server_version']);
    expect(body.min_required_weave_python_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.trace_server_version).toBe(PACKAGE_VERSION);
    expect(body.trace_server_version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('GET /version', () => {
  it("answers Weft's name and package version, publicly", async () => {
    const res = await anonymous('/version');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: PACKAGE_VERSION, name: 'weft' });
  });
});

describe('GET /openapi.json and /docs', () => {
  it('serves an OpenAPI 3.1 document covering every endpoint, without credentials', async () => {
    const res = await anonymous('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { operationId: string; security?: unknown[]; requestBody?: unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(PACKAGE_VERSION);
    for (const [name, e] of Object.entries(endpoints)) {
      const op = doc.paths[e.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[e.method.toLowerCase()];
      expect(op?.operationId, `${e.method} ${e.path}`).toBe(name);
    }
    expect(doc.paths['/health']?.get?.security).toEqual([]);
    expect(doc.paths['/call/start']?.post?.security).toBeUndefined();
    expect(doc.paths['/call/start']?.post?.requestBody).toBeDefined();
  });

  it('serves the docs page as HTML without credentials', async () => {
    const res = await anonymous('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('/openapi.json');
  });
});

describe('POST /service/projects_info', () => {
  let aliceA: string;
  let aliceB: string;
  let bobP: string;
  beforeAll(async () => {
    aliceA = `${t.alice.entity}/info-a`;
    aliceB = `${t.alice.entity}/info-b`;
    bobP = `${t.bob.entity}/info-bob`;
    await t.alice.client.callUpsertBatch({
      batch: [
        { mode: 'start', req: startBody(aliceA, 'a1', '2024-01-01T00:00:00Z') },
        { mode: 'start', req: startBody(aliceA, 'a2', '2024-03-01T12:00:00.5Z') },
        { mode: 'start', req: startBody(aliceA, 'a3', '2024-02-01T00:00:00Z') },
        { mode: 'start', req: { start: { ...startBody(aliceA, 'a3-kid', '2024-02-01T00:00:01Z').start, parent_id: 'a3' } } },
        { mode: 'start', req: startBody(aliceB, 'b1', '2023-06-01T00:00:00Z') },
        // An end without its start does not count as a call.
        { mode: 'end', req: { end: { project_id: aliceB, id: 'orphan', ended_at: '2025-01-01T00:00:00Z', summary: {} } } },
      ],
    });
    await t.alice.client.callUpdate({ project_id: aliceA, call_id: 'a3', display_name: 'renamed' });
    await t.alice.client.callsDelete({ project_id: aliceA, call_ids: ['a3'] });
    await t.bob.client.callStart(startBody(bobP, 'x', '2024-05-05T00:00:00Z'));
  });

  it("lists the caller's projects with call counts (deleted and end-only calls excluded) and last activity", async () => {
    const res = await t.alice.client.projectsInfo({});
    const byId = Object.fromEntries(res.map((p) => [p.external_project_id, p]));
    expect(byId[aliceA]).toEqual({
      external_project_id: aliceA,
      internal_project_id: aliceA,
      entity: 'alice-co',
      project: 'info-a',
      call_count: 2,
      last_activity: '2024-03-01T12:00:00.500000Z',
    });
    expect(byId[aliceB]).toMatchObject({ call_count: 1, last_activity: '2023-06-01T00:00:00Z' });
    expect(res.every((p) => p.entity === 'alice-co')).toBe(true);
    expect(byId[bobP]).toBeUndefined();
  });

  it('limits the answer to the requested project ids, silently dropping foreign ones', async () => {
    const res = await t.alice.client.projectsInfo({ project_ids: [aliceB, bobP, `${t.alice.entity}/never-written`] });
    expect(res.map((p) => p.external_project_id)).toEqual([aliceB]);
  });

  it('answers [] for an empty project_ids list and treats null as absent', async () => {
    expect(await t.alice.client.projectsInfo({ project_ids: [] })).toEqual([]);
    const res = await t.fetch('/service/projects_info', { json: { project_ids: null } });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { external_project_id: string }[]).map((p) => p.external_project_id);
    expect(ids).toEqual(expect.arrayContaining([aliceA, aliceB]));
  });

  it("shows bob only bob's projects, and an admin every project", async () => {
    const bobs = await t.bob.client.projectsInfo({});
    expect(bobs.map((p) => p.external_project_id)).toEqual([bobP]);
    expect(bobs[0]).toMatchObject({ entity: 'bob-co', project: 'info-bob', call_count: 1, last_activity: '2024-05-05T00:00:00Z' });
    const all = (await t.admin.projectsInfo({})).map((p) => p.external_project_id);
    expect(all).toEqual(expect.arrayContaining([aliceA, aliceB, bobP]));
  });

  it('orders projects by last activity, newest first', async () => {
    const res = await t.alice.client.projectsInfo({ project_ids: [aliceB, aliceA] });
    expect(res.map((p) => p.external_project_id)).toEqual([aliceA, aliceB]);
  });

  it('422s a malformed project id', async () => {
    const res = await t.fetch('/service/projects_info', { json: { project_ids: ['no-slash'] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body', 'project_ids', 0]);
  });

  it('requires credentials', async () => {
    const res = await fetch(`${t.url}/service/projects_info`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('GET /geolocate', () => {
  it("reports the caller's address and its network class, offline (no location)", async () => {
    const res = await t.fetch('/geolocate');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ip: '127.0.0.1', location: null, allowed: false, network: 'loopback' });
  });

  it('classifies an address given as ?ip=', async () => {
    const cases: [string, string][] = [
      ['8.8.8.8', 'public'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.0.5', 'link-local'],
      ['::1', 'loopback'],
      ['fe80::1', 'link-local'],
      ['fd00::1', 'private'],
      ['2001:4860:4860::8888', 'public'],
      ['::ffff:10.0.0.1', 'private'],
      ['not-an-ip', 'invalid'],
    ];
    for (const [ip, network] of cases) {
      const res = await t.fetch(`/geolocate?ip=${encodeURIComponent(ip)}`);
      expect(res.status, ip).toBe(200);
      const body = (await res.json()) as { ip: string; network: string; location: unknown };
      expect(body.network, ip).toBe(network);
      expect(body.location).toBeNull();
    }
    const mapped = (await (await t.fetch('/geolocate?ip=%3A%3Affff%3A10.0.0.1')).json()) as { ip: string };
    expect(mapped.ip).toBe('10.0.0.1');
  });

  it('requires credentials', async () => {
    expect((await anonymous('/geolocate')).status).toBe(401);
  });
});

describe('GET /weft/whoami', () => {
  it('describes the caller: user, admin flag, entities, and how they logged in', async () => {
    expect(await t.alice.client.whoami({})).toEqual({
      username: 'alice',
      is_admin: false,
      entities: ['alice-co'],
      roles: { 'alice-co': 'member' },
      project_roles: {},
      default_entity: 'alice-co',
      auth: 'api_key',
    });
    expect(await t.bob.client.whoami({})).toEqual({
      username: 'bob',
      is_admin: false,
      entities: ['bob-co'],
      roles: { 'bob-co': 'member' },
      project_roles: {},
      default_entity: 'bob-co',
      auth: 'api_key',
    });
    const bobByPassword = t.clientAs({ username: 'bob', password: t.bob.password });
    expect(await bobByPassword.whoami({})).toMatchObject({ username: 'bob', auth: 'password' });
    expect(await t.admin.whoami({})).toEqual({
      username: 'admin',
      is_admin: true,
      entities: [],
      roles: {},
      project_roles: {},
      default_entity: 'admin',
      auth: 'password',
    });
  });

  it('lists every entity of a user with several, sorted', async () => {
    await t.server.store.accounts.upsertUser({
      username: 'carol',
      entities: ['zeta-co', 'beta-co', 'gamma-co'],
      passwordHash: await hashSecret('carol-pw', TEST_SCRYPT),
    });
    const carol = t.clientAs({ username: 'carol', password: 'carol-pw' });
    expect(await carol.whoami({})).toEqual({
      username: 'carol',
      is_admin: false,
      entities: ['beta-co', 'gamma-co', 'zeta-co'],
      roles: { 'beta-co': 'member', 'gamma-co': 'member', 'zeta-co': 'member' },
      project_roles: {},
      default_entity: 'zeta-co', // the first one given, not the first in order
      auth: 'password',
    });
  });

  it('requires credentials', async () => {
    const res = await anonymous('/weft/whoami');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});
