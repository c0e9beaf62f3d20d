/**
 * Comparisons people can read: three runs of one evaluation, the oldest as the default
 * baseline, a chart per scorer, the row view (inputs, outputs side by side with a word diff
 * against the baseline, scores with deltas) walked with j/k, and rows with several trials shown
 * as trials ("1/2 pass") with "N rows" and the trial count agreeing.
 */
import type { WeftClient } from '../src/client/index.js';
import { expect, test } from './fixtures/test.js';

const ROWS = [
  { question: 'Capital of France?', expected: 'Paris' },
  { question: 'Capital of Italy?', expected: 'Rome' },
  { question: 'Capital of Spain?', expected: 'Madrid' },
];

async function publish(api: WeftClient, projectId: string) {
  const [entity, project] = projectId.split('/') as [string, string];
  const path = { entity, project };
  const ds = await api.datasetCreate({ ...path, name: 'capitals', rows: ROWS });
  const dataset = `weave:///${projectId}/object/capitals:${ds.digest}`;
  const correct = (await api.scorerCreate({ ...path, name: 'correct', op_source_code: 'def score(output, expected): ...' })).scorer;
  const brevity = (await api.scorerCreate({ ...path, name: 'brevity', op_source_code: 'def score(output): ...' })).scorer;
  const evaluation = (await api.evaluationCreate({ ...path, name: 'capitals-eval', dataset, scorers: [correct, brevity] })).evaluation_ref;
  return { path, correct, brevity, evaluation };
}

type Published = Awaited<ReturnType<typeof publish>>;

/** A run answering each row with `answers[i]` (an array: one prediction per trial). */
async function seedRun(api: WeftClient, f: Published, name: string, answers: string[][]) {
  const model = (await api.modelCreate({ ...f.path, name, source_code: 'def predict(question): ...' })).model_ref;
  const { evaluation_run_id } = await api.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model });
  for (const [i, row] of ROWS.entries()) {
    for (const output of answers[i]!) {
      const { prediction_id } = await api.predictionCreate({ ...f.path, model, inputs: row, output, evaluation_run_id });
      const right = output.includes(row.expected);
      await api.scoreCreate({ ...f.path, prediction_id, scorer: f.correct, value: right, evaluation_run_id });
      await api.scoreCreate({ ...f.path, prediction_id, scorer: f.brevity, value: output.length < 20 ? 1 : 0.5, evaluation_run_id });
      await api.predictionFinish({ ...f.path, prediction_id });
    }
  }
  await api.evaluationRunFinish({ ...f.path, evaluation_run_id });
  return evaluation_run_id;
}

test('three runs: default baseline, charts per scorer, the row view and trials', async ({ signedInPage: page, api, project }) => {
  test.setTimeout(90_000);
  const f = await publish(api, project);
  const oldest = await seedRun(api, f, 'model-old', [['Paris'], ['Rome'], ['Madrid']]);
  const middle = await seedRun(api, f, 'model-mid', [['The capital is Lyon'], ['Rome'], ['Madrid']]);
  const newest = await seedRun(api, f, 'model-new', [['Paris', 'Lyon'], ['Rome'], ['It is Madrid, in Spain']]);

  // Runs listed newest first; no baseline in the URL: the oldest run is the baseline.
  await page.goto(`/${project}/evaluations/compare?runs=${newest},${middle},${oldest}`);
  await expect(page.getByRole('heading', { name: 'Compare 3 runs' })).toBeVisible();
  await expect(page.getByLabel('Baseline', { exact: true })).toHaveValue(oldest);

  // One chart per scorer, each run a bar.
  const chart = page.getByRole('figure', { name: 'correct by run' });
  await expect(chart).toContainText('C: 100.0% (baseline)');
  await expect(chart).toContainText('B: 66.7%');
  await expect(page.getByRole('figure', { name: 'brevity by run' })).toBeVisible();

  // Rows and trials agree: 3 rows, and the newest run has 4 trials (two on the first row).
  const summary = page.getByRole('table', { name: 'Summary metrics' });
  const cell = (metric: string, run: string) => summary.locator(`td[data-metric="${metric}"][data-run="${run}"]`);
  await expect(cell('rows', 'A')).toContainText('3');
  await expect(cell('trials', 'A')).toContainText('4');
  await expect(page.getByText('3 rows', { exact: true })).toBeVisible();
  const compared = page.getByRole('table', { name: 'Compared results' });
  const first = compared.getByRole('row', { name: /Capital of France/ });
  // Two trials are shown as trials, not as a mean.
  await expect(first).toContainText('1/2 pass');
  await expect(first).not.toContainText('0.500');

  // The row view: inputs, outputs side by side, the middle run's output diffed against the baseline.
  await compared.getByRole('link', { name: 'Open row 1' }).click();
  const view = page.getByRole('region', { name: 'Row 1 of 3' });
  await expect(view).toContainText('Capital of France?');
  const diffB = view.getByLabel('Output B against the baseline');
  await expect(diffB.locator('del')).toHaveText('Paris');
  await expect(diffB.locator('ins')).toHaveText('The capital is Lyon');
  const scores = view.getByRole('table', { name: 'Scores of this row' });
  await expect(scores.getByRole('row', { name: /correct/ })).toContainText('1/2 pass');
  await expect(scores.getByRole('row', { name: /correct/ })).toContainText('−100.0 pp');

  // Keys walk the rows; Esc goes back to the table.
  await page.keyboard.press('j');
  await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toContainText('Capital of Italy?');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('region', { name: 'Row 3 of 3' })).toContainText('It is Madrid, in Spain');
  await page.keyboard.press('k');
  await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toBeVisible();
  await expect(page).toHaveURL(/row=/);
  await page.keyboard.press('Escape');
  await expect(compared).toBeVisible();

  // Columns resize from the keyboard (or by dragging the edge) and pin to the left.
  const edge = compared.getByRole('separator', { name: 'Resize question' });
  const before = Number(await edge.getAttribute('aria-valuenow'));
  await edge.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(edge).toHaveAttribute('aria-valuenow', String(before + 32));
  await page.getByLabel('Pin a column').selectOption({ label: 'Output B' });
  await expect(page.getByRole('button', { name: 'Unpin Output B ×' })).toBeVisible();
  await expect(compared.getByRole('columnheader').nth(1)).toHaveText('Output B');
  const pinnedCell = compared.getByRole('columnheader').nth(1);
  expect(await pinnedCell.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
  await page.getByRole('button', { name: 'Unpin Output B ×' }).click();
  await expect(compared.getByRole('columnheader').nth(1)).not.toHaveText('Output B');
});

test('a comparison opened by a direct link draws its chart cards styled', async ({ signedInPage: page, api, project }) => {
  const f = await publish(api, project);
  const a = await seedRun(api, f, 'model-a', [['Paris'], ['Rome'], ['Madrid']]);
  const b = await seedRun(api, f, 'model-b', [['Lyon'], ['Rome'], ['Madrid']]);
  await page.goto(`/${project}/evaluations/compare?runs=${a},${b}`);
  const chart = page.getByRole('figure', { name: 'correct by run' });
  await expect(chart).toBeVisible();
  // charts.css gives a chart card its padding; without it the figure keeps the browser's margins.
  expect(await chart.evaluate((el) => getComputedStyle(el).paddingTop)).toBe('12px');
});
