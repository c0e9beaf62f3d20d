/**
 * Conformance suite for call queries: `/calls/stream_query` and `/calls/query_stats` over a
 * real server, for every backend (each backend's test file calls
 * `describeCallsQueryConformance(backend)`). Covers the `$expr` language, CallsFilter, sort_by,
 * paging and column selection against one fixed set of five calls (see callsQueryFixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallsFilter, CallsQueryReq } from '../../../contract/calls.js';
import type { ConvertTo, JsonValue, Operation, SortBy } from '../../../contract/common.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { letterOf, opRef, seedCalls, seedFilterCalls, type Letter } from './callsQueryFixture.js';

type QueryReq = Omit<z.input<typeof CallsQueryReq>, 'project_id'>;

const f = (path: string) => ({ $getField: path });
const l = (value: JsonValue) => ({ $literal: value });
const eq = (path: string, value: JsonValue): Operation => ({ $eq: [f(path), l(value)] });
const has = (path: string, substr: string, case_insensitive = false): Operation => ({
  $contains: { input: f(path), substr: l(substr), case_insensitive },
});
const hasToken = (path: string, substr: string, case_insensitive = false): Operation => ({
  $containsToken: { input: f(path), substr: l(substr), case_insensitive },
});
const convert = (path: string, to: ConvertTo) => ({
  $convert: { input: f(path), to },
});
const by = (field: string, direction: 'asc' | 'desc'): SortBy => ({ field, direction });

/** `$expr` cases: [what, operation, matching calls in start order (A..E)]. */
const QUERY_CASES: [string, Operation, Letter[]][] = [
  ['$eq on a text column', eq('thread_id', 'th1'), ['A', 'B']],
  ['$eq null on a column (IS NULL)', eq('parent_id', null), ['A', 'C', 'D', 'E']],
  ['$eq null treats an empty display_name as null', eq('display_name', null), ['A', 'C', 'D', 'E']],
  ['$eq null on a JSON path matches missing keys', eq('inputs.n', null), ['E']],
  ['$eq on a nested path', eq('inputs.nested.k', 'deep'), ['A']],
  ['$eq on a list index', eq('inputs.nested.list.1', 20), ['A']],
  ['$eq on an object inside a list', eq('inputs.nested.list.2.x', 'y'), ['A']],
  ['$eq on a key holding a dot (escaped)', eq('inputs.dot\\.key', 'dk'), ['A']],
  ['$eq on the whole output', eq('output', 'plain string output'), ['B']],
  ['$eq number literal compares numerically', eq('inputs.n', 5), ['A']],
  ['$eq number literal reads numeric strings', eq('inputs.n', 7), ['D']],
  ['$eq string literal compares as text', eq('inputs.n', '5.5'), ['C']],
  ['$eq true matches only JSON true', eq('inputs.b', true), ['A']],
  ['$eq false matches only JSON false', eq('inputs.b', false), ['B']],
  ['$eq "true" reads booleans as text', eq('inputs.b', 'true'), ['A', 'C']],
  ['$eq object literal compares as JSON', eq('inputs.obj', { a: 1, b: [true] }), ['D']],
  ['$eq list literal compares as JSON', eq('inputs.list', [1, 2, 3]), ['D']],
  ['$eq on an integer column', eq('wb_run_step', 1), ['A']],
  ['$eq on summary JSON', eq('summary.usage.gpt.total_tokens', 30), ['A']],
  ['$gt on a JSON number', { $gt: [f('inputs.n'), l(5)] }, ['B', 'C', 'D']],
  ['$gte on a JSON number', { $gte: [f('inputs.n'), l(5.5)] }, ['B', 'C', 'D']],
  ['$lt on latency', { $lt: [f('summary.weave.latency_ms'), l(500)] }, ['D', 'E']],
  ['$lte on latency', { $lte: [f('summary.weave.latency_ms'), l(500)] }, ['A', 'D', 'E']],
  ['$gt on an ISO datetime', { $gt: [f('started_at'), l('2024-01-01T00:00:03Z')] }, ['D', 'E']],
  ['$gte on a datetime with an offset', { $gte: [f('started_at'), l('2024-01-01T01:00:03+01:00')] }, ['C', 'D', 'E']],
  ['$lt on a datetime in unix seconds', { $lt: [f('started_at'), l(1704067202)] }, ['A']],
  ['$eq null on ended_at finds running calls', eq('ended_at', null), ['C']],
  ['$in on ids', { $in: [f('id'), [l('call-3'), l('call-5')]] }, ['A', 'C']],
  ['$in on JSON numbers', { $in: [f('inputs.n'), [l(5), l(10)]] }, ['A', 'B']],
  ['$in with null and mixed types', { $in: [f('inputs.n'), [l(null), l(10), l('5.5')]] }, ['B', 'C', 'E']],
  ['$in with an empty list', { $in: [f('id'), []] }, []],
  ['$contains', has('display_name', 'Call'), ['B']],
  ['$contains is case-sensitive', has('display_name', 'call'), []],
  ['$contains case_insensitive', has('display_name', 'call', true), ['B']],
  ['$contains treats % and _ literally', has('inputs.s', '%_'), ['C']],
  ['$containsToken', hasToken('inputs.s', 'World'), ['A']],
  ['$containsToken case_insensitive', hasToken('inputs.s', 'world', true), ['A', 'B']],
  ['$containsToken needs a whole token', hasToken('inputs.s', 'Hell'), []],
  // Three-valued: a comparison that cannot be decided (no boolean there, no thread) stays so under $not.
  ['$not', { $not: [eq('inputs.b', true)] }, ['B']],
  ['$not leaves out calls where the column is null', { $not: [eq('thread_id', 'th1')] }, []],
  ['$not over $gt leaves out calls without the number', { $not: [{ $gt: [f('inputs.n'), l(5)] }] }, ['A']],
  [
    '$or holding a $not stays undecidable without the value',
    { $or: [{ $not: [{ $gt: [f('inputs.n'), l(5)] }] }, eq('id', 'call-4')] },
    ['A', 'E'],
  ],
  // A JSON path read as text is never NULL: a missing path reads as '', as the reference's JSON_VALUE.
  ['$not over a text comparison keeps calls without the path', { $not: [eq('attributes.env', 'prod')] }, ['B', 'C', 'D', 'E']],
  ['$contains "" matches calls without the path', has('attributes.env', ''), ['A', 'B', 'C', 'D', 'E']],
  ['$eq "" matches a missing path', eq('attributes.env', ''), ['B', 'C', 'E']],
  ['$and', { $and: [eq('thread_id', 'th1'), { $gt: [f('summary.weave.latency_ms'), l(1000)] }] }, ['B']],
  ['$or', { $or: [eq('turn_id', 'tu2'), { $contains: { input: f('wb_run_id'), substr: l('/run2') } }] }, ['B', 'C']],
  ['$and with one element is that element', { $and: [eq('turn_id', 'tu1')] }, ['A']],
  [
    'nested $or inside $and',
    {
      $and: [{ $or: [eq('inputs.n', 5), eq('inputs.n', 10)] }, eq('thread_id', 'th1')],
    },
    ['A', 'B'],
  ],
  ['summary.weave.status error', eq('summary.weave.status', 'error'), ['B']],
  ['summary.weave.status running', eq('summary.weave.status', 'running'), ['C']],
  ['summary.weave.status descendant_error', eq('summary.weave.status', 'descendant_error'), ['D']],
  ['summary.weave.status success', eq('summary.weave.status', 'success'), ['A', 'E']],
  ['summary.weave.trace_name', eq('summary.weave.trace_name', 'Tool Call'), ['B']],
  ['$convert double', { $gt: [convert('inputs.n', 'double'), l(6)] }, ['B', 'D']],
  ['$convert int truncates', { $eq: [convert('inputs.n', 'int'), l(5)] }, ['A', 'C']],
  ['$convert string', { $eq: [convert('wb_run_step', 'string'), l('1')] }, ['A']],
  ['$convert bool', { $eq: [convert('inputs.b', 'bool'), l(false)] }, ['B']],
  ['$convert exists as a condition', { $and: [convert('inputs.list', 'exists')] }, ['D']],
  ['$convert exists compared with false', { $eq: [convert('inputs.n', 'exists'), l(false)] }, ['E']],
  // Hundreds of literals: more bound values than ClickHouse takes as separate parameters.
  [
    'a $or of 400 JSON comparisons',
    { $or: [...Array.from({ length: 399 }, (_, i) => eq('inputs.nested.k', `miss-${i}`)), eq('inputs.n', 10)] },
    ['B'],
  ],
];

