/**
 * Comparisons people can read: three runs of one evaluation, the oldest as the default
 * baseline, a chart per scorer, rows with several trials shown as trials ("1/2 pass") with
 * "N rows" and the trial count agreeing, and the row view: a panel in the viewport opened by a
 * row click, Enter or the row number (or a direct link), closed by Back or Esc, with the baseline's
 * and a picked run's long outputs in full, side by side (stacked at 390 px), scrolling together,
 * a diff only when asked for, and j/k or n/p between rows. The table's and the runs list's
 * default columns fit 1280 px.
 */
import type { WeftClient } from '../src/client/index.js';
import { publish, ROWS, seedRun } from './fixtures/seedEvaluations.js';
import { expect, test } from './fixtures/test.js';
import { DESKTOP, SCREENS, showsFixed, WIDE_ONLY } from './fixtures/screens.js';

test(
  'three runs: default baseline, charts per scorer, the row view and trials',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
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
    await showsFixed(page, '5-baseline-oldest');

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

    // The row view: inputs, the baseline's and the newest run's outputs side by side, every run's scores.
    await compared.getByRole('link', { name: 'Open row 1' }).click();
    const view = page.getByRole('region', { name: 'Row 1 of 3' });
    await expect(view).toContainText('Capital of France?');
    await expect(view.getByRole('article', { name: 'Output C (baseline)' })).toContainText('Paris');
    await expect(view.getByRole('article', { name: 'Output A' })).toContainText('Trial 2 of 2');
    // The picker reads the middle run against the baseline instead, and the diff marks its words.
    await view.getByLabel('Compared run').selectOption({ label: 'B · model-mid:v0' });
    const outB = view.getByRole('article', { name: 'Output B' });
    await expect(outB).toContainText('The capital is Lyon');
    await view.getByRole('checkbox', { name: 'Highlight differences' }).check();
    await expect(outB.locator('ins')).toHaveText('The capital is Lyon');
    await expect(view.getByRole('article', { name: 'Output C (baseline)' }).locator('del')).toHaveText('Paris');
    const scores = view.getByRole('table', { name: 'Scores of this row' });
    await expect(scores.getByRole('row', { name: /correct/ })).toContainText('1/2 pass');
    await expect(scores.getByRole('row', { name: /correct/ })).toContainText('−100.0 pp');

    // Keys walk the rows; Esc goes back to the table.
    await page.keyboard.press('j');
    await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toContainText('Capital of Italy?');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('region', { name: 'Row 3 of 3' })).toContainText('Madrid');
    await page.keyboard.press('k');
    await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toBeVisible();
    await expect(page).toHaveURL(/row=/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: /^Row / })).toBeHidden();
    await expect(compared).toBeVisible();
    // The table shows the pair read in the row view (the baseline C and the compared B).
    await expect(compared.getByRole('columnheader').filter({ hasText: /^Output B$/ })).toBeVisible();
    await expect(compared.getByRole('columnheader').filter({ hasText: /^Output A$/ })).toHaveCount(0);
    await expect(compared.getByRole('columnheader').filter({ hasText: /^correct C→B/ })).toBeVisible();
    // The column chooser adds the third run's output and a column per run and metric.
    await compared.getByRole('button', { name: 'Columns of Compared results' }).click();
    await page.getByRole('checkbox', { name: 'Output A', exact: true }).check();
    await page.getByRole('checkbox', { name: 'correct A', exact: true }).check();
    await expect(compared.getByRole('columnheader').filter({ hasText: /^Output A$/ })).toBeVisible();
    await expect(compared.getByRole('columnheader').filter({ hasText: /^correct A/ })).toBeVisible();
    await page.getByRole('checkbox', { name: 'Output A', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'correct A', exact: true }).uncheck();
    await page.keyboard.press('Escape');

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
  },
);

test(
  'a comparison opened by a direct link draws its chart cards styled',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const f = await publish(api, project);
    const a = await seedRun(api, f, 'model-a', [['Paris'], ['Rome'], ['Madrid']]);
    const b = await seedRun(api, f, 'model-b', [['Lyon'], ['Rome'], ['Madrid']]);
    await page.goto(`/${project}/evaluations/compare?runs=${a},${b}`);
    const chart = page.getByRole('figure', { name: 'correct by run' });
    await expect(chart).toBeVisible();
    // charts.css gives a chart card its padding; without it the figure keeps the browser's margins.
    expect(await chart.evaluate((el) => getComputedStyle(el).paddingTop)).toBe('12px');
    await showsFixed(page, '6-compare-charts');
  },
);

/** A long answer (~300 words) in one model's own phrasing, ending with `end`. */
const essay = (voice: string, end: string) =>
  `${Array.from({ length: 30 }, (_, i) => `${voice} point ${i + 1}: the capital of France is Paris, on the Seine.`).join(' ')} ${end}`;
