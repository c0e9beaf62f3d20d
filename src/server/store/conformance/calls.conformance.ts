/**
 * Conformance suite for call writes, reads and deletes: starts and ends merge in either order,
 * retries are idempotent, renames stick, deletes walk descendants, and counts agree with reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { CallRecord, Store } from '../Store.js';
import { endWrite, SECOND, startWrite, T0 } from './callWrites.js';

const P = 'acme/calls';

export function describeCallsConformance(open: OpenStore): void {
  describe('CallsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const read = (id: string, projectId = P) => store.calls.readCall({ projectId, id });
    const ids = async (projectId: string): Promise<string[]> => {
      const out: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId, sortBy: [{ field: 'started_at', direction: 'asc' }] })) out.push(c.id);
      return out;
    };

    it('merges a start and an end into one call', async () => {
      await store.calls.writeCalls([startWrite(P, 'a1'), endWrite(P, 'a1', { summaryJson: '{"x":1}' })]);
      const c = (await read('a1')) as CallRecord;
      expect(c.op_name).toBe('op');
      expect(c.inputs).toEqual({ q: 'hi' });
      expect(c.output).toBe('ok');
      expect(c.ended_at).not.toBeNull();
      expect(c.summary).toMatchObject({ x: 1 });
    });

    it('keeps an end that arrives before its start, and hides the call until the start comes', async () => {
      await store.calls.writeCalls([endWrite(P, 'a2', { outputJson: '"early"' })]);
      expect(await read('a2')).toBeNull();
      expect(await ids(`${P}-none`)).toEqual([]);
      await store.calls.writeCalls([startWrite(P, 'a2', { startedAt: T0 + SECOND })]);
      expect((await read('a2'))?.output).toBe('early');
    });

    it('treats a retried start or end as the same write', async () => {
      const s = startWrite(P, 'a3', { startedAt: T0 + 2 * SECOND });
      const e = endWrite(P, 'a3', { endedAt: T0 + 3 * SECOND });
      await store.calls.writeCalls([s, e]);
      const once = await read('a3');
      await store.calls.writeCalls([s, e, s]);
      expect(await read('a3')).toEqual(once);
    });

    it('renames a call, before or after it ended, and ignores unknown ids', async () => {
      await store.calls.updateCallDisplayName({ projectId: P, id: 'a1', displayName: 'renamed' });
      await store.calls.updateCallDisplayName({ projectId: P, id: 'nope', displayName: 'x' });
      expect((await read('a1'))?.display_name).toBe('renamed');
      expect(await read('nope')).toBeNull();
    });

    it('deletes a call with all its descendants and says how many', async () => {
      const D = `${P}-del`;
      await store.calls.writeCalls([
        startWrite(D, 'root'),
        startWrite(D, 'child', { parentId: 'root', traceId: 'root' }),
        startWrite(D, 'grandchild', { parentId: 'child', traceId: 'root' }),
        startWrite(D, 'other'),
      ]);
      expect(await store.calls.deleteCalls({ projectId: D, ids: ['root'], deletedAt: T0 + 9 * SECOND })).toBe(3);
      expect(await ids(D)).toEqual(['other']);
      expect(await read('child', D)).toBeNull();
      expect(await store.calls.countCalls({ projectId: D })).toBe(1);
    });

    it('keeps projects apart', async () => {
      expect(await read('a1', 'other/project')).toBeNull();
      expect(await store.calls.countCalls({ projectId: 'other/project' })).toBe(0);
    });

    it('counts what it streams', async () => {
      const all = await ids(P);
      expect(all).toEqual(['a1', 'a2', 'a3']);
      expect(await store.calls.countCalls({ projectId: P })).toBe(all.length);
      expect(await store.calls.countCalls({ projectId: P, limit: 2 })).toBe(2);
    });
  });
}
