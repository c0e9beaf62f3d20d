/**
 * An evaluation end to end through the API (dataset, scorers, models, evaluation; two runs
 * with predictions and scores; finished), then POST /v2/:entity/:project/eval_results/query
 * checked against hand-computed rows, summaries, filters, sorts, intersection and paging; plus
 * a hand-written Python-SDK-style evaluation for costs, tokens and dataset-row refs.
 *
 * Data (exact, closeness per trial):
 *   row    run A               run B
 *   2+2    '4'  true, 1.0      '5' false, 0.5 ; '4' true, 0.25
 *   France 'Paris' true, 0.75  'Paris' true, 1.0
 *   sky    'green' false, 0.25 (none)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalResultsQueryRes } from '../../contract/evalResults.js';
import type { ReqOf } from '../../contract/endpoints.js';
import { FIXTURE_ROWS, publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let f: EvaluationFixture;
let runA: string;
let runB: string;
/** Prediction and score ids per run and question, for the trial checks. */
const made = new Map<string, { prediction: string; exact: string; closeness: string }[]>();

const [TWO, FRANCE, SKY] = FIXTURE_ROWS.map((r) => r.question) as [string, string, string];

async function predictAndScore(run: string, row: number, output: string, exact: boolean, closeness: number) {
  const model = run === runA ? f.models.a : f.models.b;
  const { prediction_id } = await t.alice.client.predictionCreate({
    ...f.path,
    model,
    inputs: FIXTURE_ROWS[row]!,
    output,
    evaluation_run_id: run,
  });
  const s1 = await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.exact, value: exact, evaluation_run_id: run });
  const s2 = await t.alice.client.scoreCreate({
    ...f.path,
    prediction_id,
    scorer: f.scorers.closeness,
    value: closeness,
    evaluation_run_id: run,
  });
  await t.alice.client.predictionFinish({ ...f.path, prediction_id });
  const key = `${run}/${FIXTURE_ROWS[row]!.question}`;
  made.set(key, [...(made.get(key) ?? []), { prediction: prediction_id, exact: s1.score_id, closeness: s2.score_id }]);
}

beforeAll(async () => {
  t = await startTestServer();
  f = await publishEvaluation(t.alice.client, 'alice-co', 'results');
  runA = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
  runB = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.b })).evaluation_run_id;
  await predictAndScore(runA, 0, '4', true, 1.0);
  await predictAndScore(runA, 1, 'Paris', true, 0.75);
  await predictAndScore(runA, 2, 'green', false, 0.25);
  await predictAndScore(runB, 0, '5', false, 0.5);
  await predictAndScore(runB, 0, '4', true, 0.25);
  await predictAndScore(runB, 1, 'Paris', true, 1.0);
  for (const run of [runA, runB]) await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id: run });
});
afterAll(async () => {
  await t.close();
});

type Query = Omit<ReqOf<'evalResultsQuery'>, 'entity' | 'project'>;
const query = async (req: Query) => EvalResultsQueryRes.parse(await t.alice.client.evalResultsQuery({ ...f.path, ...req }));
/** The questions of the rows answered, in order. */
const questions = async (req: Query) =>
  (await query({ include_raw_data_rows: true, ...req })).rows.map((r) => (r.raw_data_row as { question: string }).question);
const both = { evaluation_call_ids: [] as string[], evaluation_run_ids: [] as string[] };
beforeAll(() => {
  both.evaluation_call_ids = [runA];
  both.evaluation_run_ids = [runB, runA]; // the alias, de-duplicated after the call ids
});
const scoreIs = (field: string, op: '$eq' | '$gte', value: unknown) =>
  ({ $expr: { [op]: [{ $getField: field }, { $literal: value }] } }) as never;

