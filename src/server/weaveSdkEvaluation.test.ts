/**
 * The official `weave` npm SDK running an `Evaluation` against a real Weft server, then the
 * result read back through the v2 list APIs, eval_results/query and /evaluations/status.
 *
 * What the SDK writes (weave 0.11.1, dist/evaluation.js): the Evaluation object (its dataset,
 * scorers and the two bound ops as refs), a root `Evaluation.evaluate` call (inputs `self`,
 * `model`), one `Evaluation.predictAndScore` child per row (inputs `self`, `model`, `example`
 * = a dataset-row ref; output `{model_success, model_output, scores, model_latency}` with the
 * latency in seconds), and under each the model op's call and one call per scorer op; the root
 * output is the SDK's own summary (`true_count`/`true_fraction`, `mean`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import type { CallSchema } from '../contract/calls.js';
import { EvalResultsQueryRes } from '../contract/evalResults.js';
import { collect } from './testing/serverSuite.js';
import { startTestServer, type TestServer } from './testing/testServer.js';
import { initWeaveSdk, waitForSdkBatches } from './testing/weaveSdk.js';

const PROJECT = 'alice-co/evals';
const path = { entity: 'alice-co', project: 'evals' };

let t: TestServer;
let stopSdk: (() => void) | undefined;
/** Every request the SDK made to Weft that did not answer 2xx. */
const failures: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ROWS = [
  { question: 'What is 2+2?', expected: '4' },
  { question: 'Capital of France?', expected: 'Paris' },
  { question: 'Colour of the sky?', expected: 'blue' },
];
const ANSWERS: Record<string, string> = { 'What is 2+2?': '4', 'Capital of France?': 'Lyon', 'Colour of the sky?': 'blue' };

let summary: Record<string, unknown>;
let root: CallSchema;

beforeAll(async () => {
  t = await startTestServer();
  const session = await initWeaveSdk({
    server: t,
    project: PROJECT,
    onExchange: ({ method, url, res }) => {
      if (!res.ok) failures.push(`${method} ${url.pathname} -> ${res.status}`);
    },
  });
  stopSdk = session.stop;

  type Row = (typeof ROWS)[number];
  const dataset = new weave.Dataset({ name: 'quiz', rows: structuredClone(ROWS) });
  const exact = weave.op(function exact({ modelOutput, datasetRow }: { modelOutput: string; datasetRow: Row }) {
    return modelOutput === datasetRow.expected;
  });
  const closeness = weave.op(function closeness({ modelOutput, datasetRow }: { modelOutput: string; datasetRow: Row }) {
    return modelOutput === datasetRow.expected ? 1 : 0.25;
  });
  const answer = weave.op(async function answer({ datasetRow }: { datasetRow: Row }) {
    await sleep(2);
    return ANSWERS[datasetRow.question]!;
  });
  const evaluation = new weave.Evaluation({ name: 'quiz-eval', dataset, scorers: [exact, closeness] });
  const log = console.log;
  console.log = () => {}; // the SDK prints its progress
  try {
    summary = (await evaluation.evaluate({ model: answer })) as Record<string, unknown>;
  } finally {
    console.log = log;
  }
  await waitForSdkBatches(session.sdk, () => `failures: ${failures.join(', ')}`);
  const calls = await collect(t.alice.client.callsStreamQuery({ project_id: PROJECT, filter: { trace_roots_only: true } }));
  root = calls.find((c) => c.op_name.includes('/op/Evaluation.evaluate:'))!;
});

afterAll(async () => {
  stopSdk?.();
  await t?.close();
});

