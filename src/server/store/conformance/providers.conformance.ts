/**
 * Conformance suite for ProvidersStore: save (insert, then replace keeping the creation), list
 * by name, the per-project name uniqueness, `anyProvider` by entity, delete. Keys arrive sealed
 * (domain/llm/providers.ts seals them with auth/secretBox.ts) and are stored exactly as given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { ProviderRecord } from '../ProvidersStore.js';
import type { Store } from '../Store.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;

const provider = (id: string, projectId: string, name: string, over: Partial<ProviderRecord> = {}): ProviderRecord => ({
  id,
  projectId,
  name,
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKeySealed: `v1.iv.tag.sealed-${id}`,
  apiKeyMask: 'sk-…abcd',
  authStyle: 'bearer',
  extraHeaders: { 'x-team': 'ml' },
  models: [{ name: 'llama3.2', promptTokenCost: 0.000001, completionTokenCost: null, contextLength: 8192, maxOutputTokens: null }],
  priceIds: [`price-${id}`],
  createdBy: 'alice',
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

export function describeProvidersConformance(open: OpenStore): void {
  describe('ProvidersStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('saves, lists by name and reads back every field as given', async () => {
      await store.providers.saveProvider(provider('p2', 'acme/a', 'zeta'));
      await store.providers.saveProvider(provider('p1', 'acme/a', 'alpha', { authStyle: 'api-key', apiKeySealed: null, apiKeyMask: null }));
      await store.providers.saveProvider(provider('p3', 'other/b', 'alpha'));
      expect((await store.providers.listProviders('acme/a')).map((p) => p.name)).toEqual(['alpha', 'zeta']);
      expect(await store.providers.getProvider({ projectId: 'acme/a', id: 'p2' })).toEqual(provider('p2', 'acme/a', 'zeta'));
      expect(await store.providers.getProvider({ projectId: 'acme/a', id: 'p1' })).toMatchObject({
        authStyle: 'api-key',
        apiKeySealed: null,
      });
      expect(await store.providers.getProvider({ projectId: 'acme/a', id: 'p3' })).toBeNull();
    });

    it('replaces a record by id, keeping who created it and when', async () => {
      await store.providers.saveProvider(
        provider('p2', 'acme/a', 'zeta2', { apiKeySealed: 'v1.iv.tag.rotated', createdBy: 'bob', createdAt: T0 + 5, updatedAt: T0 + 9 }),
      );
      expect(await store.providers.getProvider({ projectId: 'acme/a', id: 'p2' })).toMatchObject({
        name: 'zeta2',
        apiKeySealed: 'v1.iv.tag.rotated',
        createdBy: 'alice',
        createdAt: T0,
        updatedAt: T0 + 9,
      });
      expect(await store.providers.listProviders('acme/a')).toHaveLength(2);
    });

    it('refuses a name another record of the project holds (409)', async () => {
      await expect(store.providers.saveProvider(provider('p4', 'acme/a', 'alpha'))).rejects.toMatchObject({ status: 409 });
      expect(await store.providers.getProvider({ projectId: 'acme/a', id: 'p4' })).toBeNull();
    });

    it('answers whether any project of the entities has a provider', async () => {
      expect(await store.providers.anyProvider('all')).toBe(true);
      expect(await store.providers.anyProvider(['acme'])).toBe(true);
      expect(await store.providers.anyProvider(['nobody', 'other'])).toBe(true);
      expect(await store.providers.anyProvider(['nobody'])).toBe(false);
      expect(await store.providers.anyProvider([])).toBe(false);
    });

    it('deletes once, frees the name, and a saved record comes back under it', async () => {
      expect(await store.providers.deleteProvider({ projectId: 'other/b', id: 'p3' })).toBe(true);
      expect(await store.providers.deleteProvider({ projectId: 'other/b', id: 'p3' })).toBe(false);
      expect(await store.providers.anyProvider(['other'])).toBe(false);
      expect(await store.providers.deleteProvider({ projectId: 'acme/a', id: 'p1' })).toBe(true);
      await store.providers.saveProvider(provider('p5', 'acme/a', 'alpha'));
      expect((await store.providers.listProviders('acme/a')).map((p) => p.id)).toEqual(['p5', 'p2']);
    });
  });
}
