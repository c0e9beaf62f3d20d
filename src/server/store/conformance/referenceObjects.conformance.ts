/**
 * The reference's own tests of objects, tables and refs, re-sent over HTTP as its Python client
 * sends them, for every backend: tests/trace/test_objs_query.py, test_obj_delete.py and
 * test_table_query.py (public wandb/weave). Which reference test each case ports, and where Weft
 * deliberately differs, is listed in docs/reference/coverage.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';
import type { TestBackend } from '../../testing/tempStore.js';
import type { PyJson } from '../../testing/pythonClient.js';
import { referenceHttp } from './referenceHttp.js';

export function describeReferenceObjectsConformance(backend: TestBackend): void {
  describe('reference tests: objects, tables, refs', () => {
    const t = useTestServer({ env: backend.serverEnv });
    const http = referenceHttp(t);

    /** `weave.publish(val, name=...)`: the digest of the new (or existing) version. */
    const publish = async (P: string, object_id: string, val: unknown): Promise<string> =>
      (await http.ok('/obj/create', { obj: { project_id: P, object_id, val } })).digest;
    const objs = async (P: string, req: Record<string, unknown> = {}) =>
      (await http.ok('/objs/query', { project_id: P, ...req })).objs as PyJson[];
    const versionsOf = (P: string, object_id: string) =>
      objs(P, { filter: { object_ids: [object_id] }, sort_by: [{ field: 'created_at', direction: 'asc' }] });
    const del = (P: string, object_id: string, digests: string[] | null) => http.post('/obj/delete', { project_id: P, object_id, digests });

    describe('test_objs_query.py', () => {
      // generate_objects: obj_<i> gets versions {i, j} for j in 0..n-1, in that order.
      let P: string;
      const OBJS = 6;
      const VERSIONS = 4;
      beforeAll(async () => {
        P = http.project('objs');
        for (let i = 0; i < OBJS; i++) for (let j = 0; j < VERSIONS; j++) await publish(P, `obj_${i}`, { i, j });
      });

      it('test_objs_query_all and filter_object_ids', async () => {
        expect(await objs(P)).toHaveLength(OBJS * VERSIONS);
        const some = await objs(P, { filter: { object_ids: ['obj_0', 'obj_1'] } });
        expect(some).toHaveLength(2 * VERSIONS);
        expect(new Set(some.map((o) => o.object_id))).toEqual(new Set(['obj_0', 'obj_1']));
      });

      it('test_objs_query_filter_is_op', async () => {
        expect(await objs(P, { filter: { is_op: true } })).toHaveLength(0);
        expect(await objs(P, { filter: { is_op: false } })).toHaveLength(OBJS * VERSIONS);
      });

      it('test_objs_query_filter_latest_only', async () => {
        const latest = await objs(P, { filter: { latest_only: true } });
        expect(latest).toHaveLength(OBJS);
        for (const o of latest) {
          expect(o.is_latest).toBe(1);
          expect(o.val.j).toBe(VERSIONS - 1);
        }
      });

      it.each([
        ['created_at', 'desc', [2, 1, 0]],
        ['created_at', 'asc', [3, 4, 5]],
        ['object_id', 'desc', [2, 1, 0]],
        ['object_id', 'asc', [3, 4, 5]],
      ] as const)('test_objs_query_filter_limit_offset_sort_by %s %s', async (field, direction, expectedI) => {
        const page = await objs(P, { filter: { latest_only: true }, limit: 3, offset: 3, sort_by: [{ field, direction }] });
        expect(page.map((o) => o.val)).toEqual(expectedI.map((i) => ({ i, j: VERSIONS - 1 })));
        expect(page.every((o) => o.is_latest === 1)).toBe(true);
      });

      it('test_objs_query_filter_metadata_only', async () => {
        const meta = await objs(P, { filter: { latest_only: true }, metadata_only: true });
        expect(meta).toHaveLength(OBJS);
        for (const o of meta) expect(o.val).toEqual({});
        const full = await objs(P, { filter: { latest_only: true }, metadata_only: false });
        for (const o of full) expect(o.val).toMatchObject({ j: VERSIONS - 1 });
      });

      it('test_objs_query_wb_user_id: every version carries the writer', async () => {
        const all = await objs(P, { filter: { object_ids: ['obj_1'] } });
        expect(all).toHaveLength(VERSIONS);
        const users = new Set(all.map((o) => o.wb_user_id));
        expect(users.size).toBe(1);
        expect([...users][0]).toEqual(expect.any(String));
      });
    });

    describe('test_obj_delete.py (deleted_versions aside)', () => {
      it('test_delete_object_versions: one, then the same again (404), then two', async () => {
        const P = http.project('del');
        const [v0, v1, v2] = [
          await publish(P, 'obj_1', { i: 1 }),
          await publish(P, 'obj_1', { i: 2 }),
          await publish(P, 'obj_1', { i: 3 }),
        ];
        expect(await versionsOf(P, 'obj_1')).toHaveLength(3);
        expect(await del(P, 'obj_1', [v0])).toMatchObject({ status: 200, body: { num_deleted: 1 } });
        expect(await versionsOf(P, 'obj_1')).toHaveLength(2);
        expect((await del(P, 'obj_1', [v0])).status).toBe(404);
        expect(await del(P, 'obj_1', [v1, v2])).toMatchObject({ status: 200, body: { num_deleted: 2 } });
        expect(await versionsOf(P, 'obj_1')).toHaveLength(0);
      });

      it('test_delete_all_object_versions and test_delete_nonexistent_object_id', async () => {
        const P = http.project('del');
        for (const i of [1, 2, 3]) await publish(P, 'obj_1', { i });
        expect(await del(P, 'obj_1', null)).toMatchObject({ status: 200, body: { num_deleted: 3 } });
        expect(await versionsOf(P, 'obj_1')).toHaveLength(0);
        expect((await del(P, 'obj_1', null)).status).toBe(404);
        expect((await del(P, 'nonexistent_obj', null)).status).toBe(404);
      });

      it('test_delete_version_correctness: survivors keep their version_index; the next one counts on', async () => {
        const P = http.project('del');
        const [v0, v1, v2] = [
          await publish(P, 'obj_1', { i: 1 }),
          await publish(P, 'obj_1', { i: 2 }),
          await publish(P, 'obj_1', { i: 3 }),
        ];
        await del(P, 'obj_1', [v1]);
        const shape = async () => (await versionsOf(P, 'obj_1')).map((o) => [o.digest, o.val, o.version_index]);
        expect(await shape()).toEqual([
          [v0, { i: 1 }, 0],
          [v2, { i: 3 }, 2],
        ]);
        const v3 = await publish(P, 'obj_1', { i: 4 });
        expect(await shape()).toEqual([
          [v0, { i: 1 }, 0],
          [v2, { i: 3 }, 2],
          [v3, { i: 4 }, 3],
        ]);
        await del(P, 'obj_1', [v3]);
        expect(await shape()).toEqual([
          [v0, { i: 1 }, 0],
          [v2, { i: 3 }, 2],
        ]);
      });

      it('test_delete_object_max_limit: more than 100 digests is refused, naming the limit', async () => {
        const P = http.project('del');
        const res = await del(
          P,
          'obj_1',
          Array.from({ length: 101 }, (_, i) => `test_${i}`),
        );
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).toContain('100 or fewer');
      });

      it('test_delete_mixed_valid_invalid_digests: 404 naming the missing digest, nothing deleted', async () => {
        const P = http.project('del');
        const [v0, v1] = [await publish(P, 'obj_1', { i: 1 }), await publish(P, 'obj_1', { i: 2 })];
        const res = await del(P, 'obj_1', [v0, 'invalid-digest', v1]);
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).toContain('invalid-digest');
        expect(await versionsOf(P, 'obj_1')).toHaveLength(2);
      });

      it('test_delete_duplicate_digests counts the version once', async () => {
        const P = http.project('del');
        const v0 = await publish(P, 'obj_1', { i: 1 });
        expect(await del(P, 'obj_1', [v0, v0])).toMatchObject({ status: 200, body: { num_deleted: 1 } });
      });

      it('test_delete_with_digest_aliases: "latest" and "v0" name versions', async () => {
        const P = http.project('del');
        const v0 = await publish(P, 'obj_1', { i: 1 });
        await publish(P, 'obj_1', { i: 2 });
        expect(await del(P, 'obj_1', ['latest'])).toMatchObject({ status: 200, body: { num_deleted: 1 } });
        expect((await versionsOf(P, 'obj_1')).map((o) => [o.digest, o.val])).toEqual([[v0, { i: 1 }]]);
        expect(await del(P, 'obj_1', ['v0'])).toMatchObject({ status: 200, body: { num_deleted: 1 } });
        expect(await versionsOf(P, 'obj_1')).toHaveLength(0);
      });

      it('test_delete_and_recreate_object', async () => {
        const P = http.project('del');
        const v0 = await publish(P, 'obj_1', { i: 1 });
        await del(P, 'obj_1', [v0]);
        const v1 = await publish(P, 'obj_1', { i: 2 });
        expect((await versionsOf(P, 'obj_1')).map((o) => [o.digest, o.val])).toEqual([[v1, { i: 2 }]]);
      });

      it.each([[{ i: 1 }], [{ i: 99 }]])('test_republish_after_deleting_all_versions %j', async (val) => {
        const P = http.project('del');
        await publish(P, 'obj_1', { i: 1 });
        await publish(P, 'obj_1', { i: 2 });
        expect(await del(P, 'obj_1', null)).toMatchObject({ body: { num_deleted: 2 } });
        expect(await versionsOf(P, 'obj_1')).toEqual([]);
        const v2 = await publish(P, 'obj_1', val);
        const all = await versionsOf(P, 'obj_1');
        expect(all.map((o) => [o.digest, o.val, o.is_latest])).toEqual([[v2, val, 1]]);
        const latest = await objs(P, { filter: { object_ids: ['obj_1'], latest_only: true } });
        expect(latest.map((o) => [o.digest, o.val])).toEqual([[v2, val]]);
      });

      it('test_republish_dataset_after_deleting_all_versions: by base class and latest_only', async () => {
        const P = http.project('del');
        const dataset = (rows: string) => ({
          _type: 'Dataset',
          _class_name: 'Dataset',
          _bases: ['Object', 'BaseModel'],
          name: 'my_ds',
          rows,
        });
        const r0 = await publish(P, 'my_ds', dataset('weave:///x/y/table/1'));
        await publish(P, 'my_ds', dataset('weave:///x/y/table/2'));
        const datasets = (latest_only: boolean) => objs(P, { filter: { base_object_classes: ['Dataset'], latest_only } });
        expect(await datasets(false)).toHaveLength(2);
        await del(P, 'my_ds', null);
        expect(await datasets(false)).toEqual([]);
        const r2 = await publish(P, 'my_ds', dataset('weave:///x/y/table/1'));
        expect(r2).toBe(r0);
        expect((await datasets(true)).map((o) => [o.object_id, o.digest, o.is_latest])).toEqual([['my_ds', r2, 1]]);
        expect((await datasets(false)).map((o) => o.digest)).toEqual([r2]);
      });

      it('test_read_deleted_object: obj/read answers deleted_at, refs/read_batch null', async () => {
        const P = http.project('del');
        await publish(P, 'obj_1', { i: 1 });
        await publish(P, 'obj_1', { i: 2 });
        const v2 = await publish(P, 'obj_1', { i: 3 });
        await del(P, 'obj_1', [v2]);
        const read = await http.post('/obj/read', { project_id: P, object_id: 'obj_1', digest: v2 });
        expect(read.status).toBe(404);
        expect(JSON.stringify(read.body)).toMatch(/deleted_at/);
        const refs = await http.ok('/refs/read_batch', { refs: [`weave:///${P}/object/obj_1:${v2}`] });
        expect(refs.vals).toEqual([null]);
      });

      it('test_op_versions / test_read_deleted_op: op versions delete like objects', async () => {
        const P = http.project('del');
        const op = (code: string) => ({ _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': code } });
        const d0 = await publish(P, 'my_op', op('a'));
        await publish(P, 'my_op', op('b'));
        const ops = await versionsOf(P, 'my_op');
        expect(ops.map((o) => o.kind)).toEqual(['op', 'op']);
        await del(P, 'my_op', [d0]);
        expect((await versionsOf(P, 'my_op')).map((o) => o.version_index)).toEqual([1]);
        const read = await http.post('/obj/read', { project_id: P, object_id: 'my_op', digest: d0 });
        expect(read.status).toBe(404);
        expect((await http.ok('/refs/read_batch', { refs: [`weave:///${P}/op/my_op:${d0}`] })).vals).toEqual([null]);
        await del(P, 'my_op', ['latest']);
        expect(await versionsOf(P, 'my_op')).toHaveLength(0);
      });
    });

    describe('test_table_query.py', () => {
      // generate_table_data: rows {id, nested_col: {prop_a, prop_b}, col_0..}, ids shuffled.
      const ORDER = [7, 2, 9, 0, 5, 3, 8, 1, 6, 4];
      const row = (i: number) => ({
        id: i,
        nested_col: { prop_a: `value_${String.fromCharCode(97 + ((i * 7) % 10))}`, prop_b: `value_${i % 3}` },
        col_0: `value_${i % 4}`,
        col_1: `value_${i}`,
      });
      const data = ORDER.map(row);
      let P: string;
      let digest: string;
      let rowDigests: string[];
      const query = async (req: Record<string, unknown>) =>
        (await http.ok('/table/query', { project_id: P, digest, ...req })).rows as { val: PyJson; digest: string }[];
      const stats = async (d: string) => (await http.ok('/table/query_stats', { project_id: P, digest: d })).count;
      beforeAll(async () => {
        P = http.project('table');
        ({ digest, row_digests: rowDigests } = await http.ok('/table/create', { table: { project_id: P, rows: data } }));
      });

      it('test_table_query: rows and row digests in table order', async () => {
        const rows = await query({});
        expect(rows.map((r) => r.val)).toEqual(data);
        expect(rows.map((r) => r.digest)).toEqual(rowDigests);
      });

      it('test_table_query_invalid_digest answers no rows', async () => {
        expect(await query({ digest: 'invalid' })).toEqual([]);
      });

      it('test_table_query_filter_by_row_digests and invalid_row_digest', async () => {
        const wanted = rowDigests.slice(2, 5);
        expect((await query({ filter: { row_digests: wanted } })).map((r) => r.digest)).toEqual(wanted);
        expect(await query({ filter: { row_digests: ['invalid'] } })).toEqual([]);
      });

      it('test_table_query_limit and offset', async () => {
        const first = await query({ limit: 5 });
        expect(first.map((r) => r.digest)).toEqual(rowDigests.slice(0, 5));
        expect(first.map((r) => r.val)).toEqual(data.slice(0, 5));
        const rest = await query({ offset: 3 });
        expect(rest.map((r) => r.digest)).toEqual(rowDigests.slice(3));
      });

      it('test_table_query_sort_by_column, nested column, combined and multiple criteria', async () => {
        const byIdDesc = [...data].sort((a, b) => b.id - a.id);
        expect((await query({ sort_by: [{ field: 'id', direction: 'desc' }] })).map((r) => r.val)).toEqual(byIdDesc);
        const byNested = [...data].sort((a, b) => a.nested_col.prop_a.localeCompare(b.nested_col.prop_a));
        expect((await query({ sort_by: [{ field: 'nested_col.prop_a', direction: 'asc' }] })).map((r) => r.val)).toEqual(byNested);
        const page = await query({ limit: 5, offset: 2, sort_by: [{ field: 'id', direction: 'desc' }] });
        expect(page.map((r) => r.val)).toEqual(byIdDesc.slice(2, 7));
        const multi = [...data].sort((a, b) => a.col_0.localeCompare(b.col_0) || b.id - a.id);
        const sorted = await query({
          sort_by: [
            { field: 'col_0', direction: 'asc' },
            { field: 'id', direction: 'desc' },
          ],
        });
        expect(sorted.map((r) => r.val)).toEqual(multi);
      });

      it('test_table_query_stats, _empty and _missing', async () => {
        expect(await stats(digest)).toBe(data.length);
        const empty = await http.ok('/table/create', { table: { project_id: P, rows: [] } });
        expect(await stats(empty.digest)).toBe(0);
        expect(await stats('missing')).toBe(0);
      });

      it('test_table_query_with_duplicate_row_digests: each occurrence is a row', async () => {
        for (const copies of [1, 2, 3]) {
          const rows = Array.from({ length: 10 }, (_, i) => Array.from({ length: copies }, () => ({ val: i }))).flat();
          const made = await http.ok('/table/create', { table: { project_id: P, rows } });
          const read = async (req: Record<string, unknown>) =>
            (await http.ok('/table/query', { project_id: P, digest: made.digest, ...req })).rows as unknown[];
          expect((await read({})).length).toBe(10 * copies);
          expect(await stats(made.digest)).toBe(10 * copies);
          expect(await read({ limit: 100, offset: 0, sort_by: [] })).toHaveLength(10 * copies);
          expect(await read({ filter: { row_digests: [made.row_digests[0]] } })).toHaveLength(copies);
        }
      });
    });
  });
}
