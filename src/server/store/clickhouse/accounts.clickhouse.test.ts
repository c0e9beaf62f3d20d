/**
 * What replicas of a ClickHouse-backed server rely on in the accounts store, beyond the
 * backend-neutral accounts suite: the epoch moves with every change that must reach other
 * replicas' credential caches (and with nothing else), even when the writer's clock is behind,
 * and an ended session or a revoked key stays ended when a replica that read it just before
 * rewrites its row.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import type { SessionRecord } from '../Store.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const session = (id: string, now: number): SessionRecord => ({
  sessionId: id,
  tokenHash: `hash-${id}`,
  username: 'ann',
  createdAt: now,
  lastSeenAt: now,
  expiresAt: now + 3600e6,
  userAgent: 'test',
  address: '127.0.0.1',
});

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse accounts across replicas', () => {
    let a: ClickHouseStore;
    let b: ClickHouseStore;
    let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
    beforeEach(async () => {
      db = await createTempClickHouseDatabase();
      a = await ClickHouseStore.open(db);
      b = await ClickHouseStore.open(db);
      await a.accounts.upsertUser({ username: 'ann', passwordHash: 'h1', entities: ['ann-co'] });
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await db.drop();
    });

    it('moves the epoch on a revocation, a password change and ended sessions, and not on other writes', async () => {
      const moves = async (write: () => Promise<unknown>) => {
        const before = await b.accounts.epoch();
        await write();
        return (await b.accounts.epoch()) !== before;
      };
      const now = Date.now() * 1000;
      await a.accounts.createApiKey({ keyId: 'k1', username: 'ann', keyHash: 'sha256$x', name: '', createdAt: now });
      expect(await moves(() => a.accounts.revokeApiKey('k1', now))).toBe(true);
      expect(await moves(() => a.accounts.upsertUser({ username: 'ann', passwordHash: 'h2' }))).toBe(true);
      await a.accounts.createSession(session('s1', now));
      await a.accounts.createSession(session('s2', now));
      expect(await moves(() => a.accounts.deleteSession('s1'))).toBe(true);
      expect(await moves(() => a.accounts.deleteUserSessions('ann'))).toBe(true);

      expect(
        await moves(() => a.accounts.createApiKey({ keyId: 'k2', username: 'ann', keyHash: 'sha256$y', name: '', createdAt: now })),
      ).toBe(false);
      expect(await moves(() => a.accounts.upsertUser({ username: 'ann', entities: ['other-co'] }))).toBe(false);
      expect(await moves(() => a.accounts.createSession(session('s3', now)))).toBe(false);
      expect(await moves(() => a.accounts.touchSession('s3', now + 1))).toBe(false);
    });

    it('moves the epoch when the revoking replica’s clock is behind the last bump', async () => {
      // A bump written by a replica whose clock runs far ahead (a day).
      await b.db.insert('accounts_epoch', [{ id: 0, epoch: (Date.now() + 86_400_000) * 1000 }]);
      const before = await b.accounts.epoch();
      const now = Date.now() * 1000;
      await a.accounts.createApiKey({ keyId: 'k1', username: 'ann', keyHash: 'sha256$x', name: '', createdAt: now });
      await a.accounts.revokeApiKey('k1', now);
      expect(await b.accounts.epoch()).toBeGreaterThan(before);
    });

    it('keeps a session ended when another replica rewrites the row it read just before', async () => {
      const now = Date.now() * 1000;
      await a.accounts.createSession(session('s1', now));
      // Replica A reads the live session for a touch; replica B ends it; then A writes its touch.
      const stale = await a.accounts.getSession('s1');
      expect(await b.accounts.deleteSession('s1')).toBe(true);
      a.accounts.getSession = async () => stale;
      await a.accounts.touchSession('s1', now + 1);
      expect(await b.accounts.getSessionByTokenHash('hash-s1')).toBeNull();
    });

    it('keeps a key revoked when another replica rewrites the row it read just before', async () => {
      const now = Date.now() * 1000;
      await a.accounts.createApiKey({ keyId: 'k1', username: 'ann', keyHash: 'scrypt$old', name: '', createdAt: now });
      // Replica A reads the key to move its hash to SHA-256; replica B revokes it; then A writes.
      const stale = await a.accounts.getApiKey('k1');
      expect(await b.accounts.revokeApiKey('k1', now)).toBe(true);
      a.accounts.getApiKey = async () => stale;
      await a.accounts.updateApiKeyHash('k1', 'sha256$new');
      expect((await b.accounts.getApiKey('k1'))?.revokedAt).toBe(now);
    });
  });
});