const asInt = (path: string) => convert(path, 'int');
const not = (op: Operation): Operation => ({ $not: [op] });

/**
 * Every case of the reference's `test_trace_call_filter` (tests/trace/test_client_trace.py), with
 * its counts for the ClickHouse server, over the 13 calls of `seedFilterCalls`; the reference
 * checks each with calls_query and calls_query_stats, and so does this suite. (Its SQLite server
 * answers 7, 6, 11 and 6 for the two `$not`s, "like all" and `$or`: it casts text to 0 and
 * reads a missing path as NULL; both Weft stores answer as its ClickHouse server.)
 */
const REFERENCE_FILTER_CASES: [string, number, Operation][] = [
  ['simple true', 13, { $eq: [l(1), l(1)] }],
  ['simple false', 0, { $eq: [l(1), l(2)] }],
  ['eq', 1, { $eq: [l(5), asInt('inputs.in_val.prim')] }],
  ['eq string', 1, { $eq: [l('simple_primitive'), f('inputs.in_val')] }],
  ['eq string out', 1, { $eq: [l('simple_primitive'), f('output')] }],
  ['gt', 4, { $gt: [asInt('inputs.in_val.prim'), l(5)] }],
  ['gte', 5, { $gte: [asInt('inputs.in_val.prim'), l(5)] }],
  ['not gt = lte', 6, not({ $gt: [asInt('inputs.in_val.prim'), l(5)] })],
  ['not gte = lt', 5, not({ $gte: [asInt('inputs.in_val.prim'), l(5)] })],
  ['like all', 13, has('inputs.in_val.str', '')],
  ['like select', 10, has('inputs.in_val.str', 'str')],
  ['like is case-sensitive', 0, has('inputs.in_val.str', 'STR')],
  ['like case_insensitive', 10, has('inputs.in_val.str', 'STR', true)],
  ['and', 3, { $and: [not({ $gt: [asInt('inputs.in_val.prim'), l(7)] }), { $gte: [asInt('inputs.in_val.prim'), l(5)] }] }],
  ['or', 5, { $or: [not({ $gt: [asInt('inputs.in_val.prim'), l(3)] }), { $gte: [asInt('inputs.in_val.prim'), l(9)] }] }],
  ['invalid type safely matches none', 0, { $eq: [l(5), asInt('inputs.in_val.str')] }],
  ['cast across type', 1, { $eq: [l('5'), convert('inputs.in_val.prim', 'string')] }],
  ['list index by dot', 4, { $gt: [asInt('inputs.in_val.list.0'), l(5)] }],
  ['nested key', 4, { $gt: [asInt('inputs.in_val.dict.inner'), l(5)] }],
  ['output key', 4, { $gt: [asInt('output.prim'), l(5)] }],
  ['output list index', 4, { $gt: [asInt('output.list.0'), l(5)] }],
  ['output nested key', 4, { $gt: [asInt('output.dict.inner'), l(5)] }],
];

