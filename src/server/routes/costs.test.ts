import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostCreateRes, LLMCost } from '../../contract/costs.js';
import type { CallSchema } from '../../contract/calls.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const post = async (path: string, json: unknown) => {
  const res = await t.fetch(path, { json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const eqId = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] as [never, never] });

/** A finished call in `projectId` that used the given models. */
async function logCall(projectId: string, id: string, startedAt: string, usage: Record<string, Record<string, number>>) {
  await t.alice.client.callUpsertBatch({
    batch: [
      {
        mode: 'start',
        req: {
          start: { project_id: projectId, id, trace_id: `t-${id}`, op_name: 'llm', started_at: startedAt, attributes: {}, inputs: {} },
        },
      },
      { mode: 'end', req: { end: { project_id: projectId, id, ended_at: startedAt, summary: { usage } } } },
    ],
  });
}

const costsOf = (call: CallSchema | null | undefined) =>
  (call?.summary as { weave?: { costs?: Record<string, unknown> } } | null)?.weave?.costs;

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/costs`;
});
afterAll(async () => {
  await t.close();
});

describe('POST /cost/create', () => {
  it('creates project-level prices and answers [cost id, llm_id] pairs', async () => {
    const res = CostCreateRes.parse(
      await t.alice.client.costCreate({
        project_id: P,
        costs: {
          'model-a': { prompt_token_cost: 0.01, completion_token_cost: 0.02 },
          'model-b': { prompt_token_cost: 1, completion_token_cost: 2, provider_id: 'acme' },
        },
      }),
    );
    expect(res.ids.map(([, llm]) => llm)).toEqual(['model-a', 'model-b']);
    const { results } = await t.alice.client.costQuery({ project_id: P, query: { $expr: eqId(res.ids[1]![0]) } });
    expect(results).toEqual([expect.objectContaining({ llm_id: 'model-b', provider_id: 'acme', prompt_token_cost_unit: 'USD' })]);
  });

  it('answers 422 without a price or with an unreadable effective_date, 403 elsewhere', async () => {
    expect((await post('/cost/create', { project_id: P, costs: { m: { completion_token_cost: 1 } } })).status).toBe(422);
    expect(
      (
        await post('/cost/create', {
          project_id: P,
          costs: { m: { prompt_token_cost: 1, completion_token_cost: 1, effective_date: 'soon' } },
        })
      ).status,
    ).toBe(422);
    expect((await post('/cost/create', { project_id: `${t.bob.entity}/x`, costs: {} })).status).toBe(403);
  });
});

describe('POST /cost/query', () => {
  it("lists only the project's own prices, with fields, filters and sorting", async () => {
    const Q = `${t.alice.entity}/cq`;
    await t.alice.client.costCreate({
      project_id: Q,
      costs: {
        m1: { prompt_token_cost: 1, completion_token_cost: 1, effective_date: '2024-02-01T00:00:00Z' },
        m2: { prompt_token_cost: 2, completion_token_cost: 2, effective_date: '2024-01-01T00:00:00Z' },
      },
    });
    const { results } = await t.alice.client.costQuery({
      project_id: Q,
      fields: ['llm_id', 'effective_date'],
      sort_by: [{ field: 'effective_date', direction: 'asc' }],
    });
    expect(results).toEqual([
      { llm_id: 'm2', effective_date: '2024-01-01T00:00:00Z' },
      { llm_id: 'm1', effective_date: '2024-02-01T00:00:00Z' },
    ]);
    const filtered = await t.alice.client.costQuery({
      project_id: Q,
      query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'm1' }] } },
    });
    expect(filtered.results.map((r) => r.llm_id)).toEqual(['m1']);
  });

  it('answers 400 for an unknown field and 403 elsewhere', async () => {
    expect((await post('/cost/query', { project_id: P, fields: ['nope'] })).status).toBe(400);
    expect((await post('/cost/query', { project_id: `${t.bob.entity}/x` })).status).toBe(403);
  });
});

describe('POST /cost/purge', () => {
  it('deletes prices named by id ($eq, $in, $or of $eq)', async () => {
    const R = `${t.alice.entity}/purge`;
    const make = async () =>
      (await t.alice.client.costCreate({ project_id: R, costs: { m: { prompt_token_cost: 1, completion_token_cost: 1 } } })).ids[0]![0];
    const [a, b, c, d] = [await make(), await make(), await make(), await make()];
    await t.alice.client.costPurge({ project_id: R, query: { $expr: eqId(a) } });
    await t.alice.client.costPurge({ project_id: R, query: { $expr: { $in: [{ $getField: 'id' }, [{ $literal: b }]] } } });
    await t.alice.client.costPurge({ project_id: R, query: { $expr: { $or: [eqId(c)] } } });
    expect((await t.alice.client.costQuery({ project_id: R })).results.map((r) => r.id)).toEqual([d]);
  });

  it('refuses other queries (400), answers 422 without a query and 403 elsewhere', async () => {
    const broad = await post('/cost/purge', { project_id: P, query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'm' }] } } });
    expect(broad.status).toBe(400);
    expect(broad.body.reason).toMatch(/cost ids/);
    expect((await post('/cost/purge', { project_id: P })).status).toBe(422);
    expect((await post('/cost/purge', { project_id: `${t.bob.entity}/x`, query: { $expr: eqId('x') } })).status).toBe(403);
  });
});

describe('include_costs on call reads', () => {
  let C: string;
  beforeAll(async () => {
    C = `${t.alice.entity}/priced`;
    // One model whose price changed on 2024-06-01: $1/$2 per 1k tokens, then $0.5/$1.
    await t.alice.client.costCreate({
      project_id: C,
      costs: { 'my-llm': { prompt_token_cost: 0.001, completion_token_cost: 0.002, effective_date: '2024-01-01T00:00:00Z' } },
    });
    await t.alice.client.costCreate({
      project_id: C,
      costs: { 'my-llm': { prompt_token_cost: 0.0005, completion_token_cost: 0.001, effective_date: '2024-06-01T00:00:00Z' } },
    });
    await logCall(C, 'before', '2024-03-01T00:00:00Z', {
      'my-llm': { prompt_tokens: 1000, completion_tokens: 500, requests: 1, total_tokens: 1500 },
    });
    await logCall(C, 'after', '2024-07-01T00:00:00Z', {
      'my-llm': { input_tokens: 1000, output_tokens: 500, requests: 1, total_tokens: 1500 },
    });
    await logCall(C, 'early', '2023-01-01T00:00:00Z', { 'my-llm': { prompt_tokens: 10 } });
    await logCall(C, 'default', '2025-01-01T00:00:00Z', {
      'gpt-4o-mini': { prompt_tokens: 1_000_000, completion_tokens: 1_000_000 },
      unknown: { prompt_tokens: 5 },
    });
    await logCall(C, 'free', '2025-01-01T00:00:00Z', {});
  });

  const query = async () => {
    const byId: Record<string, CallSchema> = {};
    for await (const call of t.alice.client.callsStreamQuery({ project_id: C, include_costs: true })) byId[call.id] = call;
    return byId;
  };

  it('prices each call with the price in force when it started', async () => {
    const calls = await query();
    const before = LLMCost.parse(costsOf(calls.before)!['my-llm']);
    expect(before).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 500,
      requests: 1,
      total_tokens: 1500,
      effective_date: '2024-01-01T00:00:00Z',
      pricing_level: 'project',
      pricing_level_id: C,
      created_by: 'alice',
    });
    expect(before.prompt_tokens_total_cost).toBeCloseTo(1, 10);
    expect(before.completion_tokens_total_cost).toBeCloseTo(1, 10);
    const after = LLMCost.parse(costsOf(calls.after)!['my-llm']);
    expect(after).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 500,
      effective_date: '2024-06-01T00:00:00Z',
      prompt_token_cost: 0.0005,
    });
    expect(after.prompt_tokens_total_cost).toBeCloseTo(0.5, 10);
    expect(after.completion_tokens_total_cost).toBeCloseTo(0.5, 10);
  });

  it('falls back to the earliest later price before any price applied, as the reference does', async () => {
    const early = (await query()).early;
    expect(costsOf(early)!['my-llm']).toMatchObject({ effective_date: '2024-06-01T00:00:00Z' });
  });

  it('uses the default price list, skips models without a price and calls without usage', async () => {
    const calls = await query();
    expect(Object.keys(costsOf(calls.default)!)).toEqual(['gpt-4o-mini']);
    expect(costsOf(calls.default)!['gpt-4o-mini']).toMatchObject({
      pricing_level: 'default',
      pricing_level_id: 'default',
      provider_id: 'openai',
      prompt_tokens_total_cost: 0.15,
      completion_tokens_total_cost: 0.6,
    });
    expect(costsOf(calls.free)).toBeUndefined();
  });

  it('lets a project price override the default one', async () => {
    const O = `${t.alice.entity}/override`;
    await t.alice.client.costCreate({
      project_id: O,
      costs: { 'gpt-4o-mini': { prompt_token_cost: 0, completion_token_cost: 0, effective_date: '2024-01-01T00:00:00Z' } },
    });
    await logCall(O, 'x', '2025-01-01T00:00:00Z', { 'gpt-4o-mini': { prompt_tokens: 100 } });
    const { call } = await t.alice.client.callRead({ project_id: O, id: 'x', include_costs: true });
    expect(costsOf(call)!['gpt-4o-mini']).toMatchObject({ pricing_level: 'project', prompt_tokens_total_cost: 0 });
  });

  it('prices a call read with call/read, and only when asked', async () => {
    const priced = await t.alice.client.callRead({ project_id: C, id: 'after', include_costs: true });
    expect(costsOf(priced.call)!['my-llm']).toMatchObject({ effective_date: '2024-06-01T00:00:00Z' });
    const plain = await t.alice.client.callRead({ project_id: C, id: 'after' });
    expect(costsOf(plain.call)).toBeUndefined();
  });

  it('prices calls when only some columns are asked for', async () => {
    const calls: CallSchema[] = [];
    for await (const call of t.alice.client.callsStreamQuery({
      project_id: C,
      include_costs: true,
      columns: ['id'],
      filter: { call_ids: ['before'] },
    }))
      calls.push(call);
    expect(costsOf(calls[0])!['my-llm']).toBeDefined();
  });
});
