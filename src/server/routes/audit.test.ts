/**
 * The audit log over HTTP against a real server on a real SQLite file: each recorded action
 * writes its row with the right actor and outcome, GET /weft/audit filters and pages within
 * what the caller may read, the export streams CSV and JSON lines, and no endpoint changes a
 * row. docs/security/audit.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditListRes, type AuditRow } from '../../contract/audit.js';
import { verifyAuditLog } from '../audit/auditCommands.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import type { AuthUser } from '../auth/authenticate.js';
import { auditFilterFor } from './audit.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';
import { rawRequest } from '../testing/rawHttp.js';
import { GQL3_UPSERT_MODEL } from '../testing/wandbClients.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../testing/llmFixture.js';

let t: TestServer;
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const ADMIN = basic('admin', ADMIN_PASSWORD);

async function send(path: string, init: { method?: string; json?: unknown; auth?: string } = {}) {
  const method = init.method ?? (init.json !== undefined ? 'POST' : 'GET');
  const res = await t.fetch(path, {
    method,
    headers: init.auth ? { authorization: init.auth } : {},
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** The audit rows matching a query, as the admin reads them. */
async function rows(query: Record<string, string> = {}): Promise<AuditRow[]> {
  const res = await send(`/weft/audit?${new URLSearchParams({ limit: '500', ...query })}`, { auth: ADMIN });
  expect(res.status).toBe(200);
  return AuditListRes.parse(res.body).rows;
}

/** The newest row of an action. */
async function newest(action: string): Promise<AuditRow> {
  const [row] = await rows({ action });
  expect(row, `a ${action} row`).toBeDefined();
  return row!;
}

