import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyCreateRes, ApiKeyRevokeRes, ApiKeysListRes, UserCreateRes, UsersListRes } from '../../contract/accounts.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
let adminAuth: string;

/** Raw HTTP as someone (alice's API key unless told otherwise). */
async function call(method: string, path: string, { auth, json }: { auth?: string; json?: unknown } = {}) {
  const res = await t.fetch(path, { method, json, headers: auth ? { authorization: auth } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  t = await startTestServer();
  adminAuth = basic('admin', 'admin-test-password');
});
afterAll(async () => {
  await t.close();
});

describe('GET /weft/users', () => {
  it('lists every user with entities and no secrets, for admins', async () => {
    const res = await call('GET', '/weft/users', { auth: adminAuth });
    expect(res.status).toBe(200);
    const { users } = UsersListRes.parse(res.body);
    expect(users.map((u) => u.username)).toEqual(['admin', 'alice', 'bob']);
    expect(users.find((u) => u.username === 'alice')).toMatchObject({ is_admin: false, entities: ['alice-co'], has_password: true });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|_hash|"password"/);
  });

  it('answers 403 to non-admins and 401 without credentials', async () => {
    expect((await call('GET', '/weft/users')).status).toBe(403);
    const anonymous = await fetch(`${t.url}/weft/users`);
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /weft/users', () => {
  it('creates a user who can log in with the password and reach their entities only', async () => {
    const res = await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'carol', password: 'carol-secret-1', entities: ['carol-co', 'shared'] },
    });
    expect(res.status).toBe(200);
    expect(UserCreateRes.parse(res.body).user).toMatchObject({ username: 'carol', is_admin: false, entities: ['carol-co', 'shared'] });
    const carol = basic('carol', 'carol-secret-1');
    const me = await call('GET', '/weft/whoami', { auth: carol });
    expect(me.body).toMatchObject({ username: 'carol', entities: ['carol-co', 'shared'], auth: 'password' });
    const stats = (project_id: string) => call('POST', '/calls/query_stats', { auth: carol, json: { project_id } });
    expect((await stats('shared/p')).status).toBe(200);
    expect((await stats('alice-co/p')).status).toBe(403);
  });

  it('creates admins without entities', async () => {
    const res = await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'dave', password: 'dave-secret-1', is_admin: true },
    });
    expect(UserCreateRes.parse(res.body).user).toMatchObject({ is_admin: true, entities: [] });
    expect((await call('GET', '/weft/users', { auth: basic('dave', 'dave-secret-1') })).status).toBe(200);
  });

  it('answers 409 for a taken name and changes nothing', async () => {
    const res = await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'alice', password: 'new-password', entities: ['x'] },
    });
    expect(res.status).toBe(409);
    expect((await call('GET', '/weft/whoami', { auth: basic('alice', 'alice-password') })).status).toBe(200);
  });

  it('answers 422 for bad names, short passwords and users without entities', async () => {
    const create = (json: unknown) => call('POST', '/weft/users', { auth: adminAuth, json });
    expect((await create({ username: 'api', password: 'long-enough', entities: ['e'] })).status).toBe(422);
    expect((await create({ username: 'a b', password: 'long-enough', entities: ['e'] })).status).toBe(422);
    expect((await create({ username: 'erin', password: 'short', entities: ['e'] })).status).toBe(422);
    expect((await create({ username: 'erin', password: 'long-enough', entities: [] })).status).toBe(422);
    expect((await create({ username: 'erin', password: 'long-enough', entities: ['a/b'] })).status).toBe(422);
  });

  it('answers 403 to non-admins, and nobody is created', async () => {
    const res = await call('POST', '/weft/users', { json: { username: 'mallory', password: 'mallory-pass', is_admin: true } });
    expect(res.status).toBe(403);
    const { users } = UsersListRes.parse((await call('GET', '/weft/users', { auth: adminAuth })).body);
    expect(users.map((u) => u.username)).not.toContain('mallory');
  });
});

