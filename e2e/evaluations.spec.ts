/**
 * Evaluations: the runs list, one run's results filtered to failures, and two runs compared
 * against a baseline, over data seeded through the v2 API with hand-computed figures.
 *
 * Data (10 rows "What is i + i?", scorers `correct` (binary) and `quality` (continuous)):
 *   row      0    1    2    3    4    5    6    7    8    9
 *   alpha ✓  1.0  0.9  0.8  0.9  1.0  0.8  0.9  ✗0.3 ✗0.2 ✗0.4   pass 7/10, mean 7.2/10 = 0.72
 *   beta  ✓  1.0  0.9  0.8  0.9  1.0  ✗0.3 ✗0.4 ✗0.1 ✗0.2 ✗0.4   pass 5/10, mean 6.0/10 = 0.60
 * Baseline alpha, beta: pass −20.0 pp (−0.2/0.7 = −28.6%), quality −0.120 (−0.12/0.72 = −16.7%).
 * Rows that differ: 5, 6 (both scores) and 7 (quality only): 3 of 10.
 * Failures of alpha: correct false → 3 rows; with quality below 0.85 also rows 2 and 5 → 5.
 */
import type { WeftClient } from '../src/client/index.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

const ROWS = Array.from({ length: 10 }, (_, i) => ({ question: `What is ${i} + ${i}?`, expected: String(2 * i) }));
const ALPHA = { correct: [1, 1, 1, 1, 1, 1, 1, 0, 0, 0], quality: [1.0, 0.9, 0.8, 0.9, 1.0, 0.8, 0.9, 0.3, 0.2, 0.4] };
const BETA = { correct: [1, 1, 1, 1, 1, 0, 0, 0, 0, 0], quality: [1.0, 0.9, 0.8, 0.9, 1.0, 0.3, 0.4, 0.1, 0.2, 0.4] };

/** Dataset, scorers, two models and an evaluation; returns their refs. */
async function publish(api: WeftClient, projectId: string, rows = ROWS) {
  const [entity, project] = projectId.split('/') as [string, string];
  const path = { entity, project };
  const ds = await api.datasetCreate({ ...path, name: 'arith', rows });
  const dataset = `weave:///${projectId}/object/arith:${ds.digest}`;
  const correct = (
    await api.scorerCreate({ ...path, name: 'correct', op_source_code: 'def score(output, expected): return output == expected' })
  ).scorer;
  const quality = (await api.scorerCreate({ ...path, name: 'quality', op_source_code: 'def score(output): return 0.5' })).scorer;
  const alpha = (await api.modelCreate({ ...path, name: 'model-alpha', source_code: 'def predict(question): ...' })).model_ref;
  const beta = (await api.modelCreate({ ...path, name: 'model-beta', source_code: 'def predict(question): ...' })).model_ref;
  const evaluation = (await api.evaluationCreate({ ...path, name: 'arith-eval', dataset, scorers: [correct, quality] })).evaluation_ref;
  return { path, scorers: { correct, quality }, models: { alpha, beta }, evaluation };
}

type Published = Awaited<ReturnType<typeof publish>>;

/** One finished run: a prediction and both scores per row (answers are right where `correct` is 1). */
async function seedRun(
  api: WeftClient,
  f: Published,
  { model, evaluation = f.evaluation, data, rows = ROWS }: { model: string; evaluation?: string; data: typeof ALPHA; rows?: typeof ROWS },
) {
  const { evaluation_run_id: run } = await api.evaluationRunCreate({ ...f.path, evaluation, model });
  for (const [i, row] of rows.entries()) {
    const output = data.correct[i] ? row.expected : String(2 * i + 1);
    const { prediction_id } = await api.predictionCreate({ ...f.path, model, inputs: row, output, evaluation_run_id: run });
    await api.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.correct, value: data.correct[i] === 1, evaluation_run_id: run });
    await api.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.quality, value: data.quality[i]!, evaluation_run_id: run });
    await api.predictionFinish({ ...f.path, prediction_id });
  }
  await api.evaluationRunFinish({ ...f.path, evaluation_run_id: run });
  return run;
}

