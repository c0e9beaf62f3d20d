/** Conformance suite for AccountsStore: users with entities and admin flags, API keys and revocation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store } from '../Store.js';

export function describeAccountsConformance(open: OpenStore): void {
  describe('AccountsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    it('creates a user, then updates its password and admin flag and adds entities', async () => {
      const created = await store.accounts.upsertUser({ username: 'carol', passwordHash: 'h1', entities: ['acme'] });
      expect(created).toMatchObject({ username: 'carol', passwordHash: 'h1', isAdmin: false, entities: ['acme'] });
      const updated = await store.accounts.upsertUser({ username: 'carol', passwordHash: 'h2', isAdmin: true, entities: ['beta'] });
      expect(updated).toMatchObject({ passwordHash: 'h2', isAdmin: true });
      expect([...updated.entities].sort()).toEqual(['acme', 'beta']);
      expect((await store.accounts.getUser('carol'))?.passwordHash).toBe('h2');
    });

    it('keeps what an update does not mention', async () => {
      await store.accounts.upsertUser({ username: 'dave', passwordHash: 'p', isAdmin: true, entities: ['d'] });
      const u = await store.accounts.upsertUser({ username: 'dave', entities: [] });
      expect(u).toMatchObject({ passwordHash: 'p', isAdmin: true, entities: ['d'] });
    });

    it('answers null for an unknown user and lists the known ones', async () => {
      expect(await store.accounts.getUser('nobody')).toBeNull();
      const names = (await store.accounts.listUsers()).map((u) => u.username);
      expect(names).toEqual(expect.arrayContaining(['carol', 'dave']));
    });

    it('stores API keys per user and revokes them once', async () => {
      await store.accounts.createApiKey({ keyId: 'k1', username: 'carol', keyHash: 'kh1', name: 'laptop', createdAt: 1 });
      await store.accounts.createApiKey({ keyId: 'k2', username: 'carol', keyHash: 'kh2', name: 'ci', createdAt: 2 });
      await store.accounts.createApiKey({ keyId: 'k3', username: 'dave', keyHash: 'kh3', name: 'x', createdAt: 3 });
      expect((await store.accounts.listApiKeys('carol')).map((k) => k.keyId).sort()).toEqual(['k1', 'k2']);
      expect(await store.accounts.getApiKey('k1')).toMatchObject({ username: 'carol', keyHash: 'kh1', revokedAt: null });
      expect(await store.accounts.revokeApiKey('k1', 10)).toBe(true);
      expect(await store.accounts.revokeApiKey('k1', 11)).toBe(false);
      expect((await store.accounts.getApiKey('k1'))?.revokedAt).toBe(10);
      expect(await store.accounts.getApiKey('missing')).toBeNull();
    });

    it("replaces a key's stored hash", async () => {
      await store.accounts.updateApiKeyHash('k2', 'sha256$new');
      expect((await store.accounts.getApiKey('k2'))?.keyHash).toBe('sha256$new');
    });

    it('stores sessions by token hash, touches, lists per user and ends them one, all-but-one, or when expired', async () => {
      const session = (sessionId: string, username: string, at: number) => ({
        sessionId,
        tokenHash: `th-${sessionId}`,
        username,
        createdAt: at,
        lastSeenAt: at,
        expiresAt: at + 1000,
        userAgent: 'ua',
        address: '127.0.0.1',
      });
      await store.accounts.createSession(session('s1', 'carol', 100));
      await store.accounts.createSession(session('s2', 'carol', 200));
      await store.accounts.createSession(session('s3', 'carol', 300));
      await store.accounts.createSession(session('s4', 'dave', 400));
      expect(await store.accounts.getSessionByTokenHash('th-s2')).toEqual(session('s2', 'carol', 200));
      expect(await store.accounts.getSessionByTokenHash('th-none')).toBeNull();
      await store.accounts.touchSession('s2', 250);
      expect((await store.accounts.getSession('s2'))?.lastSeenAt).toBe(250);
      expect((await store.accounts.listSessions('carol')).map((s) => s.sessionId)).toEqual(['s1', 's2', 's3']);

      expect(await store.accounts.deleteSession('s1')).toBe(true);
      expect(await store.accounts.deleteSession('s1')).toBe(false);
      expect(await store.accounts.deleteUserSessions('carol', 's3')).toBe(1);
      expect((await store.accounts.listSessions('carol')).map((s) => s.sessionId)).toEqual(['s3']);
      // s3 expires at 1300; s4 was last seen at 400, idle since before 450.
      expect(await store.accounts.deleteExpiredSessions(1300, 450)).toBe(2);
      expect(await store.accounts.getSession('s3')).toBeNull();
      expect(await store.accounts.getSession('s4')).toBeNull();
    });

    it('makes the first entity given the default, keeps it as entities are added, and changes it on request', async () => {
      expect((await store.accounts.upsertUser({ username: 'erin', entities: ['zeta', 'alpha'] })).defaultEntity).toBe('zeta');
      expect((await store.accounts.upsertUser({ username: 'erin', entities: ['aaa'] })).defaultEntity).toBe('zeta');
      expect(await store.accounts.setDefaultEntity('erin', 'alpha')).toBe(true);
      expect((await store.accounts.getUser('erin'))?.defaultEntity).toBe('alpha');
      expect(await store.accounts.setDefaultEntity('nobody', 'alpha')).toBe(false);
      expect((await store.accounts.upsertUser({ username: 'frank', isAdmin: true })).defaultEntity).toBeNull();
    });

    it('keeps a role per membership and per-project overrides, and removes either', async () => {
      const u = await store.accounts.upsertUser({ username: 'rita', entities: ['acme', 'beta'], role: 'viewer' });
      expect(u.roles).toEqual({ acme: 'viewer', beta: 'viewer' });
      expect(u.entities).toEqual(['acme', 'beta']);
      // Adding entities without a role leaves existing roles alone; new memberships are members.
      const more = await store.accounts.upsertUser({ username: 'rita', entities: ['acme', 'gamma'] });
      expect(more.roles).toEqual({ acme: 'viewer', beta: 'viewer', gamma: 'member' });
      // A role given changes it.
      expect((await store.accounts.upsertUser({ username: 'rita', entities: ['beta'], role: 'admin' })).roles.beta).toBe('admin');
      expect(await store.accounts.setRole('rita', 'acme/support', 'annotator')).toBe(true);
      expect(await store.accounts.setRole('rita', 'acme', 'member')).toBe(true);
      let r = (await store.accounts.getUser('rita'))!;
      expect(r.roles.acme).toBe('member');
      expect(r.projectRoles).toEqual({ 'acme/support': 'annotator' });
      expect(await store.accounts.setRole('rita', 'gamma', null)).toBe(true);
      expect(await store.accounts.setRole('rita', 'acme/support', null)).toBe(true);
      r = (await store.accounts.getUser('rita'))!;
      expect(r.entities).toEqual(['acme', 'beta']);
      expect(r.projectRoles).toEqual({});
      expect(await store.accounts.setRole('nobody-here', 'acme', 'viewer')).toBe(false);
    });

    it('makes an entity given by role the default of a user who has none', async () => {
      await store.accounts.upsertUser({ username: 'sam', passwordHash: 'p' });
      await store.accounts.setRole('sam', 'delta', 'viewer');
      expect((await store.accounts.getUser('sam'))!.defaultEntity).toBe('delta');
    });
  });
}
