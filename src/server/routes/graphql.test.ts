/**
 * POST /graphql beyond the happy start-up (graphqlPython.test.ts): the npm SDK's request, how
 * every failure is answered so that each client shows its own clear message
 * (docs/api/wandb-graphql.md §7), entity access, and the `/traces` prefix of the trace routes.
 */
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import { createApiKey } from '../auth/apiKeys.js';
import { useTestServer } from '../testing/serverSuite.js';
import {
  GQL3_DEFAULT_ENTITY,
  GQL3_PROJECT,
  GQL3_UPSERT_MODEL,
  NPM_DEFAULT_ENTITY,
  basicApiKey,
  pythonHttpxHeaders,
  pythonJson,
  sendExactly,
} from '../testing/wandbClients.js';

const t = useTestServer();

const graphql = (body: unknown, authorization: string | null = t.alice.authHeader) =>
  sendExactly(`${t.url}/graphql`, {
    headers: [['Content-Type', 'application/json'], ...(authorization ? ([['Authorization', authorization]] as [string, string][]) : [])],
    body: JSON.stringify(body),
  });

const adminProjects = async () => ((await t.admin.projectsInfo({})) as { external_project_id: string }[]).map((p) => p.external_project_id);

describe('POST /graphql from the npm SDK', () => {
  it('answers DefaultEntity sent as the template literal with "variables": {}', async () => {
    const res = await sendExactly(`${t.url}/graphql`, {
      headers: [
        ['Content-Type', 'application/json'],
        ['User-Agent', 'Weave JS Client 0.11.1'],
        ['Authorization', t.alice.authHeader],
      ],
      body: JSON.stringify({ query: NPM_DEFAULT_ENTITY, variables: {} }),
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { viewer: { username: 'alice', defaultEntity: { name: 'alice-co' } } } });
  });
});

describe('POST /graphql failures', () => {
  it('answers a wrong key with 401 and a GraphQL UNAUTHENTICATED error, for every operation', async () => {
    const wrong = basicApiKey('x'.repeat(40));
    for (const body of [{ query: GQL3_DEFAULT_ENTITY }, { query: GQL3_PROJECT, variables: { entityName: 'alice-co', name: 'p' } }]) {
      const res = await sendExactly(`${t.url}/graphql`, { headers: pythonHttpxHeaders(wrong), body: pythonJson(body, true) });
      expect(res.status).toBe(401);
      expect(res.contentType).toMatch(/^application\/json/);
      expect(res.json.data).toBeNull();
      expect(res.json.errors).toEqual([{ message: expect.stringContaining('API key'), extensions: { code: 'UNAUTHENTICATED' } }]);
    }
  });

  it('answers a request without credentials with 401 and errors', async () => {
    const res = await graphql({ query: GQL3_DEFAULT_ENTITY }, null);
    expect(res.status).toBe(401);
    expect(res.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('accepts a user:password login like the rest of the API', async () => {
    const res = await graphql({ query: '{ viewer { username } }' }, `Basic ${Buffer.from('alice:alice-password').toString('base64')}`);
    expect(res.json).toEqual({ data: { viewer: { username: 'alice' } } });
  });

  it('answers an unknown field with the standard validation error and no data', async () => {
    const res = await graphql({ query: '{ viewer { username bogusField } }' });
    expect(res.status).toBe(200);
    expect(res.json.data).toBeUndefined();
    expect(res.json.errors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "bogusField" on type "User".',
        locations: [{ line: 1, column: 21 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
  });

  it('answers a syntax error and a missing required variable as GraphQL errors', async () => {
    const syntax = await graphql({ query: 'query {' });
    expect(syntax.json.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Syntax Error/),
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    const missing = await graphql({ query: GQL3_PROJECT, variables: { name: 'p' } });
    expect(missing.status).toBe(200);
    expect(missing.json.errors[0].message).toContain('$entityName');
  });

  it("refuses another team's entity with PERMISSION_ERROR and creates nothing", async () => {
    const lookup = await graphql({ query: GQL3_PROJECT, variables: { entityName: 'bob-co', name: 'secret' } });
    expect(lookup.json).toEqual({ data: { project: null } });
    const upsert = await graphql({ query: GQL3_UPSERT_MODEL, variables: { name: 'secret', entity: 'bob-co', description: null } });
    expect(upsert.status).toBe(200);
    expect(upsert.json.data).toEqual({ upsertModel: null });
    expect(upsert.json.errors).toEqual([expect.objectContaining({ path: ['upsertModel'], extensions: { code: 'PERMISSION_ERROR' } })]);
    expect(await adminProjects()).not.toContain('bob-co/secret');
    // Bob's existing project stays invisible to alice.
    await t.bob.client.callStart({
      start: { project_id: 'bob-co/real', op_name: 'x', started_at: '2026-01-01T00:00:00Z', inputs: {}, attributes: {} },
    });
    expect((await graphql({ query: GQL3_PROJECT, variables: { entityName: 'bob-co', name: 'real' } })).json.data.project).toBeNull();
  });

  it('refuses project names the trace server could not store', async () => {
    const res = await graphql({ query: GQL3_UPSERT_MODEL, variables: { name: 'a/b', entity: 'alice-co', description: null } });
    expect(res.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await adminProjects()).not.toContain('alice-co/a/b');
  });
});

describe('viewer.defaultEntity for users without entities', () => {
  it('is the username for an admin and null for anyone else', async () => {
    const admin = await graphql({ query: GQL3_DEFAULT_ENTITY }, `Basic ${Buffer.from('admin:admin-test-password').toString('base64')}`);
    expect(admin.json.data.viewer.defaultEntity).toEqual({ name: 'admin' });

    await t.server.store.accounts.upsertUser({ username: 'loner', passwordHash: await hashSecret('loner-password', TEST_SCRYPT) });
    const { key } = await createApiKey(t.server.store, 'loner');
    const loner = await graphql({ query: GQL3_DEFAULT_ENTITY }, basicApiKey(key));
    expect(loner.json).toEqual({ data: { viewer: { username: 'loner', defaultEntity: null } } });
  });
});

describe('trace-server routes under /traces', () => {
  it('serves every trace route at <base>/traces/..., with the same answers and access checks', async () => {
    expect(await (await t.fetch('/traces/server_info')).json()).toEqual(await (await t.fetch('/server_info')).json());
    const start = { project_id: 'alice-co/prefixed', op_name: 'op', started_at: '2026-01-01T00:00:00Z', inputs: {}, attributes: {} };
    expect((await t.fetch('/traces/call/start', { json: { start } })).status).toBe(200);
    const listed = await (await t.fetch('/traces/calls/query_stats', { json: { project_id: 'alice-co/prefixed' } })).json();
    expect(listed.count).toBe(1);
    const forbidden = await t.fetch('/traces/calls/query_stats', { json: { project_id: 'bob-co/real' } });
    expect(forbidden.status).toBe(403);
  });

  it("does not serve Weft's own routes or /graphql there", async () => {
    expect((await t.fetch('/traces/weft/whoami')).status).toBe(404);
    expect((await t.fetch('/traces/graphql', { json: { query: '{ viewer { id } }' } })).status).toBe(404);
  });
});
