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
  });
}