/** Queries the reference refuses: [what, operation, HTTP status]. */
const ERROR_CASES: [string, Operation, number][] = [
  ['empty $and', { $and: [] }, 400],
  ['empty $or', { $or: [] }, 400],
  ['an unknown field', eq('no_such_field', 'x'), 422],
  ['a storage-size field', { $gt: [f('storage_size_bytes'), l(1)] }, 422],
  ['an empty path part', eq('inputs..n', 1), 422],
  // Names every JS object has: field lookup must not find them on a prototype.
  ['a prototype name as a field', eq('constructor', 'x'), 422],
  ['a prototype name inside $contains', { $contains: { input: f('toString'), substr: l('x') } }, 422],
  ['text against a number', { $gt: [f('op_name'), l(5)] }, 400],
  ['a datetime against a boolean', eq('started_at', true), 400],
  ['an unparsable datetime', { $gt: [f('started_at'), l('not a date')] }, 400],
  ['ordering objects', { $gt: [f('inputs.obj'), l({ a: 1 })] }, 400],
  ['$containsToken with several tokens', hasToken('inputs.s', 'Hello World'), 400],
];

/** CallsFilter cases: [field, filter, matching calls in start order]. */
const FILTER_CASES: [string, CallsFilter, Letter[]][] = [
  ['parent_ids', { parent_ids: ['call-3'] }, ['B']],
  ['trace_ids', { trace_ids: ['tr1', 'tr3'] }, ['A', 'B', 'D']],
  ['call_ids', { call_ids: ['call-5', 'call-2'] }, ['C', 'D']],
  ['thread_ids', { thread_ids: ['th1'] }, ['A', 'B']],
  ['turn_ids', { turn_ids: ['tu2'] }, ['B']],
  ['wb_run_ids, qualified', { wb_run_ids: ['ENTITY/q/run2'] }, ['C']],
  // A bare run id is one of the query's project, as the newest reference qualifies it.
  ['wb_run_ids, bare', { wb_run_ids: ['run2'] }, ['C']],
  ['wb_run_ids, bare and qualified', { wb_run_ids: ['run1', 'ENTITY/q/run2'] }, ['A', 'C']],
  ['wb_run_ids, a bare id of no run', { wb_run_ids: ['NOT_A_RUN'] }, []],
  ["wb_run_ids, another project's run", { wb_run_ids: ['ENTITY/q-other/run2'] }, []],
  ['wb_user_ids', { wb_user_ids: ['nobody'] }, []],
  ['trace_roots_only', { trace_roots_only: true }, ['A', 'C', 'D', 'E']],
  ['several fields AND together', { thread_ids: ['th1'], trace_roots_only: true }, ['A']],
  // Empty lists (docs/reference/query-semantics.md): thread_ids and turn_ids apply whenever they
  // are not null, so [] matches nothing; every other list filters nothing when empty.
  ['thread_ids: [] matches nothing', { thread_ids: [] }, []],
  ['turn_ids: [] matches nothing', { turn_ids: [] }, []],
  ['turn_ids: [] beside another field', { turn_ids: [], trace_roots_only: true }, []],
  ['thread_ids: null filters nothing', { thread_ids: null, turn_ids: null }, ['A', 'B', 'C', 'D', 'E']],
  ...(['op_names', 'input_refs', 'output_refs', 'parent_ids', 'trace_ids', 'call_ids', 'wb_user_ids', 'wb_run_ids'] as const).map(
    (key): [string, CallsFilter, Letter[]] => [`${key}: [] filters nothing`, { [key]: [] }, ['A', 'B', 'C', 'D', 'E']],
  ),
  ['trace_roots_only: false filters nothing', { trace_roots_only: false }, ['A', 'B', 'C', 'D', 'E']],
  // Weft's extension: calls Weft made itself carry attributes.weft.source.
  ["weft_made: false leaves out Weft's own calls", { weft_made: false }, ['A', 'B', 'C', 'E']],
  ['weft_made: true keeps only them', { weft_made: true }, ['D']],
  ['weft_made beside trace_roots_only', { weft_made: false, trace_roots_only: true }, ['A', 'C', 'E']],
  ['weft_made: null filters nothing', { weft_made: null }, ['A', 'B', 'C', 'D', 'E']],
];

