/**
 * The admin bootstrap on each tested backend: SQLite generates a password when none is given
 * and resets it to a changed WEFT_ADMIN_PASSWORD; ClickHouse (replicas) requires one for the
 * first start and never changes the admin afterwards; neither rewrites an unchanged password.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../testing/tempStore.js';
import type { Store } from '../store/Store.js';
import { ADMIN_PASSWORD_REQUIRED, ensureAdmin } from './bootstrap.js';
import { hashSecret, verifySecret } from './secrets.js';

for (const backend of testBackends()) {
  // Every case hashes with scrypt (128 MB), seconds each on a busy machine.
  describe(`ensureAdmin (${backend.name})`, { timeout: 120_000 }, () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await backend.open());
    });
    afterEach(() => close());

    const adminHash = async () => (await store.accounts.getUser('admin'))!.passwordHash!;

    it('creates the admin with WEFT_ADMIN_PASSWORD, and leaves an unchanged one unwritten', async () => {
      expect(await ensureAdmin(store, 'first-password')).toEqual({ generated: null, notice: null });
      const hash = await adminHash();
      expect(await verifySecret('first-password', hash)).toBe(true);
      expect((await store.accounts.getUser('admin'))!.isAdmin).toBe(true);
      expect(await ensureAdmin(store, 'first-password')).toEqual({ generated: null, notice: null });
      expect(await ensureAdmin(store, null)).toEqual({ generated: null, notice: null });
      expect(await adminHash()).toBe(hash);
    });

    if (backend.name === 'sqlite') {
      it('generates a password on the first start without one, and resets to a changed WEFT_ADMIN_PASSWORD', async () => {
        const { generated } = await ensureAdmin(store, null);
        expect(generated).toMatch(/^\S{20}$/);
        expect(await verifySecret(generated!, await adminHash())).toBe(true);
        expect(await ensureAdmin(store, 'chosen-later')).toEqual({ generated: null, notice: null });
        expect(await verifySecret('chosen-later', await adminHash())).toBe(true);
      });
    }

    if (backend.name === 'clickhouse') {
      it('refuses a first start without WEFT_ADMIN_PASSWORD, saying what to set', async () => {
        await expect(ensureAdmin(store, null)).rejects.toThrow(ADMIN_PASSWORD_REQUIRED);
        expect(await store.accounts.getUser('admin')).toBeNull();
      });

      it('keeps a changed admin password when a replica starts with the first one', async () => {
        await ensureAdmin(store, 'first-password');
        // The admin changes it in the dashboard.
        await store.accounts.upsertUser({ username: 'admin', passwordHash: await hashSecret('changed-in-dashboard') });
        const changed = await adminHash();
        const { generated, notice } = await ensureAdmin(store, 'first-password');
        expect(generated).toBeNull();
        expect(notice).toMatch(/weft user add admin --admin --password/);
        expect(await adminHash()).toBe(changed);
      });

      it('gives one working password when two replicas bootstrap at once', async () => {
        await Promise.all([ensureAdmin(store, 'shared-password'), ensureAdmin(store, 'shared-password')]);
        expect(await verifySecret('shared-password', await adminHash())).toBe(true);
      });
    }
  });
}
