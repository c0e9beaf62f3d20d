import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallsUsageRes, TraceUsageRes, type LLMAggregatedUsage } from '../../contract/stats.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const post = async (path: string, json: unknown, headers?: Record<string, string>) => {
  const res = await t.fetch(path, { json, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

type Batch = Parameters<TestServer['alice']['client']['callUpsertBatch']>[0]['batch'];

/** A call of trace `trace`; finished (with `usage`) unless `usage` is null. */
function call(id: string, trace: string, parent: string | null, usage: Record<string, Record<string, number>> | null): Batch {
  const started_at = '2024-01-01T00:00:00Z';
  const batch: Batch = [
    {
      mode: 'start',
      req: { start: { project_id: P, id, trace_id: trace, parent_id: parent, op_name: 'op', started_at, attributes: {}, inputs: {} } },
    },
  ];
  if (usage) batch.push({ mode: 'end', req: { end: { project_id: P, id, ended_at: '2024-01-01T00:00:01Z', summary: { usage } } } });
  return batch;
}

const usage = (o: Partial<LLMAggregatedUsage>): LLMAggregatedUsage => ({
  requests: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  prompt_tokens_total_cost: null,
  completion_tokens_total_cost: null,
  cache_read_input_tokens_total_cost: null,
  cache_creation_input_tokens_total_cost: null,
  ...o,
});

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/usage`;
  // Trace t1: root r → c1 → g, and c2 still running. Trace t2: a single call.
  await t.alice.client.callUpsertBatch({
    batch: [
      ...call('r', 't1', null, {}),
      ...call('c1', 't1', 'r', { 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, requests: 1 } }),
      ...call('g', 't1', 'c1', {
        'gpt-4o': { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, requests: 1 },
        'claude-x': { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 2 },
      }),
      ...call('c2', 't1', 'r', null),
      ...call('solo', 't2', null, { 'gpt-4o': { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, requests: 2 } }),
    ],
  });
  await t.alice.client.costCreate({
    project_id: P,
    costs: { 'gpt-4o': { prompt_token_cost: 0.5, completion_token_cost: 1, effective_date: '2023-01-01T00:00:00Z' } },
  });
});
afterAll(async () => {
  await t.close();
});

const rolledUp = {
  // c1's total_tokens is missing, so it counts prompt + completion (15); g reports 2.
  'gpt-4o': usage({ requests: 2, prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 }),
  'claude-x': usage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, cache_read_input_tokens: 2 }),
};

describe('POST /calls/usage', () => {
  it('rolls each call up with its descendants; unknown calls get {}', async () => {
    const res = CallsUsageRes.parse(await t.alice.client.callsUsage({ project_id: P, call_ids: ['r', 'c1', 'c2', 'solo', 'nope'] }));
    expect(res).toEqual({
      call_usage: {
        r: rolledUp,
        c1: rolledUp,
        c2: {},
        solo: { 'gpt-4o': usage({ requests: 2, prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 }) },
        nope: {},
      },
      unfinished_call_ids: ['c2'],
    });
  });

  it('prices each call with include_costs; unpriced models keep null costs', async () => {
    const res = await t.alice.client.callsUsage({ project_id: P, call_ids: ['r'], include_costs: true });
    expect(res.call_usage.r).toEqual({
      'gpt-4o': {
        ...rolledUp['gpt-4o'],
        prompt_tokens_total_cost: 5.5,
        completion_tokens_total_cost: 6,
        cache_read_input_tokens_total_cost: 0,
        cache_creation_input_tokens_total_cost: 0,
      },
      'claude-x': rolledUp['claude-x'],
    });
  });

  it('splits batches over the limit, answers 413 when one trace exceeds it and 400 below 1', async () => {
    // The two traces hold 5 calls together, more than 4, so the batch is split per trace.
    const split = await t.alice.client.callsUsage({ project_id: P, call_ids: ['r', 'solo'], limit: 4 });
    expect(split.call_usage.r).toEqual(rolledUp);
    expect((await post('/calls/usage', { project_id: P, call_ids: ['r'], limit: 3 })).status).toBe(413);
    expect((await post('/calls/usage', { project_id: P, call_ids: ['r'], limit: 0 })).status).toBe(400);
    expect((await post('/calls/usage', { project_id: P })).status).toBe(422);
    expect((await post('/calls/usage', { project_id: P, call_ids: [] })).body).toEqual({ call_usage: {}, unfinished_call_ids: [] });
    expect((await post('/calls/usage', { project_id: P, call_ids: ['r'] }, { authorization: t.bob.authHeader })).status).toBe(403);
  });

  it('leaves deleted calls out of the roll-up', async () => {
    const D = `${t.alice.entity}/usage-del`;
    await t.alice.client.callUpsertBatch({
      batch: [...call('p', 'td', null, {}), ...call('k', 'td', 'p', { m: { prompt_tokens: 1 } })].map((item) =>
        item.mode === 'start'
          ? { ...item, req: { start: { ...item.req.start, project_id: D } } }
          : { ...item, req: { end: { ...item.req.end, project_id: D } } },
      ),
    });
    expect((await t.alice.client.callsUsage({ project_id: D, call_ids: ['p'] })).call_usage.p).toEqual({
      m: usage({ prompt_tokens: 1, total_tokens: 1 }),
    });
    await t.alice.client.callsDelete({ project_id: D, call_ids: ['k'] });
    expect((await t.alice.client.callsUsage({ project_id: D, call_ids: ['p'] })).call_usage.p).toEqual({});
  });
});

describe('POST /trace/usage', () => {
  it('answers every matched call rolled up with its matched descendants', async () => {
    const res = TraceUsageRes.parse(await t.alice.client.traceUsage({ project_id: P, filter: { trace_ids: ['t1'] } }));
    expect(res).toEqual({
      call_usage: {
        r: rolledUp,
        c1: rolledUp,
        g: {
          'gpt-4o': usage({ requests: 1, prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
          'claude-x': rolledUp['claude-x'],
        },
        c2: {},
      },
      unfinished_call_ids: ['c2'],
    });
    // A query narrows the calls; descendants outside the match do not count.
    const onlyRoot = await t.alice.client.traceUsage({
      project_id: P,
      query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: 'r' }] } },
    });
    expect(onlyRoot).toEqual({ call_usage: { r: {} }, unfinished_call_ids: [] });
  });

  it('answers 413 when more calls match than the limit, 400 below 1, 403 elsewhere', async () => {
    expect((await post('/trace/usage', { project_id: P, filter: { trace_ids: ['t1'] }, limit: 3 })).status).toBe(413);
    expect((await post('/trace/usage', { project_id: P, filter: { trace_ids: ['t1'] }, limit: 4 })).status).toBe(200);
    expect((await post('/trace/usage', { project_id: P, limit: -1 })).status).toBe(400);
    expect((await post('/trace/usage', { project_id: `${t.bob.entity}/usage` })).status).toBe(403);
  });
});