/** sort_by cases: [what, sort_by, calls in the expected order]. */
const SORT_CASES: [string, SortBy[] | null, Letter[]][] = [
  ['null sorts by started_at', null, ['A', 'B', 'C', 'D', 'E']],
  ['[] sorts by id only', [], ['B', 'D', 'A', 'E', 'C']],
  ['a column asc, ties by id', [by('op_name', 'asc')], ['D', 'A', 'E', 'C', 'B']],
  ['a column desc, ties by id asc', [by('op_name', 'desc')], ['B', 'C', 'A', 'E', 'D']],
  ['nulls last ascending', [by('display_name', 'asc')], ['B', 'D', 'A', 'E', 'C']],
  ['started_at desc', [by('started_at', 'desc')], ['E', 'D', 'C', 'B', 'A']],
  ['id desc adds no tie-breaker', [by('id', 'desc')], ['C', 'E', 'A', 'D', 'B']],
  ['two keys', [by('op_name', 'asc'), by('started_at', 'desc')], ['D', 'E', 'A', 'C', 'B']],
  ['latency asc (running last)', [by('summary.weave.latency_ms', 'asc')], ['E', 'D', 'A', 'B', 'C']],
  ['latency desc (running last)', [by('summary.weave.latency_ms', 'desc')], ['B', 'A', 'D', 'E', 'C']],
  ['status asc', [by('summary.weave.status', 'asc')], ['D', 'B', 'C', 'A', 'E']],
  ['status desc', [by('summary.weave.status', 'desc')], ['A', 'E', 'C', 'B', 'D']],
  ['JSON number asc (missing last)', [by('inputs.n', 'asc')], ['A', 'C', 'D', 'B', 'E']],
  ['JSON number desc (missing last)', [by('inputs.n', 'desc')], ['B', 'D', 'C', 'A', 'E']],
  ['JSON text asc, missing tie by id', [by('attributes.env', 'asc')], ['D', 'A', 'B', 'E', 'C']],
  ['JSON text desc, missing tie by id', [by('attributes.env', 'desc')], ['A', 'D', 'B', 'E', 'C']],
];

