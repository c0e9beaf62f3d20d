/**
 * A user's default entity (where `weave.init("project")` traces): the first entity given, then
 * whatever the user chooses in Settings (PUT /weft/default_entity) or an operator sets with
 * `weft user default-entity`; the SDKs see it as `viewer.defaultEntity` on /graphql at once.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, weftEnv } from '../testing/serveProcess.js';
import { useTestServer } from '../testing/serverSuite.js';
import { GQL3_DEFAULT_ENTITY, sendExactly } from '../testing/wandbClients.js';

const t = useTestServer();
const run = promisify(execFile);

async function sdkDefaultEntity(authorization: string): Promise<string | null> {
  const res = await sendExactly(`${t.url}/graphql`, {
    headers: [
      ['Authorization', authorization],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify({ query: GQL3_DEFAULT_ENTITY }),
  });
  return res.json.data.viewer.defaultEntity?.name ?? null;
}

beforeAll(async () => {
  // Given in this order, so the first one ("zeta-co") is alice's default, though it sorts last.
  await t.server.store.accounts.upsertUser({ username: 'carol', entities: ['zeta-co', 'alpha-co'] });
  await t.server.store.accounts.upsertUser({ username: 'alice', entities: ['alice-labs'] });
});

describe('the default entity', () => {
  it('is the first entity a user was given', async () => {
    const carol = (await t.admin.usersList({})).users.find((u) => u.username === 'carol')!;
    expect(carol.entities).toEqual(['alpha-co', 'zeta-co']);
    expect(carol.default_entity).toBe('zeta-co');
    expect((await t.alice.client.whoami({})).default_entity).toBe('alice-co');
  });
});

describe('PUT /weft/default_entity', () => {
  it('changes your own default, which the SDKs see on /graphql', async () => {
    const res = await t.alice.client.defaultEntitySet({ entity: 'alice-labs' });
    expect(res.user).toMatchObject({ username: 'alice', default_entity: 'alice-labs' });
    expect((await t.alice.client.whoami({})).default_entity).toBe('alice-labs');
    expect(await sdkDefaultEntity(t.alice.authHeader)).toBe('alice-labs');
    await t.alice.client.defaultEntitySet({ entity: 'alice-co' });
    expect(await sdkDefaultEntity(t.alice.authHeader)).toBe('alice-co');
  });

  it('refuses an entity the user does not belong to with 422', async () => {
    const res = await t.fetch('/weft/default_entity', { method: 'PUT', json: { entity: 'bob-co' } });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0]).toMatchObject({ loc: ['body', 'entity'], msg: expect.stringContaining('alice-co') });
    expect((await t.alice.client.whoami({})).default_entity).toBe('alice-co');
  });

  it("lets only admins change another user's default", async () => {
    const asAlice = await t.fetch('/weft/default_entity', { method: 'PUT', json: { entity: 'bob-co', username: 'bob' } });
    expect(asAlice.status).toBe(403);
    const asAdmin = await t.admin.defaultEntitySet({ entity: 'alpha-co', username: 'carol' });
    expect(asAdmin.user.default_entity).toBe('alpha-co');
    const missing = await t.fetch('/weft/default_entity', {
      method: 'PUT',
      json: { entity: 'x', username: 'nobody' },
      headers: { authorization: `Basic ${Buffer.from('admin:admin-test-password').toString('base64')}` },
    });
    expect(missing.status).toBe(404);
  });

  it('validates the entity name', async () => {
    const res = await t.fetch('/weft/default_entity', { method: 'PUT', json: { entity: 'a/b' } });
    expect(res.status).toBe(422);
  });
});

describe('weft user default-entity', { timeout: 90_000 }, () => {
  const cli = (...args: string[]) =>
    run(process.execPath, [BIN, 'user', 'default-entity', ...args], { cwd: ROOT, env: weftEnv({ WEFT_DATA_DIR: t.dataDir }) });

  it('sets the default from the command line, and the running server answers with it', async () => {
    const { stdout } = await cli('alice', 'alice-labs');
    expect(stdout).toContain('Default entity of "alice": alice-labs');
    expect(await sdkDefaultEntity(t.alice.authHeader)).toBe('alice-labs');
  });

  it('refuses an entity the user does not belong to, saying how to add it', async () => {
    const failure = await cli('alice', 'bob-co').then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('weft user add alice --entity bob-co');
  });

  it('explains itself with --help', async () => {
    expect((await cli('--help')).stdout).toContain('weave.init("project")');
  });
});
