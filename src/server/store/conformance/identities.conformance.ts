/**
 * Conformance suite for IdentitiesStore: link, read back, relink (created_at kept), list per
 * user, find users by verified email (case-insensitive, unverified ignored), delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { IdentityRecord } from '../IdentitiesStore.js';
import type { Store } from '../Store.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const ISS = 'https://idp.example.com';

const identity = (subject: string, username: string, over: Partial<IdentityRecord> = {}): IdentityRecord => ({
  issuer: ISS,
  subject,
  username,
  email: `${username}@example.com`,
  emailVerified: true,
  createdAt: T0,
  lastSignInAt: T0,
  ...over,
});

export function describeIdentitiesConformance(open: OpenStore): void {
  describe('IdentitiesStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('links an identity and reads every field back', async () => {
      await store.identities.upsertIdentity(identity('sub-1', 'carol'));
      expect(await store.identities.getIdentity(ISS, 'sub-1')).toEqual(identity('sub-1', 'carol'));
      expect(await store.identities.getIdentity(ISS, 'sub-2')).toBeNull();
      expect(await store.identities.getIdentity('https://other.example.com', 'sub-1')).toBeNull();
    });

    it('updates email and last sign-in on relink, keeping when it was created', async () => {
      await store.identities.upsertIdentity(identity('sub-3', 'dave', { email: 'Dave@Example.com' }));
      await store.identities.upsertIdentity(
        identity('sub-3', 'dave', { email: 'dave2@example.com', emailVerified: false, createdAt: T0 + 5, lastSignInAt: T0 + 9 }),
      );
      expect(await store.identities.getIdentity(ISS, 'sub-3')).toEqual(
        identity('sub-3', 'dave', { email: 'dave2@example.com', emailVerified: false, createdAt: T0, lastSignInAt: T0 + 9 }),
      );
    });

    it('lists a user’s identities and finds users by verified email only', async () => {
      await store.identities.upsertIdentity(identity('sub-4', 'erin', { email: 'Erin@Example.com' }));
      await store.identities.upsertIdentity(
        identity('erin', 'erin', { issuer: 'weft:admin', email: 'erin@example.com', createdAt: T0 + 1 }),
      );
      await store.identities.upsertIdentity(identity('sub-5', 'frank', { email: 'erin@example.com', emailVerified: false }));
      expect((await store.identities.listIdentities('erin')).map((i) => i.issuer)).toEqual([ISS, 'weft:admin']);
      expect(await store.identities.usernamesByVerifiedEmail('ERIN@example.com')).toEqual(['erin']);
      expect(await store.identities.usernamesByVerifiedEmail('nobody@example.com')).toEqual([]);
    });

    it('deletes a link', async () => {
      await store.identities.upsertIdentity(identity('sub-6', 'gina'));
      expect(await store.identities.deleteIdentity(ISS, 'sub-6')).toBe(true);
      expect(await store.identities.deleteIdentity(ISS, 'sub-6')).toBe(false);
      expect(await store.identities.getIdentity(ISS, 'sub-6')).toBeNull();
      expect(await store.identities.listIdentities('gina')).toEqual([]);
    });
  });
}