async function signIn(username: string, password: string) {
  const res = await rawRequest(`${t.url}/weft/session`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const token = /weft_session=([^;]*)/.exec(res.headers['set-cookie']?.[0] ?? '')?.[1] ?? '';
  return { status: res.status, cookie: `weft_session=${token}`, body: res.json as any };
}

const P = 'alice-co/audited';

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await startTestServer({ env: { OPENAI_BASE_URL: fake.baseUrl, WEFT_OUTBOUND_ALLOW: '127.0.0.1' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('recorded actions', () => {
  it('a sign-in writes a success row, a wrong password a failure row naming the name tried', async () => {
    expect((await signIn('alice', 'alice-password')).status).toBe(200);
    expect(await newest('auth.sign_in')).toMatchObject({
      actor_username: 'alice',
      actor_via: 'password',
      address: '127.0.0.1',
      target: 'alice',
      outcome: 'success',
    });
    expect((await signIn('alice', 'wrong-password')).status).toBe(401);
    const failed = await newest('auth.sign_in_failed');
    expect(failed).toMatchObject({ actor_username: 'alice', target: 'alice', outcome: 'failure', details: { status: 401 } });
    expect(JSON.stringify(failed)).not.toContain('wrong-password');
  });

  it('sign-out, an ended session, a password change and reset each write their row', async () => {
    const s = await signIn('bob', 'bob-password');
    const out = await rawRequest(`${t.url}/weft/session`, { method: 'DELETE', headers: { cookie: s.cookie } });
    expect(out.status).toBe(200);
    expect(await newest('auth.sign_out')).toMatchObject({ actor_username: 'bob', actor_via: 'session', target: 'bob' });

    const s2 = await signIn('bob', 'bob-password');
    const revoked = await send(`/weft/sessions/${s2.body.session.session_id}`, { method: 'DELETE', auth: ADMIN });
    expect(revoked.status).toBe(200);
    expect(await newest('auth.session_ended')).toMatchObject({
      actor_username: 'admin',
      target: 'bob',
      details: { session_id: s2.body.session.session_id },
    });

    const reset = await send('/weft/users/bob/password', { method: 'PUT', auth: ADMIN, json: { new_password: 'bob-password-2' } });
    expect(reset.status).toBe(200);
    expect(await newest('password.set')).toMatchObject({ actor_username: 'admin', target: 'bob', details: { reset: true } });
    const changed = await send('/weft/password', {
      auth: basic('bob', 'bob-password-2'),
      json: { current_password: 'bob-password-2', new_password: 'bob-password-3' },
    });
    expect(changed.status).toBe(200);
    expect(await newest('password.set')).toMatchObject({ actor_username: 'bob', actor_via: 'password', target: 'bob' });
  });

  it('API keys created and revoked name the key id, never the key; the actor of a key request is its key id', async () => {
    const created = await send('/weft/api_keys', { json: { name: 'ci' } });
    expect(created.status).toBe(200);
    const row = await newest('key.created');
    expect(row).toMatchObject({ actor_username: 'alice', actor_via: 'api_key', target: created.body.api_key.key_id, outcome: 'success' });
    expect(row.actor_key_id).toBe(t.alice.apiKey.slice(0, row.actor_key_id!.length));
    expect(JSON.stringify(await rows())).not.toContain(created.body.key);
    expect((await send(`/weft/api_keys/${created.body.api_key.key_id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await newest('key.revoked')).toMatchObject({ actor_username: 'alice', target: created.body.api_key.key_id });
  });

  it('a user created and a default entity changed', async () => {
    const res = await send('/weft/users', { auth: ADMIN, json: { username: 'carol', password: 'carol-password', entities: ['c1', 'c2'] } });
    expect(res.status).toBe(200);
    // One row per entity joined, so each entity's admins see theirs.
    const created = (await rows({ action: 'user.created' })).filter((r) => r.target === 'carol');
    expect(created.map((r) => r.entity).sort()).toEqual(['c1', 'c2']);
    for (const r of created) expect(r).toMatchObject({ actor_username: 'admin', details: { is_admin: false, role: 'member' } });
    expect((await send('/weft/default_entity', { method: 'PUT', auth: ADMIN, json: { username: 'carol', entity: 'c2' } })).status).toBe(
      200,
    );
    expect(await newest('user.changed')).toMatchObject({ actor_username: 'admin', target: 'carol', details: { default_entity: 'c2' } });
  });

  it('a project created by the SDK start-up (upsertModel), once', async () => {
    const upsert = () =>
      send('/graphql', { json: { query: GQL3_UPSERT_MODEL, variables: { name: 'audited', entity: 'alice-co', description: null } } });
    expect((await upsert()).status).toBe(200);
    expect((await upsert()).status).toBe(200);
    const created = await rows({ action: 'project.created' });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ actor_username: 'alice', target: P, entity: 'alice-co', project_id: P });
  });

  it('deletes of calls, evaluation runs, objects, feedback and queues write counts, not contents', async () => {
    const start = (id: string) => ({
      start: { project_id: P, id, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: { secret: 'do-not-log' } },
    });
    for (const id of ['c1', 'c2']) expect((await send('/call/start', { json: start(id) })).status).toBe(200);
    expect((await send('/calls/delete', { json: { project_id: P, call_ids: ['c1', 'c2', 'nope'] } })).status).toBe(200);
    const calls = await newest('calls.deleted');
    expect(calls).toMatchObject({ actor_username: 'alice', entity: 'alice-co', project_id: P, details: { requested: 3, deleted: 2 } });

    const runs = await send('/v2/alice-co/audited/evaluation_runs?evaluation_run_ids=r1', { method: 'DELETE' });
    expect(runs.status).toBe(200);
    expect(await newest('calls.deleted')).toMatchObject({ details: { kind: 'evaluation_run', requested: 1 } });

    const obj = await send('/obj/create', { json: { obj: { project_id: P, object_id: 'cfg', val: { a: 1 } } } });
    expect(obj.status).toBe(200);
    expect((await send('/obj/delete', { json: { project_id: P, object_id: 'cfg' } })).status).toBe(200);
    expect(await newest('objects.deleted')).toMatchObject({ target: `${P}/cfg`, details: { deleted: 1 } });

    const fb = await send('/feedback/create', {
      json: { project_id: P, weave_ref: `weave:///${P}/call/c1`, feedback_type: 'note', payload: { note: 'do-not-log' } },
    });
    expect(fb.status).toBe(200);
    const purge = await send('/feedback/purge', {
      json: { project_id: P, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: fb.body.id }] } } },
    });
    expect(purge.status).toBe(200);
    expect(await newest('feedback.deleted')).toMatchObject({ project_id: P, details: { requested: 1 } });

    const queue = await send('/annotation_queues', { json: { project_id: P, name: 'review', scorer_refs: [] } });
    expect(queue.status).toBe(200);
    const queueId = queue.body.id;
    const exported = await send(`/annotation_queues/${queueId}/export`, { json: { project_id: P, format: 'csv' } });
    expect(exported.status).toBe(200);
    expect(await newest('data.exported')).toMatchObject({ target: queueId, details: { kind: 'annotation_queue', format: 'csv' } });
    expect((await send(`/annotation_queues/${queueId}?project_id=${encodeURIComponent(P)}`, { method: 'DELETE' })).status).toBe(200);
    expect(await newest('queue.deleted')).toMatchObject({ target: queueId, details: { name: 'review' } });

    expect(JSON.stringify(await rows({ project_id: P }))).not.toContain('do-not-log');
  });

  it('a calls export is recorded with its format', async () => {
    const res = await send('/weft/calls/export', { json: { project_id: P, format: 'jsonl' } });
    expect(res.status).toBe(200);
    expect(await newest('data.exported')).toMatchObject({
      actor_username: 'alice',
      target: P,
      details: { kind: 'calls', format: 'jsonl' },
    });
  });

  it('provider created, changed and deleted, never with the key', async () => {
    const created = await send('/weft/providers', {
      auth: ADMIN,
      json: { project_id: P, name: 'local', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-very-secret-abcd' },
    });
    expect(created.status).toBe(200);
    const id = created.body.provider.id;
    expect(await newest('provider.changed')).toMatchObject({ target: id, details: { change: 'created', key_set: true } });
    const updated = await send(`/weft/providers/${id}`, {
      method: 'PUT',
      auth: ADMIN,
      json: { project_id: P, name: 'local2', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-other-secret-wxyz' },
    });
    expect(updated.status).toBe(200);
    expect(await newest('provider.changed')).toMatchObject({ details: { change: 'changed', key_changed: true } });
    expect((await send(`/weft/providers/${id}?project_id=${encodeURIComponent(P)}`, { method: 'DELETE', auth: ADMIN })).status).toBe(200);
    expect(await newest('provider.changed')).toMatchObject({ details: { change: 'deleted' } });
    expect(JSON.stringify(await rows())).not.toMatch(/sk-very-secret|sk-other-secret/);
  });

  it('jobs started: an evaluation and a scoring job, with their kind and sizes', async () => {
    const f = await publishLlmEvaluation(t.alice.client, 'alice-co/audit-jobs', { model: 'gpt-4o-mini' });
    const run = await send('/evaluations/evaluate_model', {
      json: { project_id: 'alice-co/audit-jobs', evaluation_ref: f.evaluationRef, model_ref: f.modelRef },
    });
    expect(run.status).toBe(200);
    expect(await newest('job.started')).toMatchObject({
      actor_username: 'alice',
      project_id: 'alice-co/audit-jobs',
      details: { kind: 'evaluate_model', call_id: run.body.call_id },
    });
    const score = await send('/weft/calls/score', {
      json: { project_id: 'alice-co/audit-jobs', call_ids: [run.body.call_id], scorer_refs: [f.judgeRef] },
    });
    expect(score.status).toBe(200);
    expect(await newest('job.started')).toMatchObject({
      details: { kind: 'score_calls', job_id: score.body.job_id, calls: 1, scorers: 1 },
    });
  });

  it('every row written chains: the log verifies', async () => {
    const v = await verifyAuditLog(t.server.store, false);
    expect(v.ok).toBe(true);
    expect(v.rows).toBe((await rows()).length);
  });
});

describe('GET /weft/audit', () => {
  it('answers newest first, filtered by actor, action, entity, project and time', async () => {
    const all = await rows();
    // As instants: a whole second prints without a fraction ("…36Z"), which sorts after "…36.048Z" as text.
    const times = all.map((r) => Date.parse(r.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await rows({ actor: 'bob' })).every((r) => r.actor_username === 'bob')).toBe(true);
    expect((await rows({ entity: 'alice-co' })).every((r) => r.entity === 'alice-co')).toBe(true);
    expect((await rows({ project_id: P })).length).toBeGreaterThan(5);
    expect(await rows({ since: '2000-01-01T00:00:00Z', until: '2000-01-02T00:00:00Z' })).toEqual([]);
    expect((await rows({ since: all.at(-1)!.time })).length).toBe(all.length);
  });

  it('pages with a cursor, without repeating or skipping a row', async () => {
    const all = await rows();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: Record<string, string> = { limit: '4', ...(cursor ? { cursor } : {}) };
      const page = AuditListRes.parse((await send(`/weft/audit?${new URLSearchParams(q)}`, { auth: ADMIN })).body);
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((r) => r.id));
  });

  it('answers 422 saying what to fix for a bad filter', async () => {
    const bad = async (q: string, says: RegExp) => {
      const res = await send(`/weft/audit?${q}`, { auth: ADMIN });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toMatch(says);
    };
    await bad('action=calls.exploded', /unknown action \\"calls.exploded\\"; one of: auth.sign_in/);
    await bad('since=yesterday', /ISO 8601/);
    await bad('since=2024-02-01T00:00:00Z&until=2024-01-01T00:00:00Z', /later than `since`/);
    await bad('cursor=not-a-cursor', /next_cursor/);
    await bad('limit=501', /500/);
    await bad('project_id=nope', /entity/);
  });

  it('refuses a caller who administers nothing (403) and anyone without credentials (401)', async () => {
    const res = await send('/weft/audit');
    expect(res.status).toBe(403);
    expect(res.body.detail ?? JSON.stringify(res.body)).toMatch(/admin/);
    expect((await send('/weft/audit/export')).status).toBe(403);
    expect((await fetch(`${t.url}/weft/audit`)).status).toBe(401);
  });

  it('has no way to change or delete a row', async () => {
    const id = (await rows())[0]!.id;
    for (const method of ['PUT', 'DELETE', 'POST', 'PATCH']) {
      for (const path of ['/weft/audit', `/weft/audit/${encodeURIComponent(id)}`, '/weft/audit/export']) {
        const res = await t.fetch(path, { method, headers: { authorization: ADMIN }, body: method === 'DELETE' ? undefined : '{}' });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    expect((await rows())[0]!.id).toBe(id);
  });
});

describe('GET /weft/audit/export', () => {
  it('streams the filtered rows as JSON lines and as CSV', async () => {
    const filtered = await rows({ project_id: P });
    const jsonl = await t.fetch(`/weft/audit/export?format=jsonl&project_id=${encodeURIComponent(P)}`, {
      headers: { authorization: ADMIN },
    });
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-disposition')).toContain('weft-audit.jsonl');
    const lines = (await jsonl.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRow);
    expect(lines.map((r) => r.id)).toEqual(filtered.map((r) => r.id));

    const csv = await t.fetch(`/weft/audit/export?format=csv&action=calls.deleted`, { headers: { authorization: ADMIN } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const [header, ...body] = (await csv.text()).trim().split('\r\n');
    expect(header).toBe(
      'id,time,actor_username,actor_key_id,actor_via,address,action,target,entity,project_id,outcome,details,prev_hash,hash',
    );
    expect(body).toHaveLength((await rows({ action: 'calls.deleted' })).length);
    expect(body[0]).toContain('calls.deleted');
  });
});

describe('who reads which rows', () => {
  const user = (roles: AuthUser['roles'], isAdmin = false): AuthUser => ({
    username: 'erin',
    isAdmin,
    entities: new Set(Object.keys(roles)),
    roles,
    projectRoles: {},
    via: 'session',
  });

  it('a global admin reads every row; an entity admin the rows of the entities they administer only', () => {
    expect(auditFilterFor(user({}, true), {}).entities).toBe('all');
    expect(auditFilterFor(user({ acme: 'admin', beta: 'member', gamma: 'admin' }), {}).entities).toEqual(['acme', 'gamma']);
    expect(auditFilterFor(user({ acme: 'admin' }), { entity: 'acme' })).toMatchObject({ entities: ['acme'], entity: 'acme' });
    expect(() => auditFilterFor(user({ acme: 'admin', beta: 'member' }), { entity: 'beta' })).toThrow(/must be an admin/);
    expect(() => auditFilterFor(user({ acme: 'admin' }), { project_id: 'beta/p' })).toThrow(/has no role in "beta"/);
    expect(() => auditFilterFor(user({ beta: 'member' }), {})).toThrow(/administers no entity/);
  });
});

describe('an entity admin over HTTP', () => {
  it("reads their entity's rows only, and is refused another entity's", async () => {
    await t.server.store.accounts.upsertUser({
      username: 'olga',
      entities: ['alice-co'],
      role: 'admin',
      passwordHash: await hashSecret('olga-secret-1', TEST_SCRYPT),
    });
    const olga = basic('olga', 'olga-secret-1');
    expect((await send('/calls/delete', { json: { project_id: P, call_ids: ['o1'] } })).status).toBe(200);
    const res = await send('/weft/audit?limit=500', { auth: olga });
    expect(res.status).toBe(200);
    const seen = AuditListRes.parse(res.body).rows;
    expect(seen.some((r) => r.action === 'calls.deleted')).toBe(true);
    expect(seen.every((r) => r.entity === 'alice-co')).toBe(true);
    expect((await send('/weft/audit?entity=bob-co', { auth: olga })).status).toBe(403);
  });
});

describe('on a server with request threads', () => {
  let threaded: TestServer;
  beforeAll(async () => {
    threaded = await startTestServer({ env: { WEFT_READ_THREADS: '1', WEFT_WRITE_THREADS: '1' } });
  });
  afterAll(() => threaded.close());

  it("rows written in a request thread go through the process's writer and chain with the rest", async () => {
    const start = { start: { project_id: P, id: 'x1', op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} } };
    expect((await threaded.fetch('/call/start', { json: start })).status).toBe(200);
    expect((await threaded.fetch('/calls/delete', { json: { project_id: P, call_ids: ['x1'] } })).status).toBe(200);
    const bad = await rawRequest(`${threaded.url}/weft/session`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'not-his' }),
    });
    expect(bad.status).toBe(401);
    const res = await threaded.fetch('/weft/audit', { headers: { authorization: ADMIN } });
    const { rows: got } = AuditListRes.parse(await res.json());
    expect(got.map((r) => [r.action, r.actor_username, r.outcome])).toEqual([
      ['auth.sign_in_failed', 'bob', 'failure'],
      ['calls.deleted', 'alice', 'success'],
    ]);
    expect(await verifyAuditLog(threaded.server.store, false)).toMatchObject({ ok: true, rows: 2 });
  });
});