/** The suite. Each backend's test file calls this once. */
export function describeCallsQueryConformance(backend: TestBackend): void {
  describe('calls query conformance', () => {
    let t: TestServer;
    let project_id: string;

    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      project_id = `${t.alice.entity}/q`;
      await seedCalls(t.alice.client, t.alice.entity);
    });
    afterAll(async () => {
      await t.close();
    });

    async function query(req: QueryReq): Promise<Letter[]> {
      const out: Letter[] = [];
      for await (const c of t.alice.client.callsStreamQuery({ project_id, ...req })) out.push(letterOf(c.id));
      return out;
    }
    const where = (expr: Operation) => query({ query: { $expr: expr } });
    const count = async (req: Omit<QueryReq, 'sort_by' | 'offset' | 'columns'>) =>
      (await t.alice.client.callsQueryStats({ project_id, ...req })).count;

    describe('POST /calls/stream_query $expr', () => {
      it.each(QUERY_CASES)('%s', async (_what, expr, expected) => {
        expect(await where(expr)).toEqual(expected);
        expect(await count({ query: { $expr: expr } })).toBe(expected.length);
      });

      it.each(ERROR_CASES)('rejects %s', async (_what, expr, status) => {
        await expect(where(expr)).rejects.toMatchObject({ status });
        await expect(count({ query: { $expr: expr } })).rejects.toMatchObject({ status });
      });

      it('$eq on an op ref, and trace_name from the ref', async () => {
        expect(await where(eq('op_name', opRef(t.alice.entity, 'predict:v1')))).toEqual(['A', 'E']);
        expect(await where(eq('summary.weave.trace_name', 'predict'))).toEqual(['A', 'C', 'E']);
      });

      it('survives SQL injection in field paths and literals', async () => {
        const evil = "x') OR 1=1; DROP TABLE calls; --";
        expect(await where(eq(`inputs.${evil}`, 1))).toEqual([]);
        expect(await where(eq('op_name', evil))).toEqual([]);
        expect(await where({ $contains: { input: f('inputs.s'), substr: l(`%' OR '1'='1`) } })).toEqual([]);
        await expect(where(eq(`op_name ${evil}`, 1))).rejects.toMatchObject({ status: 422 });
        await expect(query({ sort_by: [by(`id; ${evil}`, 'asc')] })).rejects.toMatchObject({ status: 422 });
        expect(await query({ sort_by: [{ field: `inputs.${evil}`, direction: 'asc' }] })).toHaveLength(5);
        expect(await count({})).toBe(5);
      });
    });

    describe("the reference's test_trace_call_filter", () => {
      beforeAll(async () => {
        await seedFilterCalls(t.alice.client, t.alice.entity);
      });

      it.each(REFERENCE_FILTER_CASES)('%s: %i calls', async (_what, expected, expr) => {
        const req = { project_id: `${t.alice.entity}/qf`, query: { $expr: expr } };
        let streamed = 0;
        for await (const _ of t.alice.client.callsStreamQuery(req)) streamed++;
        expect(streamed).toBe(expected);
        expect((await t.alice.client.callsQueryStats(req)).count).toBe(expected);
      });
    });

    describe('POST /calls/stream_query filter', () => {
      it('op_names: exact refs, `:*` prefixes and plain names', async () => {
        const entity = t.alice.entity;
        expect(await query({ filter: { op_names: [opRef(entity, 'predict:v1')] } })).toEqual(['A', 'E']);
        expect(await query({ filter: { op_names: [opRef(entity, 'predict:*')] } })).toEqual(['A', 'C', 'E']);
        const mixed = [opRef(entity, 'tool:*'), 'plain_op'];
        expect(await query({ filter: { op_names: mixed } })).toEqual(['B', 'D']);
      });

      it('input_refs and output_refs', async () => {
        const ds = `weave:///${t.alice.entity}/q/object/dataset:abc`;
        const out = `weave:///${t.alice.entity}/q/object/result:xyz`;
        expect(await query({ filter: { input_refs: [ds] } })).toEqual(['A']);
        expect(await query({ filter: { output_refs: [out] } })).toEqual(['D']);
        expect(await query({ filter: { input_refs: [out] } })).toEqual([]);
      });

      it.each(FILTER_CASES)('%s', async (_what, raw, expected) => {
        // ENTITY stands for the test user's entity, known once the server runs.
        const filter = JSON.parse(JSON.stringify(raw).replaceAll('ENTITY/', `${t.alice.entity}/`)) as CallsFilter;
        expect(await query({ filter })).toEqual(expected);
        expect(await count({ filter })).toBe(expected.length);
      });

      it('filter and query AND together', async () => {
        const req = { filter: { trace_ids: ['tr1'] }, query: { $expr: eq('inputs.b', false) } };
        expect(await query(req)).toEqual(['B']);
        expect(await count(req)).toBe(1);
      });
    });

    describe('POST /calls/stream_query sort_by, paging and columns', () => {
      it.each(SORT_CASES)('%s', async (_what, sort_by, expected) => {
        expect(await query({ sort_by })).toEqual(expected);
      });

      it('rejects unknown sort fields', async () => {
        await expect(query({ sort_by: [by('nope', 'asc')] })).rejects.toMatchObject({ status: 422 });
        await expect(query({ sort_by: [by('constructor', 'desc')] })).rejects.toMatchObject({ status: 422 });
      });

      it('limit and offset page through the sorted calls', async () => {
        expect(await query({ limit: 2, offset: 1 })).toEqual(['B', 'C']);
        expect(await query({ limit: 2, offset: 4 })).toEqual(['E']);
        expect(await query({ offset: 3 })).toEqual(['D', 'E']);
        expect(await query({ limit: 0 })).toEqual([]);
        expect(await count({ limit: 2 })).toBe(2);
      });

      it('columns loads a subset; summary brings what status needs', async () => {
        const rows = [];
        const req = { project_id, columns: ['inputs.n', 'summary'], filter: { call_ids: ['call-1'] } };
        for await (const c of t.alice.client.callsStreamQuery(req)) rows.push(c);
        expect(rows).toHaveLength(1);
        const [b] = rows;
        const op_name = opRef(t.alice.entity, 'tool:v1');
        expect(b).toMatchObject({ id: 'call-1', op_name, output: null, attributes: {} });
        expect(b!.inputs).toMatchObject({ n: 10 });
        expect(b!.summary).toMatchObject({ weave: { status: 'error', latency_ms: 2000 } });
      });
    });

    /**
     * Reading through refs (`expand_columns`), the usage fields and ASCII-only case folding, in a
     * project of their own: x1 refers to model m1 and dataset row 1, x2 to m2 and row 2, x3 to
     * m1, x4 to a deleted object, x5 to another project's object; their usage is priced below.
     */
    describe('expand_columns, usage fields and case folding', () => {
      let px: string;
      const ids = async (req: QueryReq): Promise<string[]> => {
        const out: string[] = [];
        for await (const c of t.alice.client.callsStreamQuery({ project_id: px, ...req })) out.push(c.id);
        return out;
      };

      beforeAll(async () => {
        px = `${t.alice.entity}/qx`;
        const object = async (object_id: string, val: Record<string, JsonValue>) => {
          const { digest } = await t.alice.client.objCreate({ obj: { project_id: px, object_id, val } });
          return `weave:///${px}/object/${object_id}:${digest}`;
        };
        const prompt = await object('prompt', { text: 'be brief' });
        const m1 = await object('model', { name: 'm1', temperature: 0.2, prompt });
        const m2 = await object('model', { name: 'm2', temperature: 0.9 });
        const gone = await object('gone', { name: 'm1' });
        await t.alice.client.objDelete({ project_id: px, object_id: 'gone' });
        const table = await t.alice.client.tableCreate({
          table: {
            project_id: px,
            rows: [
              { q: 'what?', a: 1 },
              { q: 'why?', a: 2 },
            ],
          },
        });
        const dataset = await object('ds', { name: 'ds', rows: `weave:///${px}/table/${table.digest}` });
        const row = (i: number) => `${dataset}/attr/rows/id/${table.row_digests[i]}`;
        const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString();
        // cheap is in force when the calls start; its later price and dear's future one are not.
        await t.alice.client.costCreate({
          project_id: px,
          costs: { cheap: { prompt_token_cost: 1e-6, completion_token_cost: 1e-6, effective_date: at(-10) } },
        });
        await t.alice.client.costCreate({
          project_id: px,
          costs: {
            cheap: { prompt_token_cost: 1, completion_token_cost: 1, effective_date: at(100) },
            dear: { prompt_token_cost: 1e-4, completion_token_cost: 1e-4, effective_date: at(-10) },
          },
        });
        const usage = {
          x1: { cheap: { prompt_tokens: 9000, completion_tokens: 1000 } }, // 10,000 tokens, $0.01
          x2: { dear: { prompt_tokens: 150, completion_tokens: 50 } }, // 200 tokens, $0.02
          x3: { cheap: { total_tokens: 300, prompt_tokens: 100, completion_tokens: 100 }, unpriced: { prompt_tokens: 50 } }, // 350, $0.0002
          x4: { unknown: { prompt_tokens: 20000, completion_tokens: 1 } }, // 20,001 tokens, no price
          x5: null,
        };
        const inputs = {
          x1: { model: m1, example: row(0), s: 'Ärger im Büro' },
          x2: { model: m2, example: row(1) },
          x3: { model: m1 },
          x4: { model: gone },
          x5: { model: `weave:///${t.bob.entity}/other/object/model:${m1.split(':').at(-1)}` },
        };
        await t.alice.client.callUpsertBatch({
          batch: (['x1', 'x2', 'x3', 'x4', 'x5'] as const).flatMap((id, i) => [
            {
              mode: 'start' as const,
              req: { start: { project_id: px, id, trace_id: id, op_name: 'llm', started_at: at(i), attributes: {}, inputs: inputs[id] } },
            },
            {
              mode: 'end' as const,
              req: { end: { project_id: px, id, ended_at: at(i + 1), summary: usage[id] ? { usage: usage[id] } : {} } },
            },
          ]),
        });
      });

      it('filters on fields of the referenced object, nested refs and dataset rows', async () => {
        const model = { expand_columns: ['inputs.model'] };
        expect(await ids({ ...model, query: { $expr: eq('inputs.model.name', 'm1') } })).toEqual(['x1', 'x3']);
        expect(await ids({ query: { $expr: eq('inputs.model.name', 'm1') } })).toEqual([]);
        const nested = { expand_columns: ['inputs.model', 'inputs.model.prompt'] };
        expect(await ids({ ...nested, query: { $expr: eq('inputs.model.prompt.text', 'be brief') } })).toEqual(['x1', 'x3']);
        const example = { expand_columns: ['inputs.example'] };
        expect(await ids({ ...example, query: { $expr: eq('inputs.example.q', 'why?') } })).toEqual(['x2']);
        expect(await ids({ ...example, query: { $expr: { $gt: [f('inputs.example.a'), l(1.5)] } } })).toEqual(['x2']);
        const stats = await t.alice.client.callsQueryStats({ project_id: px, ...model, query: { $expr: eq('inputs.model.name', 'm1') } });
        expect(stats.count).toBe(2);
      });

      it('sorts by a field of the referenced object; deleted and foreign refs have none', async () => {
        const model = { expand_columns: ['inputs.model'] };
        expect(await ids({ ...model, sort_by: [by('inputs.model.temperature', 'desc')] })).toEqual(['x2', 'x1', 'x3', 'x4', 'x5']);
        expect(await ids({ ...model, sort_by: [by('inputs.model.temperature', 'asc')] })).toEqual(['x1', 'x3', 'x2', 'x4', 'x5']);
      });

      it('sorts and filters by tokens and by cost at the prices in force', async () => {
        expect(await ids({ sort_by: [by('summary.weave.total_tokens', 'desc')] })).toEqual(['x4', 'x1', 'x3', 'x2', 'x5']);
        expect(await ids({ sort_by: [by('summary.weave.input_tokens', 'asc')] })).toEqual(['x2', 'x3', 'x1', 'x4', 'x5']);
        expect(await ids({ sort_by: [by('summary.weave.total_cost', 'desc')] })).toEqual(['x2', 'x1', 'x3', 'x4', 'x5']);
        expect(await ids({ sort_by: [by('summary.weave.total_cost', 'asc')] })).toEqual(['x3', 'x1', 'x2', 'x4', 'x5']);
        expect(await ids({ query: { $expr: { $gt: [f('summary.weave.total_cost'), l(0.015)] } } })).toEqual(['x2']);
        expect(await ids({ query: { $expr: eq('summary.weave.output_tokens', 1) } })).toEqual(['x4']);
      });

      it('case_insensitive folds ASCII letters only', async () => {
        expect(await ids({ query: { $expr: has('inputs.s', 'RGER', true) } })).toEqual(['x1']);
        expect(await ids({ query: { $expr: has('inputs.s', 'ärger', true) } })).toEqual([]);
        expect(await ids({ query: { $expr: hasToken('inputs.s', 'büro', true) } })).toEqual(['x1']);
        expect(await ids({ query: { $expr: hasToken('inputs.s', 'BÜRO', true) } })).toEqual([]);
      });
    });
  });
}
