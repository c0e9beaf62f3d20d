/**
 * Conformance suite for order-independent, idempotent call writes: the starts, ends and renames
 * of a set of calls, applied in several shuffled orders with some parts sent twice (a client's
 * retry), then deleted, give the same calls as applying them once in order. This is what lets
 * several replicas write the same calls with no coordination (ClickHouse), and what a SQLite
 * server already gives one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { CallRecord, Store } from '../Store.js';
import { endWrite, SECOND, startWrite, T0 } from './callWrites.js';

type Part = (s: Store, projectId: string) => Promise<unknown>;

/** 12 calls in three traces: each a start, most an end, some a rename. */
function parts(): Part[] {
  const out: Part[] = [];
  for (let i = 0; i < 12; i++) {
    const id = `c${String(i).padStart(2, '0')}`;
    const root = `c${String(i - (i % 4)).padStart(2, '0')}`;
    const parentId = i % 4 === 0 ? null : root;
    out.push((s, p) =>
      s.calls.writeCalls([startWrite(p, id, { parentId, traceId: root, startedAt: T0 + i * SECOND, inputsJson: `{"i":${i}}` })]),
    );
    if (i % 3 !== 2) {
      out.push((s, p) =>
        s.calls.writeCalls([endWrite(p, id, { endedAt: T0 + (i + 5) * SECOND, outputJson: `${i * 10}`, summaryJson: `{"n":${i}}` })]),
      );
    }
    if (i % 5 === 0) out.push((s, p) => s.calls.updateCallDisplayName({ projectId: p, id, displayName: `name ${i}` }));
  }
  return out;
}

/** A seeded shuffle (mulberry32), so a failing order can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function describeOrderIndependenceConformance(open: OpenStore): void {
  describe('call writes in any order, retried', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const calls = async (projectId: string) => {
      const out: Omit<CallRecord, 'project_id'>[] = [];
      for await (const { project_id: _, ...c } of store.calls.queryCalls({ projectId, sortBy: [{ field: 'id', direction: 'asc' }] })) {
        out.push(c);
      }
      return out;
    };

    it('converge to the in-order result, before and after a delete', async () => {
      const all = parts();
      for (const part of all) await part(store, 'e/in-order');
      await store.calls.deleteCalls({ projectId: 'e/in-order', ids: ['c04'], deletedAt: T0 + 99 * SECOND });
      const expected = await calls('e/in-order');
      expect(expected).toHaveLength(8); // c04 and its three children are gone
      expect(expected.find((c) => c.id === 'c10')).toMatchObject({ display_name: 'name 10', output: 100, summary: { n: 10 } });

      for (const seed of [1, 2, 3]) {
        const p = `e/shuffled-${seed}`;
        // Every third part is sent twice, as a client retrying after a lost answer would.
        const order = shuffled(
          all.flatMap((part, i) => (i % 3 === 0 ? [part, part] : [part])),
          seed,
        );
        // Two at a time, as two replicas would write.
        for (let i = 0; i < order.length; i += 2) await Promise.all(order.slice(i, i + 2).map((part) => part(store, p)));
        await store.calls.deleteCalls({ projectId: p, ids: ['c04'], deletedAt: T0 + 99 * SECOND });
        expect(await calls(p)).toEqual(expected);
      }
    });
  });
}
