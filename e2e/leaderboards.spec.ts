/**
 * Leaderboards: one published as the Python SDK's `weave.publish(Leaderboard(...))` sends it is
 * shown with each model's newest run value, sortable, cells linking to runs; one made in the UI
 * reads back in the reference's dumped shape, and editing it saves a new version.
 *
 * Data: evaluation `qa-eval` (scorers `correct` (binary) and `quality` (continuous), 4 rows),
 *   alpha: correct 1,1,1,0 → true_fraction 0.75; quality 0.9,0.8,0.7,0.2 → mean 0.65
 *   beta:  correct 1,1,0,0 → true_fraction 0.5;  quality 1.0,0.9,0.9,0.8 → mean 0.9
 */
import type { WeftClient } from '../src/client/index.js';
import { expect, test } from './fixtures/test.js';

const ROWS = Array.from({ length: 4 }, (_, i) => ({ question: `q${i}`, expected: `a${i}` }));
const ALPHA = { correct: [1, 1, 1, 0], quality: [0.9, 0.8, 0.7, 0.2] };
const BETA = { correct: [1, 1, 0, 0], quality: [1.0, 0.9, 0.9, 0.8] };

async function seed(api: WeftClient, projectId: string) {
  const [entity, project] = projectId.split('/') as [string, string];
  const path = { entity, project };
  const ds = await api.datasetCreate({ ...path, name: 'qa', rows: ROWS });
  const dataset = `weave:///${projectId}/object/qa:${ds.digest}`;
  const correct = (await api.scorerCreate({ ...path, name: 'correct', op_source_code: 'def score(output): return True' })).scorer;
  const quality = (await api.scorerCreate({ ...path, name: 'quality', op_source_code: 'def score(output): return 0.5' })).scorer;
  const models = {
    alpha: (await api.modelCreate({ ...path, name: 'model-alpha', source_code: 'def predict(question): ...' })).model_ref,
    beta: (await api.modelCreate({ ...path, name: 'model-beta', source_code: 'def predict(question): ...' })).model_ref,
  };
  const evaluation = (await api.evaluationCreate({ ...path, name: 'qa-eval', dataset, scorers: [correct, quality] })).evaluation_ref;
  const runs: Record<string, string> = {};
  for (const [name, data] of [
    ['alpha', ALPHA],
    ['beta', BETA],
  ] as const) {
    const model = models[name];
    const { evaluation_run_id: run } = await api.evaluationRunCreate({ ...path, evaluation, model });
    for (const [i, row] of ROWS.entries()) {
      const { prediction_id } = await api.predictionCreate({ ...path, model, inputs: row, output: row.expected, evaluation_run_id: run });
      await api.scoreCreate({ ...path, prediction_id, scorer: correct, value: data.correct[i] === 1, evaluation_run_id: run });
      await api.scoreCreate({ ...path, prediction_id, scorer: quality, value: data.quality[i]!, evaluation_run_id: run });
      await api.predictionFinish({ ...path, prediction_id });
    }
    await api.evaluationRunFinish({ ...path, evaluation_run_id: run });
    runs[name] = run;
  }
  return { evaluation, runs };
}

const column = (evaluation: string, scorer: string, metric: string, minimize: boolean | null) => ({
  _type: 'LeaderboardColumn',
  evaluation_object_ref: evaluation,
  scorer_name: scorer,
  summary_metric_path: metric,
  should_minimize: minimize,
  _class_name: 'LeaderboardColumn',
  _bases: ['BaseModel'],
});

test('an SDK-published leaderboard shows each model’s values, sorts, and links to runs', async ({ signedInPage: page, api, project }) => {
  test.setTimeout(60_000);
  const { evaluation, runs } = await seed(api, project);
  // What the Python SDK's weave.publish sends for Leaderboard(name=..., columns=[...]).
  await api.objCreate({
    obj: {
      project_id: project,
      object_id: 'qa-board',
      val: {
        _type: 'Leaderboard',
        name: 'qa-board',
        description: 'QA models',
        columns: [column(evaluation, 'correct', 'true_fraction', false), column(evaluation, 'quality', 'mean', null)],
        _class_name: 'Leaderboard',
        _bases: ['BaseObject', 'BaseModel'],
      },
    },
  });

  await page.goto(`/${project}/leaderboards`);
  await page.getByRole('link', { name: 'qa-board' }).click();
  const table = page.getByRole('table', { name: 'Leaderboard qa-board' });
  const rows = table.getByRole('row');
  // Sorted by the first column, best (highest) first.
  await expect(rows.nth(1)).toContainText('model-alpha');
  await expect(rows.nth(1)).toContainText('0.750');
  await expect(rows.nth(1)).toContainText('0.650');
  await expect(rows.nth(2)).toContainText('model-beta');
  await expect(rows.nth(2)).toContainText('0.500');
  await expect(rows.nth(2)).toContainText('0.900');
  // Sorting by quality puts beta first; a second click reverses.
  await table.getByRole('button', { name: /quality/ }).click();
  await expect(rows.nth(1)).toContainText('model-beta');
  await table.getByRole('button', { name: /quality/ }).click();
  await expect(rows.nth(1)).toContainText('model-alpha');
  // A cell opens its run.
  await rows.nth(1).getByRole('link', { name: '0.750' }).click();
  await expect(page).toHaveURL(new RegExp(`/evaluations/runs/${runs.alpha}$`));
});

test('a leaderboard made in the UI reads back in the reference’s shape, and edits make versions', async ({
  signedInPage: page,
  api,
  project,
}) => {
  test.setTimeout(60_000);
  const { evaluation } = await seed(api, project);
  await page.goto(`/${project}/leaderboards`);
  await page.getByRole('button', { name: 'New leaderboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'New leaderboard' });
  await dialog.getByLabel('Name').fill('ui-board');
  await dialog.getByRole('button', { name: 'Add column' }).click();
  await dialog.getByLabel('Evaluation').selectOption({ label: 'qa-eval v0' });
  await dialog.getByLabel('Scorer').fill('quality');
  await dialog.getByLabel('Metric path').fill('mean');
  await dialog.getByRole('button', { name: 'Create leaderboard' }).click();
  await expect(page).toHaveURL(new RegExp(`/leaderboards/ui-board$`));
  const rows = page.getByRole('table', { name: 'Leaderboard ui-board' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('model-beta');
  await expect(rows.nth(1)).toContainText('0.900');

  const { obj } = await api.objRead({ project_id: project, object_id: 'ui-board', digest: 'latest' });
  expect(obj).toMatchObject({ base_object_class: 'Leaderboard', leaf_object_class: 'Leaderboard', version_index: 0 });
  expect(obj.val).toMatchObject({
    _type: 'Leaderboard',
    name: 'ui-board',
    description: null,
    columns: [column(evaluation, 'quality', 'mean', null)],
    calls_query: null,
    metric_configs: null,
    _class_name: 'Leaderboard',
    _bases: ['BaseObject', 'BaseModel'],
  });

  // Edit: lower quality is better now, so alpha leads; a new version.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit leaderboard ui-board' });
  await edit.getByLabel('Better').selectOption('lower');
  await edit.getByRole('button', { name: 'Save new version' }).click();
  await expect(edit).toBeHidden();
  await expect(rows.nth(1)).toContainText('model-alpha');
  const v1 = await api.objRead({ project_id: project, object_id: 'ui-board', digest: 'latest' });
  expect(v1.obj.version_index).toBe(1);
  expect((v1.obj.val as { columns: { should_minimize: unknown }[] }).columns[0]!.should_minimize).toBe(true);
});
