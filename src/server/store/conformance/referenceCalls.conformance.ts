/**
 * The reference's own tests of calls, refs and files beyond the query language, re-sent over HTTP
 * as its Python client sends them, for every backend: tests/trace/test_weave_client.py (public
 * wandb/weave) — deletes with descendants, renames, limit/offset with their counts, refs read in a
 * batch, large files. What differs is in docs/reference/coverage.md.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { pyCallsQueryReq, pyEndedCall, pyStartedCall, type PyJson } from '../../testing/pythonClient.js';
import { referenceHttp } from './referenceHttp.js';

export function describeReferenceCallsConformance(backend: TestBackend): void {
  describe('reference tests: calls, refs and files', () => {
    const t = useTestServer({ env: backend.serverEnv });
    const http = referenceHttp(t);

    let clock = 0;
    /** Starts a call as `client.create_call` does: a fresh trace for a root, the parent's otherwise. */
    const start = async (P: string, id: string, op: string, inputs: unknown, parent?: { id: string; trace: string }) => {
      const started_at = new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString();
      await http.ok('/call/start', {
        start: pyStartedCall({
          project_id: P,
          id,
          op_name: op,
          trace_id: parent?.trace ?? `trace-${id}`,
          parent_id: parent?.id ?? null,
          started_at,
          inputs,
        }),
      });
      return { id, trace: parent?.trace ?? `trace-${id}` };
    };
    const calls = async (P: string, over: Record<string, unknown> = {}) =>
      (await http.ok('/calls/stream_query', pyCallsQueryReq({ project_id: P, ...over }))) as PyJson[];
    const count = async (P: string, over: Record<string, unknown> = {}) =>
      (
        await http.ok('/calls/query_stats', {
          project_id: P,
          filter: null,
          query: null,
          limit: null,
          include_total_storage_size: false,
          expand_columns: null,
          ...over,
        })
      ).count as number;
    const del = (P: string, call_ids: string[]) => http.post('/calls/delete', { project_id: P, call_ids, wb_user_id: null });
    const rename = (P: string, call_id: string, display_name: string) =>
      http.ok('/call/update', { project_id: P, call_id, display_name, wb_user_id: null });
    const read = async (P: string, id: string) => (await http.ok('/call/read', { project_id: P, id, include_costs: false })).call as PyJson;

    describe('test_weave_client.py', () => {
      it('test_calls_delete: a delete takes the descendants, not the parent; deleting again is a no-op', async () => {
        const P = http.project('calls');
        const call0 = await start(P, 'c0', 'x', { a: 5, b: 10 });
        const child1 = await start(P, 'c0-1', 'x', { a: 5, b: 11 }, call0);
        const child2 = await start(P, 'c0-2', 'x', { a: 5, b: 12 }, child1);
        // The client's call stack makes the next call a child of the innermost open one.
        await start(P, 'c1', 'y', { a: 6, b: 11 }, child2);
        expect(await calls(P)).toHaveLength(4);
        const ofOp = async (op: string) => (await calls(P, { filter: { op_names: [op] } })).length;
        expect(await ofOp('x')).toBe(3);

        expect((await del(P, ['c0-1'])).status).toBe(200);
        expect(await ofOp('x')).toBe(1);
        expect(await ofOp('y')).toBe(0);

        expect((await del(P, ['c0-1'])).status).toBe(200);
        expect((await del(P, ['c1'])).status).toBe(200);
        expect((await del(P, ['c1'])).status).toBe(200);
        expect((await calls(P)).map((c) => c.id)).toEqual(['c0']);
      });

      it('test_delete_calls: several ids at once, idempotent, an empty list deletes nothing', async () => {
        const P = http.project('calls');
        for (const [i, id] of ['a', 'b', 'c'].entries()) await start(P, id, 'my_op', { a: i + 1 });
        expect(await calls(P)).toHaveLength(3);
        for (let round = 0; round < 2; round++) {
          expect((await del(P, ['a', 'b'])).status).toBe(200);
          expect((await calls(P)).map((c) => c.id)).toEqual(['c']);
        }
        expect((await del(P, [])).status).toBe(200);
        expect((await calls(P)).map((c) => c.id)).toEqual(['c']);
        expect((await del(P, ['c'])).status).toBe(200);
        expect(await calls(P)).toEqual([]);
      });

      it('test_call_display_name: renames; the client removes a name by sending "", which reads back as null', async () => {
        const P = http.project('calls');
        await start(P, 'c0', 'x', { a: 5, b: 10 });
        await rename(P, 'c0', 'updated_name');
        expect(await calls(P)).toHaveLength(1);
        await rename(P, 'c0', 'new_name');
        expect((await calls(P)).map((c) => c.display_name)).toEqual(['new_name']);
        for (let round = 0; round < 2; round++) {
          await rename(P, 'c0', '');
          expect((await read(P, 'c0')).display_name).toBeNull();
          await rename(P, 'c0', 'new new name');
          expect((await read(P, 'c0')).display_name).toBe('new new name');
        }
      });

      it('test_get_calls_len: query_stats counts honour limit (the client subtracts an offset itself)', async () => {
        const P = http.project('calls');
        for (let i = 0; i < 10; i++) await start(P, `c${i}`, 'x', { a: i });
        expect(await count(P)).toBe(10);
        expect(await count(P, { limit: 5 })).toBe(5);
        expect(await count(P, { limit: 10 })).toBe(10);
        expect(await count(P, { limit: 20 })).toBe(10);
      });

      it('test_get_calls_limit_offset: pages sorted by an input', async () => {
        const P = http.project('calls');
        // Started in reverse, so the input sort and not the start order decides.
        for (let i = 9; i >= 0; i--) await start(P, `c${i}`, 'x', { a: i });
        const sort_by = [{ field: 'inputs.a', direction: 'asc' }];
        const as = async (over: Record<string, unknown>) => (await calls(P, { sort_by, ...over })).map((c) => c.inputs.a);
        expect(await as({ limit: 3 })).toEqual([0, 1, 2]);
        expect(await as({ limit: 5, offset: 5 })).toEqual([5, 6, 7, 8, 9]);
        expect(await as({ offset: 9 })).toEqual([9]);
        expect(await as({})).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      });
    });

    describe('test_weave_client.py: calls query', () => {
      const end = (P: string, id: string, secs: number, over: Record<string, unknown> = {}) =>
        http.ok('/call/end', {
          end: pyEndedCall({
            project_id: P,
            id,
            ended_at: new Date(Date.UTC(2026, 0, 1) + clock * 1000 + secs * 1000).toISOString(),
            output: null,
            summary: {},
            ...over,
          }),
        });
      const eq = (field: string, value: unknown) => ({ $eq: [{ $getField: field }, { $literal: value }] });
      const contains = (field: string, substr: string) => ({ $contains: { input: { $getField: field }, substr: { $literal: substr } } });
      const names = async (P: string, expr: unknown) => (await calls(P, { query: { $expr: expr } })).map((c) => c.inputs.name as string);

      it('test_calls_query_filter_by_strings: $contains, $in, string literals against numbers and booleans', async () => {
        const P = http.project('calls');
        const test_id = 'tid';
        const rows: [string, string[], number, string][] = [
          ['alpha_test', ['frontend', 'ui'], 100, 'True'],
          ['beta_test', ['backend', 'api'], 200, 'False'],
          ['gamma_test', ['frontend', 'mobile'], 300, 'True'],
          ['delta_test', ['backend', 'database'], 400, 'False'],
          ['epsilon_test', ['frontend', 'api'], 500, 'True'],
        ];
        for (const [name, tags, value, active] of rows) {
          const inputs = { test_id, name, tags, value, active };
          await start(P, name, 'test_op', inputs);
          await end(P, name, 1, { output: inputs });
        }
        for (let i = 0; i < 5; i++) await start(P, `dummy${i}`, 'dummy_op', {});
        const mine = eq('inputs.test_id', test_id);
        expect(await names(P, mine)).toHaveLength(5);
        expect(await names(P, { $and: [mine, contains('inputs.name', 'test')] })).toHaveLength(5);
        expect(await names(P, { $and: [mine, contains('inputs.name', 'alpha')] })).toEqual(['alpha_test']);
        const inList = { $in: [{ $getField: 'inputs.name' }, [{ $literal: 'delta_test' }, { $literal: 'gamma_test' }]] };
        expect(await names(P, { $and: [mine, inList] })).toEqual(['gamma_test', 'delta_test']);
        expect(await names(P, { $and: [mine, eq('inputs.active', 'True')] })).toEqual(['alpha_test', 'gamma_test', 'epsilon_test']);
        const gt300 = { $gt: [{ $getField: 'inputs.value' }, { $literal: '300' }] };
        expect(
          await names(P, { $and: [mine, { $or: [contains('inputs.name', 'alpha'), contains('inputs.name', 'beta'), gt300] }] }),
        ).toEqual(['alpha_test', 'beta_test', 'delta_test', 'epsilon_test']);
        expect(await names(P, { $and: [mine, contains('inputs.name', 'epsilon'), eq('inputs.active', 'True')] })).toEqual(['epsilon_test']);
        const nested = {
          $and: [
            mine,
            {
              $or: [
                { $and: [contains('inputs.name', 'alpha'), eq('inputs.active', 'True')] },
                { $and: [contains('inputs.name', 'delta'), eq('inputs.active', 'False')] },
              ],
            },
            { $or: [{ $gte: [{ $getField: 'inputs.value' }, { $literal: '400' }] }, eq('inputs.active', 'True')] },
          ],
        };
        const both = await calls(P, { query: { $expr: nested } });
        expect(both.map((c) => [c.inputs.name, c.output.name])).toEqual([
          ['alpha_test', 'alpha_test'],
          ['delta_test', 'delta_test'],
        ]);
      });

      it('test_calls_default_sort_secondary_id_asc: equal start times order by id ascending', async () => {
        const P = http.project('calls');
        const ids = [
          '00000000-0000-7000-8000-00000000000a',
          '00000000-0000-7000-8000-00000000000b',
          '00000000-0000-7000-8000-00000000000c',
        ];
        // Inserted largest first, so neither insertion order nor chance gives the answer.
        for (const id of [...ids].reverse())
          await http.ok('/call/start', {
            start: pyStartedCall({
              project_id: P,
              id,
              op_name: 'test_secondary_sort',
              trace_id: 'tr',
              started_at: '2025-01-01T12:00:00Z',
              inputs: { call_id: id },
            }),
          });
        const filter = { op_names: ['test_secondary_sort'] };
        expect((await calls(P, { filter })).map((c) => c.id)).toEqual(ids);
        expect((await calls(P, { filter, sort_by: [{ field: 'started_at', direction: 'asc' }] })).map((c) => c.id)).toEqual(ids);
      });

      it('test_calls_query_sort_by_status and test_calls_filter_by_status', async () => {
        const P = http.project('calls');
        await start(P, 'ok', 'x', { a: 1 });
        await end(P, 'ok', 1, { output: 'success result' });
        await start(P, 'err', 'x', { a: 2 });
        await end(P, 'err', 1, { exception: 'ValueError: Test error' });
        await start(P, 'run', 'x', { a: 3 });
        const by = async (direction: string) =>
          (await calls(P, { sort_by: [{ field: 'summary.weave.status', direction }] })).map((c) => c.id);
        expect(await by('asc')).toEqual(['err', 'run', 'ok']);
        expect(await by('desc')).toEqual(['ok', 'run', 'err']);
        for (const [id, status] of [
          ['ok', 'success'],
          ['err', 'error'],
          ['run', 'running'],
        ])
          expect((await calls(P, { filter: { call_ids: [id] } })).map((c) => c.summary.weave.status)).toEqual([status]);
      });

      it('test_calls_query_sort_by_latency and test_calls_filter_by_latency', async () => {
        const P = http.project('calls');
        for (const [id, secs] of [
          ['fast', 0.05],
          ['medium', 0.3],
          ['slow', 0.6],
        ] as const) {
          await start(P, id, 'x', { a: 1 });
          await end(P, id, secs);
        }
        const by = async (direction: string) =>
          (await calls(P, { sort_by: [{ field: 'summary.weave.latency_ms', direction }] })).map((c) => [c.id, c.summary.weave.latency_ms]);
        expect(await by('asc')).toEqual([
          ['fast', 50],
          ['medium', 300],
          ['slow', 600],
        ]);
        expect((await by('desc')).map(([id]) => id)).toEqual(['slow', 'medium', 'fast']);
        expect(
          await calls(P, { query: { $expr: { $gte: [{ $getField: 'summary.weave.latency_ms' }, { $literal: 0.001 }] } } }),
        ).toHaveLength(3);
        expect(await calls(P, { query: { $expr: eq('summary.weave.latency_ms', 10) } })).toHaveLength(0);
      });

      it('test_calls_query_sort_by_display_name_prioritized: trace_name sorts by the display name', async () => {
        const P = http.project('calls');
        for (const [id, name] of [
          ['c', 'C-display'],
          ['a', 'A-display'],
          ['b', 'B-display'],
        ] as const) {
          await start(P, id, 'same_op_name', { test_id: 't' });
          await rename(P, id, name);
          await end(P, id, 1, { output: 'result' });
        }
        const by = async (direction: string) =>
          (await calls(P, { sort_by: [{ field: 'summary.weave.trace_name', direction }] })).map((c) => c.display_name);
        expect(await by('asc')).toEqual(['A-display', 'B-display', 'C-display']);
        expect(await by('desc')).toEqual(['C-display', 'B-display', 'A-display']);
      });

      it('test_calls_query_hardcoded_filter_length_validation: more than 1000 ids is refused, naming the field and the limit', async () => {
        const P = http.project('calls');
        for (const field of ['call_ids', 'op_names', 'input_refs', 'output_refs', 'parent_ids', 'trace_ids']) {
          const res = await http.post(
            '/calls/stream_query',
            pyCallsQueryReq({ project_id: P, filter: { [field]: Array(1001).fill('11111') } }),
          );
          // The reference answers 400 {reason}; Weft 422 {detail} naming the field (docs/reference/coverage.md).
          expect(res.status, field).toBe(422);
          expect(res.body.detail[0], field).toMatchObject({ loc: ['body', 'filter', field], msg: expect.stringContaining('1000') });
        }
      });

      it('test_calls_query_datetime_optimization_with_gt_operation: started_at and ended_at against epoch seconds', async () => {
        const P = http.project('calls');
        const ts: number[] = [];
        const ends: number[] = [];
        for (const id of ['c1', 'c2', 'c3', 'c4']) {
          await start(P, id, 'x', { test_id: 't' });
          await end(P, id, 0.5);
          ts.push(Date.UTC(2026, 0, 1) / 1000 + clock);
          ends.push(ts.at(-1)! + 0.5);
        }
        const ids = async (...conds: unknown[]) =>
          (await calls(P, { query: { $expr: { $and: [eq('inputs.test_id', 't'), ...conds] } } })).map((c) => c.id);
        const cmp = (op: string, field: string, value: number) => ({ [op]: [{ $getField: field }, { $literal: value }] });
        expect(await ids(cmp('$gt', 'started_at', ts[1]!))).toEqual(['c3', 'c4']);
        expect(await ids(cmp('$gt', 'ended_at', ends[1]!))).toEqual(['c3', 'c4']);
        expect(await ids(cmp('$gt', 'started_at', (ts[1]! + ts[2]!) / 2))).toEqual(['c3', 'c4']);
        expect(await ids(cmp('$lt', 'started_at', ts[2]!))).toEqual(['c1', 'c2']);
        expect(await ids(cmp('$gt', 'started_at', ts[3]! + 1000))).toEqual([]);
        expect(await ids(cmp('$gt', 'started_at', ts[1]!), cmp('$lte', 'started_at', ts[3]!))).toEqual(['c3', 'c4']);
      });
    });

    describe('test_weave_client.py: refs and files', () => {
      const publish = async (P: string, object_id: string, val: unknown) =>
        (await http.ok('/obj/create', { obj: { project_id: P, object_id, val, builtin_object_class: null, wb_user_id: null } }))
          .digest as string;
      const readBatch = (refs: string[]) => http.post('/refs/read_batch', { refs });

      it('test_refs_read_batch_noextra: whole objects, in the order asked', async () => {
        const P = http.project('refs');
        const d1 = await publish(P, 'my-list', [1, 2, 3]);
        const d2 = await publish(P, 'my-obj', { a: [3, 4, 5] });
        const res = await readBatch([`weave:///${P}/object/my-list:${d1}`, `weave:///${P}/object/my-obj:${d2}`]);
        expect(res).toMatchObject({ status: 200, body: { vals: [[1, 2, 3], { a: [3, 4, 5] }] } });
      });

      it('test_refs_read_batch_with_extra: a path into the object', async () => {
        const P = http.project('refs');
        const d = await publish(P, 'my-list', [{ a: 5 }, { a: 6 }]);
        const ref = `weave:///${P}/object/my-list:${d}`;
        const res = await readBatch([`${ref}/index/0/key/a`, `${ref}/index/1`]);
        expect(res).toMatchObject({ status: 200, body: { vals: [5, { a: 6 }] } });
      });

      it('test_refs_read_batch_dataset_rows: a path through a table row', async () => {
        const P = http.project('refs');
        const table = await http.ok('/table/create', { table: { project_id: P, rows: [{ a: 5 }, { a: 6 }] } });
        const d = await publish(P, 'my-dataset', {
          _type: 'Dataset',
          _class_name: 'Dataset',
          _bases: ['Object', 'BaseModel'],
          name: 'my-dataset',
          description: null,
          rows: `weave:///${P}/table/${table.digest}`,
        });
        const rows = table.row_digests as string[];
        const ref = `weave:///${P}/object/my-dataset:${d}/attr/rows`;
        const res = await readBatch([`${ref}/id/${rows[0]}/key/a`, `${ref}/id/${rows[1]}/key/a`]);
        expect(res).toMatchObject({ status: 200, body: { vals: [5, 6] } });
      });

      it('test_refs_read_batch_multi_project: refs of several projects in one batch', async () => {
        const [P1, P2, P3] = [http.project('refs'), http.project('refs'), http.project('refs')];
        const refs = [
          `weave:///${P1}/object/my-list:${await publish(P1, 'my-list', [1, 2, 3])}`,
          `weave:///${P2}/object/my-obj:${await publish(P2, 'my-obj', { a: [3, 4, 5] })}`,
          `weave:///${P3}/object/my-obj-2:${await publish(P3, 'my-obj-2', { ab: [3, 4, 5] })}`,
        ];
        const res = await readBatch(refs);
        expect(res).toMatchObject({ status: 200, body: { vals: [[1, 2, 3], { a: [3, 4, 5] }, { ab: [3, 4, 5] }] } });
      });

      it('test_refs_read_batch_call_ref: a call ref is refused', async () => {
        const P = http.project('refs');
        const res = await readBatch([`weave:///${P}/call/my-call`]);
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).toMatch(/call/i);
      });

      it('test_server_file: a 10 MB file reads back byte for byte', async () => {
        const P = http.project('files');
        const content = Buffer.alloc(10_000_005, '0');
        const form = new FormData();
        form.append('project_id', P);
        form.append('file', new Blob([content]), 'my-file');
        const created = await t.fetch('/file/create', { method: 'POST', body: form, headers: { authorization: t.alice.authHeader } });
        expect(created.status).toBe(200);
        const { digest } = (await created.json()) as { digest: string };
        const back = await http.post('/file/content', { project_id: P, digest });
        expect(back.status).toBe(200);
        const raw = await t.fetch('/file/content', {
          method: 'POST',
          body: new TextEncoder().encode(JSON.stringify({ project_id: P, digest })),
          headers: { authorization: t.alice.authHeader },
        });
        const bytes = Buffer.from(await raw.arrayBuffer());
        expect(bytes.length).toBe(content.length);
        expect(bytes.equals(content)).toBe(true);
      });

      it('test_table_partitioning: row digests of a table are the reference digests', async () => {
        const P = http.project('tables');
        const rows = Array.from({ length: 16 }, (_, a) => ({ a, b: 'x'.repeat(1024) }));
        const res = await http.ok('/table/create', { table: { project_id: P, rows } });
        expect(res.row_digests).toEqual(TABLE_PARTITIONING_ROW_DIGESTS);
      });
    });
  });
}

