/**
 * Conformance suite for TablesStore: content-addressed rows, tables as ordered digest lists,
 * reads in table order across chunk boundaries, filters, JSON-path sorting and stats. Every
 * backend's test file calls `describeTablesConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store, TableRowsQuery } from '../Store.js';

const row = (i: number) => ({ digest: `r${String(i).padStart(42, '0')}`, valJson: JSON.stringify({ i, group: i % 3, name: `n${i}` }) });

export function describeTablesConformance(open: OpenStore): void {
  describe('TablesStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const collect = async (q: TableRowsQuery) => {
      const out = [];
      for await (const r of store.tables.queryRows(q)) out.push(r);
      return out;
    };

    // 2,500 rows, so reads cross the backend's chunk boundaries (SQLite keeps 1,000 per chunk).
    const big = Array.from({ length: 2500 }, (_, i) => row(i));
    beforeAll(async () => {
      await store.tables.createTable({ projectId: 'e/big', digest: 'big', rowDigests: big.map((r) => r.digest), rows: big, createdAt: 1 });
    });

    it('reads a table back in order with positions, and its digest list', async () => {
      const rows = await collect({ projectId: 'e/big', digest: 'big' });
      expect(rows.map((r) => r.originalIndex)).toEqual(big.map((_, i) => i));
      expect(rows[1234]).toEqual({ digest: big[1234]!.digest, valJson: big[1234]!.valJson, originalIndex: 1234 });
      expect(await store.tables.readRowDigests({ projectId: 'e/big', digest: 'big' })).toEqual(big.map((r) => r.digest));
      expect(await store.tables.readRowDigests({ projectId: 'e/big', digest: 'nope' })).toBeNull();
    });

    it('pages across chunk boundaries', async () => {
      const page = await collect({ projectId: 'e/big', digest: 'big', offset: 998, limit: 1004 });
      expect(page.map((r) => r.originalIndex)).toEqual(Array.from({ length: 1004 }, (_, i) => 998 + i));
      expect(await collect({ projectId: 'e/big', digest: 'big', offset: 2499, limit: 5 })).toHaveLength(1);
      expect(await collect({ projectId: 'e/big', digest: 'big', limit: 0 })).toEqual([]);
    });

    it('filters by row digest, paging within the filtered rows', async () => {
      const wanted = [big[5]!.digest, big[1500]!.digest, big[2400]!.digest];
      const rows = await collect({ projectId: 'e/big', digest: 'big', rowDigests: wanted, offset: 1 });
      expect(rows.map((r) => r.originalIndex)).toEqual([1500, 2400]);
    });

    it('sorts by JSON paths, ties in table order', async () => {
      const rows = await collect({
        projectId: 'e/big',
        digest: 'big',
        sortBy: [
          { path: ['group'], direction: 'desc' },
          { path: ['i'], direction: 'desc' },
        ],
        limit: 3,
      });
      expect(rows.map((r) => r.originalIndex)).toEqual([2498, 2495, 2492]);
      const byGroup = await collect({
        projectId: 'e/big',
        digest: 'big',
        sortBy: [{ path: ['group'], direction: 'asc' }],
        offset: 1,
        limit: 2,
      });
      expect(byGroup.map((r) => r.originalIndex)).toEqual([3, 6]);
    });

    it('stores a repeated row once and keeps each position', async () => {
      const [a, b] = [row(1), row(2)];
      await store.tables.createTable({
        projectId: 'e/dup',
        digest: 't',
        rowDigests: [a.digest, b.digest, a.digest],
        rows: [a, b, a],
        createdAt: 1,
      });
      await store.tables.createTable({
        projectId: 'e/dup',
        digest: 't',
        rowDigests: [a.digest, b.digest, a.digest],
        rows: [a, b, a],
        createdAt: 2,
      });
      const rows = await collect({ projectId: 'e/dup', digest: 't' });
      expect(rows.map((r) => [r.digest, r.originalIndex])).toEqual([
        [a.digest, 0],
        [b.digest, 1],
        [a.digest, 2],
      ]);
      expect(await store.tables.readRows({ projectId: 'e/dup', digests: [b.digest, 'unknown'] })).toEqual(new Map([[b.digest, b.valJson]]));
    });

    it('leaves out digests without a stored row, keeping positions', async () => {
      const a = row(7);
      await store.tables.createTable({ projectId: 'e/ghost', digest: 'g', rowDigests: ['missing', a.digest], rows: [a], createdAt: 1 });
      expect((await collect({ projectId: 'e/ghost', digest: 'g' })).map((r) => r.originalIndex)).toEqual([1]);
    });

    it('counts rows and sizes known tables only, scoped to the project', async () => {
      const stats = await store.tables.tableStats({ projectId: 'e/dup', digests: ['t', 'nope'], includeStorageSize: true });
      expect(stats).toEqual([{ digest: 't', count: 3, storageSizeBytes: 2 * row(1).valJson.length + row(2).valJson.length }]);
      expect(await store.tables.tableStats({ projectId: 'e/dup', digests: ['t'], includeStorageSize: false })).toEqual([
        { digest: 't', count: 3, storageSizeBytes: null },
      ]);
      expect(await store.tables.tableStats({ projectId: 'e/other', digests: ['t'], includeStorageSize: false })).toEqual([]);
      expect(await collect({ projectId: 'e/other', digest: 't' })).toEqual([]);
    });
  });
}