describe('the weave npm SDK running an Evaluation', () => {
  it('gets every request answered and the summary it computes', () => {
    expect(failures).toEqual([]);
    expect(summary).toMatchObject({ exact: { true_count: 2, true_fraction: 2 / 3 }, closeness: { mean: (1 + 0.25 + 1) / 3 } });
    expect(root).toMatchObject({ parent_id: null, output: summary });
  });

  it('shows the dataset, evaluation, ops and run through the v2 list APIs', async () => {
    const [ds] = await collect(t.alice.client.datasetList(path));
    expect(ds).toMatchObject({ object_id: 'quiz', name: 'quiz', rows: expect.stringMatching(/^weave:\/\/\/alice-co\/evals\/table\//) });
    const [ev] = await collect(t.alice.client.evaluationList(path));
    expect(ev).toMatchObject({
      object_id: 'quiz-eval',
      name: 'quiz-eval',
      dataset: `weave:///${PROJECT}/object/quiz:${ds!.digest}`,
      trials: 1,
    });
    expect(ev!.scorers.map((s) => s.split('/op/')[1]!.split(':')[0])).toEqual(['exact', 'closeness']);
    expect(ev!.evaluate_op).toMatch(/\/op\/Evaluation\.evaluate:/);
    expect(ev!.predict_and_score_op).toMatch(/\/op\/Evaluation\.predictAndScore:/);
    const ops = (await collect(t.alice.client.opList(path))).map((o) => o.object_id);
    expect(ops).toEqual(['Evaluation.evaluate', 'Evaluation.predictAndScore', 'answer', 'closeness', 'exact']);
    const [run] = await collect(t.alice.client.evaluationRunList(path));
    expect(run).toMatchObject({
      evaluation_run_id: root.id,
      status: 'completed',
      evaluation: root.inputs.self,
      model: expect.stringMatching(/\/op\/answer:/),
    });
    expect(await collect(t.alice.client.evaluationRunList({ ...path, models: [run!.model] }))).toHaveLength(1);
  });

  it('answers eval_results/query by dataset row, with model calls, scorer calls and pass rates', async () => {
    const res = EvalResultsQueryRes.parse(
      await t.alice.client.evalResultsQuery({
        ...path,
        evaluation_call_ids: [root.id],
        include_summary: true,
        include_raw_data_rows: true,
        resolve_row_refs: true,
      }),
    );
    expect(res.total_rows).toBe(3);
    expect(res.warnings).toEqual([]);
    expect(res.rows.map((r) => r.raw_data_row).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [...ROWS].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    const france = res.rows.find((r) => (r.raw_data_row as { question: string }).question === 'Capital of France?')!;
    const trial = france.evaluations[0]!.trials[0]!;
    expect(trial).toMatchObject({ model_output: 'Lyon', scores: { exact: false, closeness: 0.25 } });
    expect(trial.model_latency_seconds).toBeGreaterThan(0);
    const { call: predict } = await t.alice.client.callRead({ project_id: PROJECT, id: trial.predict_call_id! });
    expect(predict!.op_name).toMatch(/\/op\/answer:/);
    const { call: scorer } = await t.alice.client.callRead({ project_id: PROJECT, id: trial.scorer_call_ids.exact! });
    expect(scorer).toMatchObject({ output: false, parent_id: trial.predict_and_score_call_id });
    const [evalSummary] = res.summary!.evaluations;
    expect(evalSummary).toMatchObject({ evaluation_call_id: root.id, evaluation_ref: root.inputs.self, trial_count: 3 });
    expect(evalSummary!.scorer_stats).toEqual([
      expect.objectContaining({ scorer_key: 'exact', value_type: 'binary', pass_true_count: 2, pass_known_count: 3, pass_rate: 2 / 3 }),
      expect.objectContaining({ scorer_key: 'closeness', value_type: 'continuous', numeric_count: 3, numeric_mean: (1 + 0.25 + 1) / 3 }),
    ]);
  });

  it('reports the evaluation complete, with the SDK summary as output', async () => {
    expect(await t.alice.client.evaluationStatus({ project_id: PROJECT, call_id: root.id })).toEqual({
      status: { code: 'complete', output: summary },
    });
  });
});
