/**
 * One call, every surface: the same call must show the same token totals in the calls query,
 * the call read (trace and detail panel), threads, export (CSV and JSON lines), evaluation rows,
 * call statistics and the usage roll-up. The call's usage mixes both name pairs, a missing total
 * and a reported 0, which the seven earlier copies of the rule counted three different ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let f: EvaluationFixture;
let P: string;

const USAGE = {
  // Both pairs, no total: input 12, output 5, total 17 (the `??` copies said 15).
  'gpt-x': { prompt_tokens: 10, input_tokens: 2, completion_tokens: 5, requests: 1 },
  // A reported total wins over the parts: 11.
  'claude-y': { input_tokens: 7, output_tokens: 3, total_tokens: 11, requests: 1 },
  // A reported 0 falls back to the parts: 4 (the SQL copy said 0).
  'img-z': { completion_tokens: 4, total_tokens: 0 },
};
const EXPECTED = { input_tokens: 19, output_tokens: 12, total_tokens: 32, requests: 2 };
const PER_MODEL = {
  'gpt-x': { input_tokens: 12, output_tokens: 5, total_tokens: 17, requests: 1 },
  'claude-y': { input_tokens: 7, output_tokens: 3, total_tokens: 11, requests: 1 },
  'img-z': { input_tokens: 0, output_tokens: 4, total_tokens: 4, requests: 0 },
};
const at = (s: number) => new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString();

beforeAll(async () => {
  t = await startTestServer();
  f = await publishEvaluation(t.alice.client, t.alice.entity, 'usage-surfaces');
  P = f.projectId;
  const op = (name: string) => `weave:///${P}/op/${name}:${'D'.repeat(43)}`;
  const model = `weave:///${P}/object/py-model:${'M'.repeat(43)}`;
  const start = (id: string, parent: string | null, name: string, inputs: Record<string, unknown>, s: number, extra = {}) => ({
    mode: 'start' as const,
    req: {
      start: {
        project_id: P,
        id,
        trace_id: 'tr',
        parent_id: parent,
        op_name: op(name),
        started_at: at(s),
        attributes: {},
        inputs,
        ...extra,
      },
    },
  });
  const end = (id: string, output: unknown, s: number, summary: Record<string, unknown> = {}) => ({
    mode: 'end' as const,
    req: { end: { project_id: P, id, ended_at: at(s), output, summary } },
  });
  // An SDK-shaped evaluation whose predict call is also the one turn of a thread.
  await t.alice.client.callUpsertBatch({
    batch: [
      start('eval', null, 'Evaluation.evaluate', { self: f.evaluation, model }, 1),
      start('pas', 'eval', 'Evaluation.predict_and_score', { self: f.evaluation, model, example: { question: 'q' } }, 2),
      start('pred', 'pas', 'PyModel.predict', { self: model, question: 'q' }, 2, { thread_id: 'th', turn_id: 'pred' }),
      end('pred', 'a', 3, { usage: USAGE }),
      end('pas', { output: 'a', scores: {}, model_latency: 1 }, 4),
      end('eval', {}, 5),
    ],
  });
});
afterAll(async () => {
  await t.close();
});

const weaveOf = (call: CallSchema | null | undefined) => (call?.summary as { weave?: Record<string, unknown> } | null)?.weave ?? {};

describe('the same call shows the same token totals on every surface', () => {
  it('calls query: summary.weave totals, and sort/filter by total_tokens use the same number', async () => {
    const calls: CallSchema[] = [];
    for await (const c of t.alice.client.callsStreamQuery({ project_id: P, filter: { call_ids: ['pred'] } })) calls.push(c);
    expect(weaveOf(calls[0])).toMatchObject({ ...EXPECTED, model_tokens: PER_MODEL });
    const matched: string[] = [];
    const query = { $expr: { $eq: [{ $getField: 'summary.weave.total_tokens' }, { $literal: EXPECTED.total_tokens }] } };
    for await (const c of t.alice.client.callsStreamQuery({ project_id: P, query })) matched.push(c.id);
    expect(matched).toEqual(['pred']);
    const byInput: string[] = [];
    const inputQuery = { $expr: { $eq: [{ $getField: 'summary.weave.input_tokens' }, { $literal: EXPECTED.input_tokens }] } };
    for await (const c of t.alice.client.callsStreamQuery({ project_id: P, query: inputQuery })) byInput.push(c.id);
    expect(byInput).toEqual(['pred']);
  });

  it('call read (trace and detail panel)', async () => {
    const { call } = await t.alice.client.callRead({ project_id: P, id: 'pred', include_costs: true });
    expect(weaveOf(call)).toMatchObject({ ...EXPECTED, model_tokens: PER_MODEL });
  });

  it('threads', async () => {
    const threads = [];
    for await (const th of t.alice.client.threadsStreamQuery({ project_id: P })) threads.push(th);
    expect(threads.find((th) => th.thread_id === 'th')?.total_tokens).toBe(EXPECTED.total_tokens);
  });

  it('export, as CSV and as JSON lines', async () => {
    const csv = await (await t.alice.client.callsExport({ project_id: P, format: 'csv', columns: ['id', 'total_tokens'] })).text();
    expect(csv.split('\r\n')).toContain(`pred,${EXPECTED.total_tokens}`);
    const jsonl = await (await t.alice.client.callsExport({ project_id: P })).text();
    const pred = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as CallSchema)
      .find((c) => c.id === 'pred');
    expect(weaveOf(pred)).toMatchObject(EXPECTED);
  });

  it('evaluation rows', async () => {
    const res = await t.alice.client.evalResultsQuery({ ...f.path, evaluation_call_ids: ['eval'] });
    expect(res.rows[0]?.evaluations[0]?.trials[0]).toMatchObject({ predict_call_id: 'pred', total_tokens: EXPECTED.total_tokens });
  });

  it('call statistics, per model and in sum', async () => {
    const res = await t.alice.client.callStats({
      project_id: P,
      start: at(0),
      end: at(60),
      granularity: 3600,
      usage_metrics: [{ metric: 'input_tokens' }, { metric: 'output_tokens' }, { metric: 'total_tokens' }],
    });
    const rows = res.usage_buckets.filter((b) => Number(b.count) > 0);
    const perModel = Object.fromEntries(rows.map((b) => [b.model, [b.sum_input_tokens, b.sum_output_tokens, b.sum_total_tokens]]));
    expect(perModel).toEqual(
      Object.fromEntries(Object.entries(PER_MODEL).map(([m, c]) => [m, [c.input_tokens, c.output_tokens, c.total_tokens]])),
    );
    expect(rows.reduce((n, b) => n + Number(b.sum_total_tokens), 0)).toBe(EXPECTED.total_tokens);
  });

  it('usage roll-up of the call', async () => {
    const res = await t.alice.client.callsUsage({ project_id: P, call_ids: ['pred'] });
    const usage = res.call_usage.pred!;
    expect(Object.fromEntries(Object.entries(usage).map(([m, u]) => [m, u.total_tokens]))).toEqual(
      Object.fromEntries(Object.entries(PER_MODEL).map(([m, c]) => [m, c.total_tokens])),
    );
  });
});
