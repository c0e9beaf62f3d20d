/**
 * `expand_columns` on /calls/stream_query (and /calls/query_stats): refs replaced by their
 * values with `_ref` kept, nested paths, and filters and sorts that go through an expanded ref.
 * Requests are sent the way the Python client sends them (testing/pythonClient.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';
import { pyCallsQueryReq, pyCompletedCall, pyObjCreateReq, pyPost } from '../testing/pythonClient.js';
import type { PyJson } from '../testing/pythonClient.js';

const t = useTestServer();
const P = 'alice-co/expand';
const ref = (name: string, digest: string) => `weave:///${P}/object/${name}:${digest}`;

let promptRef: string;
let m1: string;
let m2: string;
let goneRef: string;
let rowRefs: string[];

async function createObject(objectId: string, val: unknown): Promise<string> {
  const res = await pyPost(t, '/obj/create', pyObjCreateReq({ project_id: P, object_id: objectId, val }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ref(objectId, res.body.digest);
}

async function query(over: Record<string, unknown>): Promise<Record<string, PyJson>[]> {
  const res = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, ...over }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const ids = (calls: Record<string, PyJson>[]) => calls.map((c) => c.id);

beforeAll(async () => {
  promptRef = await createObject('prompt', { text: 'be brief' });
  m1 = await createObject('model', { name: 'm1', temperature: 0.2, prompt: promptRef });
  m2 = await createObject('model', { name: 'm2', temperature: 0.9, prompt: 'inline prompt' });
  goneRef = await createObject('gone', { name: 'gone' });
  await t.alice.client.objDelete({ project_id: P, object_id: 'gone' });
  const table = await t.alice.client.tableCreate({
    table: {
      project_id: P,
      rows: [
        { q: 'what?', a: 1 },
        { q: 'why?', a: 2 },
      ],
    },
  });
  const dataset = await createObject('ds', { _type: 'Dataset', name: 'ds', rows: `weave:///${P}/table/${table.digest}` });
  rowRefs = table.row_digests.map((d) => `${dataset}/attr/rows/id/${d}`);
  const calls = [
    { id: 'c1', inputs: { model: m1, example: rowRefs[0] } },
    { id: 'c2', inputs: { model: m2, example: rowRefs[1] } },
    { id: 'c3', inputs: { model: m1 } },
    { id: 'c4', inputs: { model: goneRef } },
    { id: 'c5', inputs: { model: `weave:///${P}/object/model:${'0'.repeat(43)}` } },
    { id: 'c6', inputs: { model: `weave:///bob-co/other/object/model:${m1.split(':').at(-1)}` } },
  ];
  const res = await pyPost(t, `/v2/${P}/calls/complete`, {
    batch: calls.map((c, i) => pyCompletedCall({ project_id: P, trace_id: c.id, started_at: `2026-01-01T00:00:0${i}Z`, ...c })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

describe('POST /calls/stream_query expand_columns: values', () => {
  it('replaces a ref by the object it names, keeping _ref', async () => {
    const [c1] = await query({ expand_columns: ['inputs.model'], filter: { call_ids: ['c1'] } });
    expect(c1!.inputs.model).toEqual({ name: 'm1', temperature: 0.2, prompt: promptRef, _ref: m1 });
  });

  it('expands nested paths, shallowest first', async () => {
    const [c1, c2] = await query({ expand_columns: ['inputs.model', 'inputs.model.prompt'], filter: { call_ids: ['c1', 'c2'] } });
    expect(c1!.inputs.model.prompt).toEqual({ text: 'be brief', _ref: promptRef });
    // Not a ref: left as it is.
    expect(c2!.inputs.model.prompt).toBe('inline prompt');
  });

  it('expands a dataset-row ref to the row', async () => {
    const [c1] = await query({ expand_columns: ['inputs.example'], filter: { call_ids: ['c1'] } });
    expect(c1!.inputs.example).toEqual({ q: 'what?', a: 1, _ref: rowRefs[0] });
  });

  it("leaves deleted, missing and other projects' refs as refs", async () => {
    const calls = await query({ expand_columns: ['inputs.model'], filter: { call_ids: ['c4', 'c5', 'c6'] } });
    for (const call of calls) expect(typeof call.inputs.model).toBe('string');
  });

  it('leaves refs alone without expand_columns, or with return_expanded_column_values false', async () => {
    expect((await query({ filter: { call_ids: ['c1'] } }))[0]!.inputs.model).toBe(m1);
    const [c1] = await query({ expand_columns: ['inputs.model'], return_expanded_column_values: false, filter: { call_ids: ['c1'] } });
    expect(c1!.inputs.model).toBe(m1);
  });
});

describe('POST /calls/stream_query expand_columns: filters and sorts through refs', () => {
  const eq = (field: string, value: unknown) => ({ $expr: { $eq: [{ $getField: field }, { $literal: value }] } });

  it('filters on a field of the referenced object', async () => {
    expect(ids(await query({ expand_columns: ['inputs.model'], query: eq('inputs.model.name', 'm1') }))).toEqual(['c1', 'c3']);
    expect(
      ids(await query({ expand_columns: ['inputs.model'], return_expanded_column_values: false, query: eq('inputs.model.name', 'm2') })),
    ).toEqual(['c2']);
    // Without the expansion the path reads inside the ref string, which has no fields.
    expect(await query({ query: eq('inputs.model.name', 'm1') })).toEqual([]);
  });

  it('filters through nested refs and dataset rows', async () => {
    const nested = await query({
      expand_columns: ['inputs.model', 'inputs.model.prompt'],
      query: eq('inputs.model.prompt.text', 'be brief'),
    });
    expect(ids(nested)).toEqual(['c1', 'c3']);
    expect(ids(await query({ expand_columns: ['inputs.example'], query: eq('inputs.example.q', 'why?') }))).toEqual(['c2']);
    const numeric = { $expr: { $gt: [{ $getField: 'inputs.example.a' }, { $literal: 1.5 }] } };
    expect(ids(await query({ expand_columns: ['inputs.example'], query: numeric }))).toEqual(['c2']);
  });

  it('sorts by a field of the referenced object, calls without one last', async () => {
    const desc = await query({ expand_columns: ['inputs.model'], sort_by: [{ field: 'inputs.model.temperature', direction: 'desc' }] });
    expect(ids(desc)).toEqual(['c2', 'c1', 'c3', 'c4', 'c5', 'c6']);
    const asc = await query({ expand_columns: ['inputs.model'], sort_by: [{ field: 'inputs.model.temperature', direction: 'asc' }] });
    expect(ids(asc)).toEqual(['c1', 'c3', 'c2', 'c4', 'c5', 'c6']);
  });

  it('counts through refs in /calls/query_stats', async () => {
    const res = await pyPost(t, '/calls/query_stats', {
      project_id: P,
      filter: null,
      query: eq('inputs.model.name', 'm1'),
      limit: null,
      include_total_storage_size: false,
      expand_columns: ['inputs.model'],
    });
    expect(res.body.count).toBe(2);
  });
});
