/**
 * Conformance suite for AuditStore: appends chain (seq without gaps, each row linked to the one
 * before and hashing to what it says), newest-first reads with every filter and the entity
 * scope, cursor paging, streaming, the retention sweep and its anchor, and several writers on one
 * database (each chain verifies alone). docs/security/audit.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, verifyChain } from '../../audit/auditChain.js';
import type { AuditEntry } from '../../audit/auditTrail.js';
import type { OpenStore, OpenStorePair } from '../../testing/tempStore.js';
import type { AuditRecord } from '../AuditStore.js';
import type { Store } from '../Store.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  actor: { username: 'alice', keyId: null, via: 'session' },
  address: '127.0.0.1',
  action: 'calls.deleted',
  target: 'acme/support',
  entity: 'acme',
  projectId: 'acme/support',
  outcome: 'success',
  details: { count: 3 },
  ...over,
});

const collect = async <T>(rows: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
};

async function verifyAll(store: Store, swept = false) {
  const verdicts = [];
  for (const chain of await store.audit.chains()) verdicts.push(await verifyChain(chain, store.audit.walk(chain), swept));
  return verdicts;
}

export function describeAuditConformance(open: OpenStore, openPair: OpenStorePair): void {
  describe('AuditStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    const written: AuditRecord[] = [];
    beforeAll(async () => {
      ({ store, close } = await open());
      written.push(await store.audit.append(entry(), T0 + 1));
      written.push(
        await store.audit.append(entry({ actor: { username: 'bob', keyId: 'k1', via: 'api_key' }, action: 'objects.deleted' }), T0 + 2),
      );
      written.push(await store.audit.append(entry({ entity: 'other', projectId: 'other/p', target: 'other/p' }), T0 + 3));
      written.push(
        await store.audit.append(
          entry({
            actor: { username: null, keyId: null, via: 'password' },
            action: 'auth.sign_in_failed',
            entity: null,
            projectId: null,
            outcome: 'failure',
            target: 'mallory',
            details: undefined,
          }),
          T0 + 4,
        ),
      );
    });
    afterAll(() => close());

    it('chains each row to the one before it and stores every field as given', async () => {
      const [first, second] = written;
      expect(first).toMatchObject({ seq: 1, prevHash: GENESIS_HASH, time: T0 + 1, actorUsername: 'alice', details: { count: 3 } });
      expect(second!.seq).toBe(2);
      expect(second!.prevHash).toBe(first!.hash);
      expect(first!.hash).toMatch(/^[0-9a-f]{64}$/);
      const rows = await collect(store.audit.walk(first!.chain));
      expect(rows).toEqual(written);
      expect(await verifyAll(store)).toEqual([{ ok: true, chain: first!.chain, rows: 4, anchor: { seq: 1, time: T0 + 1 } }]);
    });

    it('reads newest first, filtered by actor (username or key id), action, entity, project and time', async () => {
      const ids = (rows: AuditRecord[]) => rows.map((r) => r.seq);
      expect(ids(await store.audit.query({ entities: 'all' }, 10))).toEqual([4, 3, 2, 1]);
      expect(ids(await store.audit.query({ entities: 'all', actor: 'bob' }, 10))).toEqual([2]);
      expect(ids(await store.audit.query({ entities: 'all', actor: 'k1' }, 10))).toEqual([2]);
      expect(ids(await store.audit.query({ entities: 'all', action: 'calls.deleted' }, 10))).toEqual([3, 1]);
      expect(ids(await store.audit.query({ entities: 'all', entity: 'other' }, 10))).toEqual([3]);
      expect(ids(await store.audit.query({ entities: 'all', projectId: 'acme/support' }, 10))).toEqual([2, 1]);
      expect(ids(await store.audit.query({ entities: 'all', since: T0 + 2, until: T0 + 4 }, 10))).toEqual([3, 2]);
    });

    it('shows an entity-scoped reader only the rows of its entities (rows of no entity are not theirs)', async () => {
      expect((await store.audit.query({ entities: ['acme'] }, 10)).map((r) => r.seq)).toEqual([2, 1]);
      expect(await store.audit.query({ entities: [] }, 10)).toEqual([]);
      expect((await collect(store.audit.stream({ entities: ['other'] }))).map((r) => r.seq)).toEqual([3]);
    });

    it('pages by cursor without repeating or skipping a row, and streams the same order', async () => {
      const page1 = await store.audit.query({ entities: 'all' }, 3);
      const last = page1.at(-1)!;
      const page2 = await store.audit.query({ entities: 'all' }, 3, { time: last.time, id: last.id });
      expect([...page1, ...page2].map((r) => r.seq)).toEqual([4, 3, 2, 1]);
      expect((await collect(store.audit.stream({ entities: 'all' }))).map((r) => r.seq)).toEqual([4, 3, 2, 1]);
    });

    it('keeps one chain whole under concurrent appends', async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.audit.append(entry({ details: { count: i } }), T0 + 10 + i)));
      const verdicts = await verifyAll(store);
      expect(verdicts.every((v) => v.ok)).toBe(true);
      expect(verdicts.reduce((n, v) => n + v.rows, 0)).toBe(24);
    });

    it('sweeps rows older than the cutoff; the chain then verifies from the oldest kept row', async () => {
      expect(await store.audit.sweep(T0 + 3)).toBe(2);
      expect((await store.audit.query({ entities: 'all', until: T0 + 5 }, 10)).map((r) => r.seq)).toEqual([4, 3]);
      const [verdict] = await verifyAll(store, true);
      expect(verdict).toMatchObject({ ok: true, rows: 22, anchor: { seq: 3, time: T0 + 3 } });
      // Without retention, rows missing at the start are a break.
      expect((await verifyAll(store, false))[0]).toMatchObject({ ok: false, id: written[2]!.id });
      // The chain goes on from its head.
      const next = await store.audit.append(entry(), T0 + 100);
      expect(next.seq).toBe(25);
      expect((await verifyAll(store, true))[0]).toMatchObject({ ok: true, rows: 23 });
    });
  });

  describe('AuditStore conformance: several writers on one database', () => {
    it('every chain verifies alone and no row is lost', async () => {
      const { a, b, close } = await openPair();
      try {
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => [
            a.audit.append(entry({ target: `a${i}` }), T0 + i),
            b.audit.append(entry({ target: `b${i}` }), T0 + i),
          ]).flat(),
        );
        const verdicts = await verifyAll(a);
        expect(verdicts.length).toBeGreaterThan(0);
        expect(verdicts.every((v) => v.ok)).toBe(true);
        expect(verdicts.reduce((n, v) => n + v.rows, 0)).toBe(20);
        expect((await a.audit.query({ entities: 'all' }, 100)).map((r) => r.target).sort()).toHaveLength(20);
      } finally {
        await close();
      }
    });
  });
}