/** The reference's row digests of `{a: i, b: "x" * 1024}` for i in 0..15 (test_table_partitioning). */
const TABLE_PARTITIONING_ROW_DIGESTS = [
  '2df5YAp2sqlYyxEpTKsIrUlf9Kc5ZxEkbqtqUnYOLhk',
  'DMjRIeuM76SCqXqsqehYyfL3KYV5fL0DBr6g4RJ4izA',
  'f949WksZQdTgf5Ac3cXS5cMuGf0otLvpULOfOsAGiYs',
  'YaFBweA0HU7w51Sdt8X4uhSmjk7N4WqSfuknmBRpWcc',
  'BBzLkGZ6fFraXdoFOSjj7p2d1qSiyMXjRnk7Zas2FEA',
  'i6i1XJ7QecqWkB8MdljoWu35tpjwk8npzFAd67aisB4',
  'IsjSZ4usQrHUcu0cNtKedBlUWrIW1f4cSDck1lGCSMw',
  'MkL0DTiDMCW3agkcIeZ5g5VP0MyFuQcVpa1yqGGVZwk',
  'Vu6S8c4XdXgWNYaAXKqsxuicY6XbYDKLIUkd2M0YPF8',
  'IkIjQFARp0Qny3AUav18zZuzY4INFXsREPkS3iFCrWo',
  'E3T6ngUGSpXY9u2l58sb9smleJ7GO2YlYJY0tq2oV5U',
  'uNmcjBhJyiC6qvJZ0JRlGLpRm68ARrXVYlBgjGRqRdA',
  '0bzwVP0JFd7Y2W9YmpPUv62aAkyY2RCaFVxMnEfjIqY',
  '3bZG40U188x6bVfm9aQX2xvYVqlCftD82O4UsDZtRVU',
  'KW40nfHplo7BDJux0kP8PeYQ95lnOEGaeYfgNtsQ1oE',
  'u10rDrPoYXl58eQStkQP4dPH6KfmE7I88f0FYI7L9fg',
];