const LONG_A = essay('Firstly, consider', 'END OF ANSWER A');
const LONG_B = essay('As a matter of fact', 'END OF ANSWER B');

/** Two runs whose first row has long, differently phrased answers; the compare page by a direct link. */
async function openLongComparison(page: import('@playwright/test').Page, api: WeftClient, project: string, extra = '') {
  const f = await publish(api, project);
  const a = await seedRun(api, f, 'model-a', [[LONG_A], ['Rome'], ['Madrid']]);
  const b = await seedRun(api, f, 'model-b', [[LONG_B], ['Rome'], ['Madrid']]);
  await page.goto(`/${project}/evaluations/compare?runs=${a},${b}${extra}`);
  return page.getByRole('table', { name: 'Compared results' });
}

/** The element's box lies inside the viewport. */
async function expectInViewport(page: import('@playwright/test').Page, el: import('@playwright/test').Locator) {
  const box = (await el.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height + 1);
}

test(
  'the row view opens in view from a row click, Enter or its number; Back closes it',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    test.setTimeout(90_000);
    const compared = await openLongComparison(page, api, project);
    // The table's default columns fit 1280 px: both outputs and the scores are in view.
    for (const name of ['Output A', 'Output B', 'correct A→B', 'brevity A→B']) {
      const header = compared.getByRole('columnheader').filter({ hasText: new RegExp(`^${name}`) });
      await expect(header).toBeVisible();
      const box = (await header.boundingBox())!;
      if (page.viewportSize()!.width >= DESKTOP.width) expect(box.x + box.width, name).toBeLessThanOrEqual(DESKTOP.width);
    }

    // A click anywhere on the row (not on a link) opens the row view, in the viewport.
    await compared
      .getByRole('row', { name: /Capital of Italy/ })
      .getByText('Capital of Italy?')
      .click();
    const view = page.getByRole('region', { name: 'Row 2 of 3' });
    await expect(view).toBeVisible();
    await expectInViewport(page, view);
    await expect(page).toHaveURL(/row=/);
    const link = page.url();

    // Back closes it, and the table is still there.
    await page.goBack();
    await expect(view).toBeHidden();
    await expect(compared).toBeVisible();

    // Enter on the cursor row opens it; p / n and j / k walk the rows; Esc closes.
    await compared
      .getByRole('row', { name: /Capital of Spain/ })
      .getByText('Capital of Spain?')
      .click();
    await expect(page.getByRole('region', { name: 'Row 3 of 3' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: 'Row 3 of 3' })).toBeHidden();
    await compared.getByRole('row', { name: /Capital of France/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Row 1 of 3' })).toBeVisible();
    await expectInViewport(page, page.getByRole('region', { name: 'Row 1 of 3' }));
    await page.keyboard.press('n');
    await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toBeVisible();
    await page.keyboard.press('j');
    await expect(page.getByRole('region', { name: 'Row 3 of 3' })).toBeVisible();
    await page.keyboard.press('p');
    await page.keyboard.press('k');
    await expect(page.getByRole('region', { name: 'Row 1 of 3' })).toBeVisible();
    // Closed, the row last read has the table's cursor.
    await page.keyboard.press('Escape');
    await expect(compared.getByRole('row', { name: /Capital of France/ })).toBeFocused();

    // The row number is a link to it too.
    await compared.getByRole('link', { name: 'Open row 2' }).click();
    await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toBeVisible();

    // A direct link opens the row view.
    await page.goto(link);
    await expect(page.getByRole('region', { name: 'Row 2 of 3' })).toContainText('Capital of Italy?');
    await expectInViewport(page, page.getByRole('region', { name: 'Row 2 of 3' }));
    await showsFixed(page, '4-row-view-link');
  },
);

test(
  'the row view reads both outputs in full, side by side, with an optional diff',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    test.setTimeout(90_000);
    const compared = await openLongComparison(page, api, project);
    await expect(compared.getByRole('row', { name: /Capital of France/ })).toBeVisible();
    await showsFixed(page, '4-compare-table');
    await compared.getByRole('link', { name: 'Open row 1' }).click();
    const view = page.getByRole('region', { name: 'Row 1 of 3' });
    const outA = view.getByRole('article', { name: /^Output A/ });
    const outB = view.getByRole('article', { name: /^Output B/ });
    // Labelled: which run is the baseline and which is compared with it.
    await expect(view.getByLabel('Baseline run')).toHaveValue(/.+/);
    await expect(view.getByLabel('Compared run')).toHaveValue(/.+/);
    await expect(outA).toContainText('baseline');

    // Each output whole, in no box of its own that scrolls: the panel scrolls both together.
    await expect(outA).toContainText('END OF ANSWER A');
    await expect(outB).toContainText('END OF ANSWER B');
    for (const out of [outA, outB]) {
      const inner = await out.evaluate(
        (el) =>
          [el, ...el.querySelectorAll('*')].filter(
            (e) => e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY !== 'visible',
          ).length,
      );
      expect(inner).toBe(0);
    }
    // Side by side at 1280 px; stacked on a phone.
    const [boxA, boxB] = [(await outA.boundingBox())!, (await outB.boundingBox())!];
    if (page.viewportSize()!.width >= DESKTOP.width) {
      expect(boxB.x).toBeGreaterThanOrEqual(boxA.x + boxA.width - 1);
      expect(Math.abs(boxB.y - boxA.y)).toBeLessThan(2);
    } else expect(boxB.y).toBeGreaterThanOrEqual(boxA.y + boxA.height - 1);
    // Synchronized scrolling: scrolling the view moves both outputs alike.
    await outB.getByText('END OF ANSWER B').scrollIntoViewIfNeeded();
    const [afterA, afterB] = [(await outA.boundingBox())!, (await outB.boundingBox())!];
    expect(afterA.y).toBeLessThan(boxA.y - 100);
    expect(Math.abs(afterA.y - boxA.y - (afterB.y - boxB.y))).toBeLessThan(2);

    // No diff marks until asked for; then each side marks what the other lacks.
    const toggle = view.getByRole('checkbox', { name: 'Highlight differences' });
    await expect(toggle).not.toBeChecked();
    await expect(view.locator('ins, del')).toHaveCount(0);
    await toggle.check();
    await expect(outB.locator('ins', { hasText: 'matter' }).first()).toBeVisible();
    await expect(outA.locator('del', { hasText: 'Firstly' }).first()).toBeVisible();
    await expect(outA.locator('ins')).toHaveCount(0);
    await expect(outB.locator('del')).toHaveCount(0);
    await expect(page).toHaveURL(/marks=1/);
    await showsFixed(page, '4-row-view-diff');
  },
);