test('a run filtered to failures, then compared with another run', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  test.setTimeout(60_000);
  const f = await publish(api, project);
  const runA = await seedRun(api, f, { model: f.models.alpha, data: ALPHA });
  const runB = await seedRun(api, f, { model: f.models.beta, data: BETA });

  // The runs list: both runs, each scorer's aggregate as a column.
  await page.goto(`/${project}/evaluations`);
  const runs = page.getByRole('table', { name: 'Evaluation runs' });
  await expect(page.getByText('2 runs')).toBeVisible();
  const alphaRow = runs.getByRole('row', { name: /model-alpha/ });
  await expect(alphaRow).toContainText('70.0%');
  await expect(alphaRow).toContainText('0.720');
  await expect(runs.getByRole('row', { name: /model-beta/ })).toContainText('50.0%');
  await page.getByLabel('Model', { exact: true }).selectOption('model-beta');
  await expect(page.getByText('1 of 2 runs')).toBeVisible();
  await page.getByLabel('Model', { exact: true }).selectOption('');

  // One run: every row, then only the failures.
  await alphaRow.getByRole('link', { name: /arith-eval/ }).click();
  await expect(page).toHaveURL(new RegExp(`/evaluations/runs/${runA}$`));
  await expect(page.getByRole('heading', { name: /arith-eval.*model-alpha/ })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Pass rates' })).toContainText('70.0% (7/10)');
  await expect(page.getByRole('figure', { name: 'quality distribution' })).toContainText('mean 0.720');
  const results = page.getByRole('table', { name: 'Results' });
  await expect(page.getByText('10 rows', { exact: true })).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(11);

  await page.getByLabel('Failures only').check();
  await expect(page.getByText('3 of 10 rows')).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(4);
  for (const i of [7, 8, 9]) await expect(results).toContainText(`What is ${i} + ${i}?`);
  await page.getByLabel('Continuous score threshold').fill('0.85');
  await expect(page.getByText('5 of 10 rows')).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(6);
  await expect(page).toHaveURL(/failures=1/);

  // Each row opens its trace with the row's call selected.
  const trace = results.getByRole('link', { name: /Trace of row/ }).first();
  await expect(trace).toHaveAttribute('href', new RegExp(`/traces/${runA}\\?call=`));

  // Compare with the second run, alpha as the baseline.
  await page.getByRole('button', { name: 'Compare with…' }).click();
  await page
    .getByRole('list', { name: 'Runs to compare with' })
    .getByRole('button', { name: /model-beta/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/evaluations/compare\\?runs=${runA}(%2C|,)${runB}&baseline=${runA}`));
  const summary = page.getByRole('table', { name: 'Summary metrics' });
  const cell = (metric: string, run: string) => summary.locator(`td[data-metric="${metric}"][data-run="${run}"]`);
  await expect(cell('scores.correct', 'A')).toHaveText('70.0%');
  await expect(cell('scores.correct', 'B')).toHaveText('50.0% −20.0 pp (−28.6%)');
  await expect(cell('scores.quality', 'A')).toHaveText('0.720');
  await expect(cell('scores.quality', 'B')).toHaveText('0.600 −0.120 (−16.7%)');
  await expect(cell('rows', 'B')).toHaveText('10 ±0 (±0.0%)');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A mean is drawn from zero, so bar heights compare as the values do (0.72 against 0.60),
  // with no two ticks reading alike.
  const tickLabels = page.getByRole('figure', { name: 'quality by run' }).locator('.recharts-cartesian-axis-tick-value');
  await expect(tickLabels.first()).toBeVisible();
  // The value axis's labels (the run axis's are letters).
  const ticks = (await tickLabels.allTextContents()).filter((t) => /^-?[\d.]+$/.test(t));
  expect(ticks[0]).toBe('0');
  expect(new Set(ticks).size).toBe(ticks.length);
  await showsFixed(page, '7-zero-based-means');

  const compared = page.getByRole('table', { name: 'Compared results' });
  await expect(page.getByText('10 rows', { exact: true })).toBeVisible();
  await expect(compared.getByRole('row')).toHaveCount(11);
  await page.getByLabel('Differences only').check();
  await expect(page.getByText('3 of 10 rows differ')).toBeVisible();
  await expect(compared.getByRole('row')).toHaveCount(4);

  // Largest quality difference first: rows 5 and 6 (0.5 apart), then row 7 (0.2).
  await page.getByLabel('Order').selectOption({ label: 'Largest difference in quality' });
  await expect(page).toHaveURL(/sort=difference%3Ascores\.quality%3Adesc|sort=difference:scores\.quality:desc/);
  await expect(compared.getByRole('row').nth(3)).toContainText('What is 7 + 7?');
  await expect(compared.getByRole('row').nth(1)).not.toContainText('What is 7 + 7?');

  // Beta as the baseline flips the signs.
  await page.getByLabel('Baseline', { exact: true }).selectOption({ index: 1 });
  await expect(cell('scores.correct', 'A')).toHaveText('70.0% +20.0 pp (+40.0%)');
});

test('runs of evaluations with different datasets are flagged when compared', async ({ signedInPage: page, api, project }) => {
  test.setTimeout(60_000);
  const f = await publish(api, project);
  const runA = await seedRun(api, f, { model: f.models.alpha, data: ALPHA });
  // A second version of the evaluation over a changed dataset (3 rows).
  const rows = ROWS.slice(0, 3).map((r) => ({ ...r, question: `${r.question} (v2)` }));
  const ds = await api.datasetCreate({ ...f.path, name: 'arith', rows });
  const dataset = `weave:///${project}/object/arith:${ds.digest}`;
  const evaluation = (
    await api.evaluationCreate({ ...f.path, name: 'arith-eval', dataset, scorers: [f.scorers.correct, f.scorers.quality] })
  ).evaluation_ref;
  const runB = await seedRun(api, f, { model: f.models.beta, evaluation, data: BETA, rows });

  await page.goto(`/${project}/evaluations`);
  const runs = page.getByRole('table', { name: 'Evaluation runs' });
  // The newer run ticked first: the older one is still the baseline.
  await runs.getByRole('checkbox', { name: /model-beta/ }).check();
  await expect(page.getByRole('button', { name: 'Compare (1)' })).toBeDisabled();
  await runs.getByRole('checkbox', { name: /model-alpha/ }).check();
  await page.getByRole('button', { name: 'Compare (2)' }).click();
  await expect(page).toHaveURL(new RegExp(`runs=${runA}(%2C|,)${runB}&baseline=${runA}`));

  const warning = page.getByRole('alert');
  await expect(warning).toContainText('not measured the same way');
  await expect(warning).toContainText('Different dataset versions');
  await expect(warning).toContainText('arith:v0');
  await expect(warning).toContainText('arith:v1');
  // No row is shared: all 13 differ.
  await page.getByLabel('Differences only').check();
  await expect(page.getByText('13 of 13 rows differ')).toBeVisible();
});

test('an evaluation run by an SDK is a run too, with tokens, cost and its own trace', async ({ signedInPage: page, api, project }) => {
  const f = await publish(api, project);
  // As the Python SDK writes it: a root Evaluation.evaluate call (trace id ≠ call id), one
  // predict_and_score child per row with the predict call (token usage) and a score call.
  const op = (name: string) => `weave:///${project}/op/${name}:${'D'.repeat(43)}`;
  // One instant for every time: Date.now() read per call moved some ends 1 ms ("501 ms").
  const t0 = Date.now() - 60_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  await api.costCreate({
    project_id: project,
    costs: { 'gpt-x': { prompt_token_cost: 0.01, completion_token_cost: 0.02, effective_date: at(-3600) } },
  });
  const trace = 'sdk-trace-1';
  type Item = Parameters<WeftClient['callUpsertBatch']>[0]['batch'][number];
  const start = (id: string, parent: string | null, name: string, inputs: Record<string, unknown>, s: number): Item => ({
    mode: 'start',
    req: {
      start: { project_id: project, id, trace_id: trace, parent_id: parent, op_name: op(name), started_at: at(s), attributes: {}, inputs },
    },
  });
  const end = (id: string, output: unknown, s: number, summary: Record<string, unknown> = {}): Item => ({
    mode: 'end',
    req: { end: { project_id: project, id, ended_at: at(s), output, summary } },
  });
  const batch: Item[] = [start('sdk-eval', null, 'Evaluation.evaluate', { self: f.evaluation, model: f.models.alpha }, 0)];
  for (const [i, row] of ROWS.slice(0, 2).entries()) {
    batch.push(
      start(`pas-${i}`, 'sdk-eval', 'Evaluation.predict_and_score', { self: f.evaluation, model: f.models.alpha, example: row }, 1 + i),
      start(`pred-${i}`, `pas-${i}`, 'ModelAlpha.predict', { self: f.models.alpha, question: row.question }, 1 + i),
      end(`pred-${i}`, row.expected, 1.5 + i, {
        usage: { 'gpt-x': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, requests: 1 } },
      }),
      start(`score-${i}`, `pas-${i}`, 'correct', { output: row.expected }, 1.6 + i),
      end(`score-${i}`, i === 0, 1.6 + i),
      end(`pas-${i}`, { output: row.expected, scores: { correct: i === 0 }, model_latency: 0.5 }, 1.7 + i),
    );
  }
  batch.push(end('sdk-eval', { correct: { true_count: 1, true_fraction: 0.5 } }, 5));
  await api.callUpsertBatch({ batch });

  await page.goto(`/${project}/evaluations`);
  const sdkRow = page.getByRole('table', { name: 'Evaluation runs' }).getByRole('row', { name: /model-alpha/ });
  await expect(sdkRow).toContainText('50.0%');
  await expect(sdkRow).toContainText('Completed');
  await sdkRow.getByRole('link', { name: /arith-eval/ }).click();

  // 2 rows × (10 × $0.01 + 5 × $0.02) = $0.40 and 30 tokens; latency 0.5 s per row.
  await expect(page.getByText('30 tokens')).toBeVisible();
  await expect(page.getByText('$0.4000')).toBeVisible();
  const results = page.getByRole('table', { name: 'Results' });
  await expect(results.getByRole('row')).toHaveCount(3);
  await expect(results.getByRole('row').nth(1)).toContainText('500 ms');
  await expect(results.getByRole('row').nth(1)).toContainText('$0.2000');
  await expect(results.getByRole('link', { name: 'Trace of row 1' })).toHaveAttribute('href', new RegExp(`/traces/${trace}\\?call=pas-`));
  await expect(page.getByRole('link', { name: 'Open trace' })).toHaveAttribute('href', new RegExp(`/traces/${trace}\\?call=sdk-eval`));
});