describe('POST /weft/api_keys', () => {
  it('returns the key once; it works as api:<key>, and only its id is listed', async () => {
    const res = await call('POST', '/weft/api_keys', { json: { name: 'laptop' } });
    expect(res.status).toBe(200);
    const { key, api_key } = ApiKeyCreateRes.parse(res.body);
    expect(key).toMatch(/^[a-z0-9]{40}$/);
    expect(api_key).toMatchObject({ key_id: key.slice(0, 10), name: 'laptop', username: 'alice', revoked_at: null });
    const me = await call('GET', '/weft/whoami', { auth: basic('api', key) });
    expect(me.body).toMatchObject({ username: 'alice', auth: 'api_key' });
    const listed = await call('GET', '/weft/api_keys');
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('answers 422 for an overlong name', async () => {
    expect((await call('POST', '/weft/api_keys', { json: { name: 'x'.repeat(101) } })).status).toBe(422);
  });
});

describe('GET /weft/api_keys', () => {
  it("lists the caller's own keys, oldest first", async () => {
    const { keys } = ApiKeysListRes.parse((await call('GET', '/weft/api_keys', { auth: basic('bob', 'bob-password') })).body);
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys.every((k) => k.username === 'bob')).toBe(true);
    expect(keys.map((k) => k.created_at)).toEqual([...keys.map((k) => k.created_at)].sort());
  });

  it("lets admins list anyone's keys and refuses others with 403", async () => {
    const asAdmin = ApiKeysListRes.parse((await call('GET', '/weft/api_keys?username=bob', { auth: adminAuth })).body);
    expect(asAdmin.keys.every((k) => k.username === 'bob')).toBe(true);
    expect((await call('GET', '/weft/api_keys?username=bob')).status).toBe(403);
  });
});

describe('DELETE /weft/api_keys/:key_id', () => {
  it('revokes at once: the very next request with the key answers 401', async () => {
    const { key, api_key } = ApiKeyCreateRes.parse((await call('POST', '/weft/api_keys', { json: { name: 'ci' } })).body);
    const auth = basic('api', key);
    // Used once, so the verified key sits in the authenticator's cache.
    expect((await call('GET', '/weft/whoami', { auth })).status).toBe(200);
    const res = await call('DELETE', `/weft/api_keys/${api_key.key_id}`);
    expect(res.status).toBe(200);
    expect(ApiKeyRevokeRes.parse(res.body).api_key.revoked_at).not.toBeNull();
    expect((await call('GET', '/weft/whoami', { auth })).status).toBe(401);
    const { keys } = ApiKeysListRes.parse((await call('GET', '/weft/api_keys')).body);
    expect(keys.find((k) => k.key_id === api_key.key_id)?.revoked_at).toBe(ApiKeyRevokeRes.parse(res.body).api_key.revoked_at);
  });

  it('is harmless twice, 404 for unknown ids', async () => {
    const { api_key } = ApiKeyCreateRes.parse((await call('POST', '/weft/api_keys', { json: {} })).body);
    const first = ApiKeyRevokeRes.parse((await call('DELETE', `/weft/api_keys/${api_key.key_id}`)).body);
    const second = await call('DELETE', `/weft/api_keys/${api_key.key_id}`);
    expect(second.status).toBe(200);
    expect(ApiKeyRevokeRes.parse(second.body).api_key.revoked_at).toBe(first.api_key.revoked_at);
    expect((await call('DELETE', '/weft/api_keys/nosuchkey0')).status).toBe(404);
  });

  it("refuses another user's key with 403 (it keeps working); admins may revoke it", async () => {
    const bob = basic('bob', 'bob-password');
    const { key, api_key } = ApiKeyCreateRes.parse((await call('POST', '/weft/api_keys', { auth: bob, json: { name: 'bob' } })).body);
    expect((await call('DELETE', `/weft/api_keys/${api_key.key_id}`)).status).toBe(403);
    expect((await call('GET', '/weft/whoami', { auth: basic('api', key) })).status).toBe(200);
    expect((await call('DELETE', `/weft/api_keys/${api_key.key_id}`, { auth: adminAuth })).status).toBe(200);
    expect((await call('GET', '/weft/whoami', { auth: basic('api', key) })).status).toBe(401);
  });
});

describe('roles: PUT /weft/users/:username/roles and entity admins', () => {
  const erin = basic('erin', 'erin-secret-1');
  beforeAll(async () => {
    await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'erin', password: 'erin-secret-1', entities: ['erin-co'], role: 'admin' },
    });
    await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'frank', password: 'frank-secret-1', entities: ['erin-co'], role: 'viewer' },
    });
  });

  it('creates a user with the role given, and whoami says it', async () => {
    const me = await call('GET', '/weft/whoami', { auth: basic('frank', 'frank-secret-1') });
    expect(me.body).toMatchObject({ roles: { 'erin-co': 'viewer' }, project_roles: {} });
  });

  it('lets an entity admin list, add and re-role the members of their entity only', async () => {
    const listed = await call('GET', '/weft/users', { auth: erin });
    expect(listed.status).toBe(200);
    const { users } = UsersListRes.parse(listed.body);
    // Only erin-co's members, and only their erin-co roles.
    expect(users.map((u) => u.username)).toEqual(['erin', 'frank']);
    expect(users.every((u) => Object.keys(u.roles).every((e) => e === 'erin-co'))).toBe(true);

    const created = await call('POST', '/weft/users', {
      auth: erin,
      json: { username: 'gina', password: 'gina-secret-1', entities: ['erin-co'], role: 'annotator' },
    });
    expect(created.status).toBe(200);
    const promoted = await call('PUT', '/weft/users/frank/roles', { auth: erin, json: { scope: 'erin-co', role: 'member' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user: { roles: { 'erin-co': 'member' } } });
    const override = await call('PUT', '/weft/users/frank/roles', { auth: erin, json: { scope: 'erin-co/secret', role: 'viewer' } });
    expect(override.body).toMatchObject({ user: { project_roles: { 'erin-co/secret': 'viewer' } } });
    // The new role holds from the very next request (credentials are cached).
    expect(await call('GET', '/weft/whoami', { auth: basic('frank', 'frank-secret-1') })).toMatchObject({
      body: { roles: { 'erin-co': 'member' }, project_roles: { 'erin-co/secret': 'viewer' } },
    });
  });

  it('refuses an entity admin outside their entity, and members everywhere, naming the role needed', async () => {
    const elsewhere = await call('PUT', '/weft/users/alice/roles', { auth: erin, json: { scope: 'alice-co', role: 'viewer' } });
    expect(elsewhere.status).toBe(403);
    const admins = await call('POST', '/weft/users', { auth: erin, json: { username: 'hank', password: 'hank-secret-1', is_admin: true } });
    expect(admins.status).toBe(403);
    const byMember = await call('PUT', '/weft/users/erin/roles', {
      auth: basic('gina', 'gina-secret-1'),
      json: { scope: 'erin-co', role: 'viewer' },
    });
    expect(byMember.status).toBe(403);
    expect(JSON.stringify(byMember.body)).toMatch(/is an annotator in .*erin-co.*must be an admin/);
    expect((await call('GET', '/weft/users', { auth: basic('gina', 'gina-secret-1') })).status).toBe(403);
  });

  it('removes a membership with role null, and 404s an unknown user', async () => {
    await call('POST', '/weft/users', {
      auth: adminAuth,
      json: { username: 'ivy', password: 'ivy-secret-12', entities: ['erin-co', 'other-co'] },
    });
    const removed = await call('PUT', '/weft/users/ivy/roles', { auth: erin, json: { scope: 'erin-co', role: null } });
    expect(removed.body).toMatchObject({ user: { entities: [] } }); // erin sees only erin-co
    expect((await call('GET', '/weft/whoami', { auth: basic('ivy', 'ivy-secret-12') })).body).toMatchObject({ entities: ['other-co'] });
    expect((await call('PUT', '/weft/users/nobody/roles', { auth: erin, json: { scope: 'erin-co', role: 'viewer' } })).status).toBe(404);
  });
});