describe('POST /v2/:entity/:project/eval_results/query', () => {
  it('groups trials by dataset row across evaluations, with predict and scorer call ids', async () => {
    const res = await query({ ...both, include_raw_data_rows: true });
    expect(res.total_rows).toBe(3);
    expect(res.summary).toBeNull();
    expect(res.warnings).toEqual([]);
    expect([...res.rows.map((r) => r.row_digest)]).toEqual(res.rows.map((r) => r.row_digest).sort());
    const two = res.rows.find((r) => (r.raw_data_row as { question: string }).question === TWO)!;
    expect(two.evaluations.map((e) => [e.evaluation_call_id, e.trials.length])).toEqual([
      [runA, 1],
      [runB, 2],
    ]);
    const [first, second] = two.evaluations[1]!.trials;
    const ids = made.get(`${runB}/${TWO}`)!;
    expect(first).toMatchObject({
      predict_call_id: ids[0]!.prediction,
      model_output: '5',
      scores: { exact: false, closeness: 0.5 },
      scorer_call_ids: { exact: ids[0]!.exact, closeness: ids[0]!.closeness },
      total_tokens: null,
      total_cost: null,
      genai_span_ref: null,
    });
    expect(first!.model_latency_seconds).toEqual(expect.any(Number));
    expect(second).toMatchObject({ model_output: '4', scores: { exact: true, closeness: 0.25 } });
  });

  it('summarizes each evaluation: binary pass rates and continuous means, by hand', async () => {
    const { summary, rows } = await query({ ...both, include_summary: true, include_rows: false });
    expect(rows).toEqual([]);
    expect(summary!.row_count).toBe(3);
    const [a, b] = summary!.evaluations;
    expect(a).toMatchObject({
      evaluation_call_id: runA,
      evaluation_ref: f.evaluation,
      model_ref: f.models.a,
      trace_id: runA,
      trial_count: 3,
      row_count: 3,
      predict_total_cost: null,
    });
    expect(b).toMatchObject({ evaluation_call_id: runB, model_ref: f.models.b, trial_count: 3 });
    const stat = (s: typeof a, key: string) => s!.scorer_stats.find((x) => x.scorer_key === key)!;
    expect(stat(a, 'exact')).toEqual({
      scorer_key: 'exact',
      path: null,
      value_type: 'binary',
      trial_count: 3,
      numeric_count: 0,
      numeric_mean: null,
      pass_true_count: 2,
      pass_known_count: 3,
      pass_rate: 2 / 3,
      pass_signal_coverage: 1,
    });
    expect(stat(a, 'closeness')).toMatchObject({
      value_type: 'continuous',
      numeric_count: 3,
      numeric_mean: (1 + 0.75 + 0.25) / 3,
      pass_rate: null,
      pass_signal_coverage: 0,
    });
    expect(stat(b, 'exact')).toMatchObject({ pass_true_count: 2, pass_known_count: 3, pass_rate: 2 / 3 });
    expect(stat(b, 'closeness').numeric_mean).toBeCloseTo((0.5 + 0.25 + 1) / 3, 12);
  });

  it('keeps only rows present in every evaluation on request; the summary follows its own switch', async () => {
    const res = await query({ ...both, require_intersection: true, summary_require_intersection: false, include_summary: true });
    expect(res.total_rows).toBe(2);
    expect(res.summary!.row_count).toBe(3);
    expect((await query({ ...both, require_intersection: true, include_summary: true })).summary).toMatchObject({ row_count: 2 });
    expect(
      await questions({
        ...both,
        require_intersection: true,
        sort_by: [{ field: 'scores.closeness', direction: 'desc', evaluation_call_id: runA }],
      }),
    ).toEqual([TWO, FRANCE]);
  });

  it('filters on scores per evaluation, combining evaluations with or (default) / and', async () => {
    const high = { query: scoreIs('scores.closeness', '$gte', 0.75) };
    const sort = [{ field: 'inputs.question', direction: 'asc' as const }];
    expect(await questions({ ...both, filters: [high], sort_by: sort })).toEqual([FRANCE, TWO]);
    expect(await questions({ ...both, filters: [high], filter_logic_operator: 'and' })).toEqual([FRANCE]);
    expect(await questions({ ...both, filters: [{ evaluation_call_id: runB, query: scoreIs('scores.exact', '$eq', false) }] })).toEqual([
      TWO,
    ]);
    const res = await query({ ...both, filters: [high], filter_logic_operator: 'and' });
    expect(res.total_rows).toBe(1);
  });

  it('filters on inputs and outputs', async () => {
    const contains = {
      $expr: { $contains: { input: { $getField: 'inputs.question' }, substr: { $literal: 'france' }, case_insensitive: true } },
    };
    expect(await questions({ ...both, filters: [{ query: contains }] })).toEqual([FRANCE]);
    expect(await questions({ evaluation_call_ids: [runA], filters: [{ query: scoreIs('outputs', '$eq', 'green') }] })).toEqual([SKY]);
  });

  it('sorts by a value in one evaluation, by the difference across evaluations, and pages', async () => {
    const byA = [{ field: 'scores.closeness', direction: 'desc' as const, evaluation_call_id: runA }];
    expect(await questions({ ...both, sort_by: byA })).toEqual([TWO, FRANCE, SKY]);
    // Spread of per-evaluation means: 2+2 |1.0 - 0.375| = 0.625, France 0.25, sky (one evaluation) 0.
    const spread = (direction: 'asc' | 'desc') => [{ field: 'scores.closeness', direction, mode: 'difference' as const }];
    expect(await questions({ ...both, sort_by: spread('desc') })).toEqual([TWO, FRANCE, SKY]);
    expect(await questions({ ...both, sort_by: spread('asc') })).toEqual([SKY, FRANCE, TWO]);
    const page = await query({ ...both, sort_by: byA, limit: 1, offset: 1, include_raw_data_rows: true });
    expect(page.total_rows).toBe(3);
    expect(page.rows.map((r) => (r.raw_data_row as { question: string }).question)).toEqual([FRANCE]);
  });

  it('without children, trials carry no predict or scorer call ids', async () => {
    const res = await query({ evaluation_run_ids: [runA], include_predict_and_score_children: false });
    const trial = res.rows[0]!.evaluations[0]!.trials[0]!;
    expect(trial).toMatchObject({ predict_call_id: null, scorer_call_ids: {}, model_latency_seconds: expect.any(Number) });
    expect(Object.keys(trial.scores).sort()).toEqual(['closeness', 'exact']);
  });

  it('reads an SDK-style evaluation: dataset-row refs (resolved), predict latency, tokens and costs', async () => {
    const P = f.projectId;
    const ds = await t.alice.client.datasetRead({ ...f.path, object_id: 'quiz', digest: 'latest' });
    const table = await t.alice.client.tableQuery({ project_id: P, digest: ds.rows.split('/').pop()! });
    const rowRef = (digest: string) => `weave:///${P}/object/quiz:${ds.digest}/attr/rows/id/${digest}`;
    const op = (name: string) => `weave:///${P}/op/${name}:${'D'.repeat(43)}`;
    const at = (s: number) => new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString();
    const model = `weave:///${P}/object/py-model:${'M'.repeat(43)}`;
    await t.alice.client.costCreate({
      project_id: P,
      costs: { 'gpt-x': { prompt_token_cost: 0.01, completion_token_cost: 0.02, effective_date: at(0) } },
    });
    const start = (id: string, parent: string | null, name: string, inputs: Record<string, unknown>, s: number) => ({
      mode: 'start' as const,
      req: {
        start: { project_id: P, id, trace_id: 'sdk-eval', parent_id: parent, op_name: op(name), started_at: at(s), attributes: {}, inputs },
      },
    });
    const end = (id: string, output: unknown, s: number, summary: Record<string, unknown> = {}) => ({
      mode: 'end' as const,
      req: { end: { project_id: P, id, ended_at: at(s), output, summary } },
    });
    await t.alice.client.callUpsertBatch({
      batch: [
        start('sdk-eval', null, 'Evaluation.evaluate', { self: f.evaluation, model }, 1),
        start(
          'sdk-pas-0',
          'sdk-eval',
          'Evaluation.predict_and_score',
          { self: f.evaluation, model, example: rowRef(table.rows[0]!.digest) },
          2,
        ),
        start('sdk-pred-0', 'sdk-pas-0', 'PyModel.predict', { self: model, question: TWO }, 2),
        end('sdk-pred-0', '4', 3.5, { usage: { 'gpt-x': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } }),
        start('sdk-score-0', 'sdk-pas-0', 'exact', { output: '4' }, 4),
        end('sdk-score-0', true, 4),
        end('sdk-pas-0', { output: '4', scores: { exact: true }, model_latency: 1.5 }, 4),
        start('sdk-pas-1', 'sdk-eval', 'Evaluation.predict_and_score', { self: f.evaluation, model, example: rowRef('Z'.repeat(43)) }, 5),
        end('sdk-pas-1', { output: 'x', scores: { exact: false }, model_latency: 0.25 }, 6),
        end('sdk-eval', { exact: { true_count: 1 } }, 7),
      ],
    });
    const res = await query({
      evaluation_call_ids: ['sdk-eval'],
      include_costs: true,
      include_raw_data_rows: true,
      resolve_row_refs: true,
      include_summary: true,
    });
    expect(res.warnings).toEqual(['Could not resolve 1 dataset row ref(s); their raw_data_row is the ref']);
    const resolved = res.rows.find((r) => r.row_digest === table.rows[0]!.digest)!;
    expect(resolved.raw_data_row).toEqual(FIXTURE_ROWS[0]);
    expect(resolved.evaluations[0]!.trials[0]).toEqual({
      predict_and_score_call_id: 'sdk-pas-0',
      predict_call_id: 'sdk-pred-0',
      model_output: '4',
      scores: { exact: true },
      scorer_call_ids: { exact: 'sdk-score-0' },
      model_latency_seconds: 1.5,
      total_tokens: 15,
      total_cost: 10 * 0.01 + 5 * 0.02,
      genai_span_ref: null,
    });
    const unresolved = res.rows.find((r) => r.row_digest === 'Z'.repeat(43))!;
    expect(unresolved.raw_data_row).toBe(rowRef('Z'.repeat(43)));
    expect(unresolved.evaluations[0]!.trials[0]).toMatchObject({ predict_call_id: null, model_latency_seconds: 0.25, total_tokens: null });
    expect(res.summary!.evaluations[0]).toMatchObject({
      trial_count: 2,
      predict_total_tokens: 15,
      predict_total_cost: 10 * 0.01 + 5 * 0.02,
      model_ref: model,
    });
    // A row given inline (an API run) and by ref (the SDK) is the same row: the digests agree.
    expect(await questions({ evaluation_call_ids: [runA, 'sdk-eval'], require_intersection: true, resolve_row_refs: true })).toEqual([TWO]);
  });

  it('pages in the default order exactly as slices of the whole answer', async () => {
    // A page in the default order is chosen from the rows' keys and read in full alone; the
    // whole answer (no limit) reads every row in full, so the two must agree row for row.
    const cases: Query[] = [
      both,
      { ...both, require_intersection: true, include_raw_data_rows: true },
      { ...both, include_predict_and_score_children: false },
      { evaluation_call_ids: [runA, 'sdk-eval'], include_costs: true, include_raw_data_rows: true, resolve_row_refs: true },
    ];
    for (const req of cases) {
      const whole = await query(req);
      expect(whole.rows.length).toBeGreaterThan(1);
      for (let offset = 0; offset <= whole.rows.length; offset++) {
        for (const limit of [1, 2]) {
          const rows = whole.rows.slice(offset, offset + limit);
          // Warnings count the page's unresolved refs (their raw_data_row stays the ref).
          const unresolved = rows.filter((r) => typeof r.raw_data_row === 'string').length;
          const warnings = unresolved ? [`Could not resolve ${unresolved} dataset row ref(s); their raw_data_row is the ref`] : [];
          expect(await query({ ...req, offset, limit })).toEqual({ ...whole, rows, warnings });
        }
      }
    }
  });

  it('answers empty results without ids, 400 for an unknown field, 422 for a bad body, 403 elsewhere', async () => {
    expect(await query({ include_summary: true })).toEqual({
      rows: [],
      total_rows: 0,
      summary: { row_count: 0, evaluations: [] },
      warnings: [],
    });
    expect((await query({ evaluation_call_ids: ['nope'] })).total_rows).toBe(0);
    const post = (path: string, json: unknown) => t.fetch(path, { json });
    expect(
      (
        await post('/v2/alice-co/results/eval_results/query', {
          evaluation_run_ids: [runA],
          sort_by: [{ field: 'latency', direction: 'asc' }],
        })
      ).status,
    ).toBe(400);
    expect((await post('/v2/alice-co/results/eval_results/query', { filter_logic_operator: 'xor' })).status).toBe(422);
    expect((await post('/v2/bob-co/results/eval_results/query', {})).status).toBe(403);
  });
});
