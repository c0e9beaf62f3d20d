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

    it('reads only the columns asked for, with the ones every call carries', async () => {
      const C = `${P}-columns`;
      await store.calls.writeCalls([startWrite(C, 'cols'), endWrite(C, 'cols', { summaryJson: '{"x":1}' })]);
      const full = (await read('cols', C)) as CallRecord;
      const some = await store.calls.readCall({ projectId: C, id: 'cols', columns: ['output', 'ended_at'] });
      expect(some).toMatchObject({ id: 'cols', trace_id: full.trace_id, op_name: 'op', started_at: full.started_at, output: 'ok' });
      expect(some?.ended_at).toBe(full.ended_at);
      // Not loaded: the empty values of an unloaded column (query/callRow.ts).
      expect(some?.inputs).toEqual({});
      expect(some?.summary).toEqual({});
      expect(await store.calls.readCall({ projectId: C, id: 'nope', columns: ['output'] })).toBeNull();
    });

    it('treats a retried start or end as the same write', async () => {
      const s = startWrite(P, 'a3', { startedAt: T0 + 2 * SECOND });
      const e = endWrite(P, 'a3', { endedAt: T0 + 3 * SECOND });
      await store.calls.writeCalls([s, e]);
      const once = await read('a3');
      await store.calls.writeCalls([s, e, s]);
      expect(await read('a3')).toEqual(once);
    });

    it('keeps what a re-sent end leaves out: its exception stays, a new output replaces the old', async () => {
      const Q = `${P}-resent`;
      await store.calls.writeCalls([startWrite(Q, 'r1'), endWrite(Q, 'r1', { exception: 'boom', outputJson: '"first"' })]);
      await store.calls.writeCalls([endWrite(Q, 'r1', { exception: null, outputJson: '"second"' })]);
      const c = (await read('r1', Q)) as CallRecord;
      expect(c.exception).toBe('boom');
      expect(c.output).toBe('second');
    });

    it('means the same when the re-sent parts come in the same batch as the first ones', async () => {
      // One upsert_batch, or several requests merged by a group commit (docs/clickhouse.md "Small writes").
      const Q = `${P}-resent-batch`;
      await store.calls.writeCalls([
        startWrite(Q, 'r2', { displayName: 'named' }),
        endWrite(Q, 'r2', { exception: 'boom', outputJson: '"first"' }),
        startWrite(Q, 'r2', { displayName: null }),
        endWrite(Q, 'r2', { exception: null, outputJson: '"second"' }),
      ]);
      const c = (await read('r2', Q)) as CallRecord;
      expect(c).toMatchObject({ display_name: 'named', exception: 'boom', output: 'second' });
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

    it("reads one input of many parents' live children, in start order, as JSON text", async () => {
      const C = `${P}-inputs`;
      const child = (id: string, parentId: string, s: number, inputsJson: string) =>
        startWrite(C, id, { parentId, traceId: 'root', startedAt: T0 + s * SECOND, opName: `op-${id}`, inputsJson });
      await store.calls.writeCalls([
        child('late', 'p1', 3, '{"q":"hi"}'),
        child('mid-b', 'p1', 2, '{"example":{"a":1.5,"b":[1,"x",null]}}'),
        child('mid-a', 'p2', 2, '{"example":"weave:///e/p/object/d:v/attr/rows/id/abc"}'),
        child('early', 'p1', 1, '{"example":7}'),
        child('gone', 'p1', 1, '{"example":1}'),
        child('elsewhere', 'p3', 1, '{"example":2}'),
        endWrite(C, 'unstarted'),
      ]);
      await store.calls.deleteCalls({ projectId: C, ids: ['gone'], deletedAt: T0 + 9 * SECOND });
      const read = await store.calls.childInputs({ projectId: C, parentIds: ['p1', 'p2'], key: 'example' });
      expect(read.map((r) => ({ ...r, input: r.input === null ? null : (JSON.parse(r.input) as unknown) }))).toEqual([
        { id: 'early', parent_id: 'p1', op_name: 'op-early', input: 7 },
        { id: 'mid-a', parent_id: 'p2', op_name: 'op-mid-a', input: 'weave:///e/p/object/d:v/attr/rows/id/abc' },
        { id: 'mid-b', parent_id: 'p1', op_name: 'op-mid-b', input: { a: 1.5, b: [1, 'x', null] } },
        { id: 'late', parent_id: 'p1', op_name: 'op-late', input: null },
      ]);
      expect(await store.calls.childInputs({ projectId: C, parentIds: [], key: 'example' })).toEqual([]);
      await expect(store.calls.childInputs({ projectId: C, parentIds: ['p1'], key: "x') OR 1" })).rejects.toThrow();
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

    it('pages by start time exactly in a large project: deleted newest traces, ties, a late start, a filter', async () => {
      // Enough calls that a store may read pages from the newest starts only (and has to look
      // further back when the newest are deleted or filtered out).
      const L = `${P}-pages`;
      const live = new Map<string, { at: number; root: boolean; op: string }>();
      const writes = [];
      for (let i = 0; i < 2000; i++) {
        // Pairs of roots start together, and each child with its root: ties everywhere.
        const at = T0 + Math.floor(i / 2) * SECOND;
        const root = `r${String(i).padStart(4, '0')}`;
        writes.push(startWrite(L, root, { startedAt: at }), startWrite(L, `${root}-c`, { startedAt: at, parentId: root, opName: 'child' }));
        live.set(root, { at, root: true, op: 'op' }).set(`${root}-c`, { at, root: false, op: 'child' });
      }
      await store.calls.writeCalls(writes);
      const doomed = [...live.keys()].filter((id) => !id.endsWith('-c')).slice(-250);
      await store.calls.deleteCalls({ projectId: L, ids: doomed, deletedAt: T0 });
      for (const id of doomed) for (const gone of [id, `${id}-c`]) live.delete(gone);
      // A newest root whose end came first.
      await store.calls.writeCalls([endWrite(L, 'late', { endedAt: T0 + 5000 * SECOND })]);
      await store.calls.writeCalls([startWrite(L, 'late', { startedAt: T0 + 4000 * SECOND })]);
      live.set('late', { at: T0 + 4000 * SECOND, root: true, op: 'op' });

      const expected = (keep: (c: { root: boolean; op: string }) => boolean, dir: 1 | -1, offset: number, limit: number) =>
        [...live]
          .filter(([, c]) => keep(c))
          .sort(([a, x], [b, y]) => dir * (x.at - y.at) || (a < b ? -1 : 1))
          .slice(offset, offset + limit)
          .map(([id]) => id);
      const page = async (q: Omit<Parameters<Store['calls']['queryCalls']>[0], 'projectId'>) => {
        const out: string[] = [];
        for await (const c of store.calls.queryCalls({ projectId: L, ...q })) out.push(c.id);
        return out;
      };
      const desc = [{ field: 'started_at', direction: 'desc' as const }];
      expect(await page({ filter: { trace_roots_only: true }, sortBy: desc, limit: 50 })).toEqual(expected((c) => c.root, -1, 0, 50));
      expect(await page({ sortBy: desc, limit: 40, offset: 25 })).toEqual(expected(() => true, -1, 25, 40));
      expect(await page({ sortBy: [{ field: 'started_at', direction: 'asc' }], limit: 30, offset: 20 })).toEqual(
        expected(() => true, 1, 20, 30),
      );
      expect(await page({ filter: { op_names: ['child'] }, sortBy: desc, limit: 10 })).toEqual(
        expected((c) => c.op === 'child', -1, 0, 10),
      );
    });
  });
}
