/**
 * Weft's computed call fields `summary.weave.total_tokens` and `summary.weave.total_cost`: the
 * calls list sorts and filters by them on the server (extensions the reference does not have).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
const P = 'alice-co/usage-sort';
const at = (sec: number) => new Date(Date.UTC(2026, 0, 1) + sec * 1000).toISOString();

/** A finished call with the given usage per model. */
function call(id: string, usage: Record<string, { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }> | null) {
  return [
    { mode: 'start' as const, req: { start: { project_id: P, id, trace_id: `tr-${id}`, op_name: 'llm', started_at: at(1), inputs: {} } } },
    { mode: 'end' as const, req: { end: { project_id: P, id, ended_at: at(2), output: null, summary: usage ? { usage } : {} } } },
  ];
}

async function ids(req: Record<string, unknown>): Promise<string[]> {
  const out: CallSchema[] = [];
  for await (const c of t.alice.client.callsStreamQuery({ project_id: P, ...req })) out.push(c);
  return out.map((c) => c.id);
}

beforeAll(async () => {
  t = await startTestServer();
  await t.alice.client.costCreate({
    project_id: P,
    costs: {
      cheap: { prompt_token_cost: 1e-6, completion_token_cost: 1e-6, effective_date: at(-10) },
      dear: { prompt_token_cost: 1e-4, completion_token_cost: 1e-4, effective_date: at(-10) },
    },
  });
  await t.alice.client.callUpsertBatch({
    batch: [
      ...call('many-cheap', { cheap: { prompt_tokens: 9000, completion_tokens: 1000 } }), // 10,000 tokens, $0.01
      ...call('few-dear', { dear: { prompt_tokens: 150, completion_tokens: 50 } }), // 200 tokens, $0.02
      ...call('two-models', { cheap: { total_tokens: 300, prompt_tokens: 100, completion_tokens: 100 }, unpriced: { prompt_tokens: 50 } }), // 350, $0.0002
      ...call('unpriced', { unknown: { prompt_tokens: 20000, completion_tokens: 1 } }), // 20,001 tokens, no cost
      ...call('no-usage', null),
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('POST /calls/stream_query with Weft usage fields', () => {
  it('sorts by total tokens (total_tokens where reported, else prompt + completion), no usage last', async () => {
    expect(await ids({ sort_by: [{ field: 'summary.weave.total_tokens', direction: 'desc' }] })).toEqual([
      'unpriced',
      'many-cheap',
      'two-models',
      'few-dear',
      'no-usage',
    ]);
    expect(await ids({ sort_by: [{ field: 'summary.weave.total_tokens', direction: 'asc' }] })).toEqual([
      'few-dear',
      'two-models',
      'many-cheap',
      'unpriced',
      'no-usage',
    ]);
  });

  it('sorts by cost at the prices in force, unpriced calls last in both directions', async () => {
    expect(await ids({ sort_by: [{ field: 'summary.weave.total_cost', direction: 'desc' }] }).then((x) => x.slice(0, 3))).toEqual([
      'few-dear',
      'many-cheap',
      'two-models',
    ]);
    const asc = await ids({ sort_by: [{ field: 'summary.weave.total_cost', direction: 'asc' }] });
    expect(asc.slice(0, 3)).toEqual(['two-models', 'many-cheap', 'few-dear']);
    expect(asc.slice(3).sort()).toEqual(['no-usage', 'unpriced']);
  });

  it('filters by them like any number', async () => {
    const query = { $expr: { $gt: [{ $getField: 'summary.weave.total_cost' }, { $literal: 0.015 }] } };
    expect(await ids({ query })).toEqual(['few-dear']);
    const tokens = { $expr: { $gte: [{ $getField: 'summary.weave.total_tokens' }, { $literal: 10000 }] } };
    expect((await ids({ query: tokens })).sort()).toEqual(['many-cheap', 'unpriced']);
  });
});