test(
  'at 390 px the row view stacks the outputs and nothing scrolls sideways',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const compared = await openLongComparison(page, api, project);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await expect(compared.getByRole('row', { name: /Capital of France/ })).toBeVisible();
    expect(await sideways()).toBeLessThanOrEqual(0);
    await compared.getByRole('link', { name: 'Open row 1' }).click();
    const view = page.getByRole('region', { name: 'Row 1 of 3' });
    await expect(view).toBeVisible();
    await expectInViewport(page, view);
    const outA = view.getByRole('article', { name: /^Output A/ });
    const outB = view.getByRole('article', { name: /^Output B/ });
    const [boxA, boxB] = [(await outA.boundingBox())!, (await outB.boundingBox())!];
    expect(boxB.y).toBeGreaterThanOrEqual(boxA.y + boxA.height - 1);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await showsFixed(page, '4-row-view-stacked');
  },
);

test('the runs list shows three scorers within 1280 px', { tag: [SCREENS, WIDE_ONLY] }, async ({ signedInPage: page, api, project }) => {
  const [entity, name] = project.split('/') as [string, string];
  const path = { entity, project: name };
  const ds = await api.datasetCreate({ ...path, name: 'capitals', rows: ROWS });
  const dataset = `weave:///${project}/object/capitals:${ds.digest}`;
  const scorers = [];
  for (const scorer of ['correct', 'helpfulness', 'conciseness'])
    scorers.push((await api.scorerCreate({ ...path, name: scorer, op_source_code: 'def score(output): ...' })).scorer);
  const evaluation = (await api.evaluationCreate({ ...path, name: 'support-eval', dataset, scorers })).evaluation_ref;
  const model = (await api.modelCreate({ ...path, name: 'support-bot-gpt-4.1', source_code: 'def predict(question): ...' })).model_ref;
  const { evaluation_run_id } = await api.evaluationRunCreate({ ...path, evaluation, model });
  const { prediction_id } = await api.predictionCreate({ ...path, model, inputs: ROWS[0]!, output: 'Paris', evaluation_run_id });
  for (const [i, scorer] of scorers.entries())
    await api.scoreCreate({ ...path, prediction_id, scorer, value: i === 0 ? true : 0.8, evaluation_run_id });
  await api.predictionFinish({ ...path, prediction_id });
  await api.evaluationRunFinish({ ...path, evaluation_run_id });

  await page.goto(`/${project}/evaluations`);
  const runs = page.getByRole('table', { name: 'Evaluation runs' });
  for (const scorer of ['correct', 'helpfulness', 'conciseness']) {
    const header = runs.getByRole('columnheader').filter({ hasText: new RegExp(`^${scorer} \\(`) });
    await expect(header).toBeVisible();
    const box = (await header.boundingBox())!;
    expect(box.x + box.width, scorer).toBeLessThanOrEqual(1280);
  }
  await showsFixed(page, '9-runs-scorers');
});
