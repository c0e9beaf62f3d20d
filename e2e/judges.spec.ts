/**
 * LLM judges against the OpenAI stand-in: with no provider every judge feature says what to
 * configure; a judge model and a judge are created and edited in the browser (each save a new
 * version); "Score with…" scores the calls matching the filters as a followed job and the score
 * shows in the Scores column; a monitor created and paused in the browser scores calls that end
 * while it is active.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { startFakeOpenAi, type FakeOpenAi } from '../src/server/testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../src/server/testing/llmFixture.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['llama3.2'] });
});
test.afterAll(async () => {
  await fake.close();
});

async function addProvider(api: WeftClient, project: string) {
  await api.providerCreate({ project_id: project, name: 'local', base_url: fake.baseUrl, models: [{ name: 'llama3.2' }] });
}

/** One finished call of op `answer` (or another op). */
async function logAnswer(api: WeftClient, project: string, question: string, op = 'answer'): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await api.callStart({
    start: {
      project_id: project,
      id,
      trace_id: id,
      op_name: `weave:///${project}/op/${op}:v0`,
      started_at: now,
      attributes: {},
      inputs: { question },
    },
  });
  await api.callEnd({ end: { project_id: project, id, ended_at: now, output: `An answer to ${question}`, summary: {} } });
  return id;
}

test('without a provider, judges, monitors and Score with… say what to configure', async ({ signedInPage: page, api, project }) => {
  await logAnswer(api, project, 'anyone there?');
  await page.goto(`/${project}/judges`);
  await expect(page.getByRole('status').filter({ hasText: 'Judges need a model provider' })).toContainText('OPENAI_API_KEY');
  await page.goto(`/${project}/monitors`);
  await expect(page.getByRole('status').filter({ hasText: 'need a model provider' })).toBeVisible();
  await page.goto(`/${project}/calls`);
  await page.getByRole('button', { name: 'Score with…' }).click();
  await expect(page.getByText('Scoring needs a model provider')).toBeVisible();
});

test(
  'create and edit a judge model and a judge, then score calls with it',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    await addProvider(api, project);
    await logAnswer(api, project, 'What is two plus two?');
    await page.goto(`/${project}/judges`);

    await page.getByRole('button', { name: 'New model' }).click();
    let dialog = page.getByRole('dialog', { name: 'New judge model' });
    await dialog.getByLabel('Name').fill('strict-model');
    await dialog.getByLabel('Provider model').selectOption('local/llama3.2');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    const models = page.getByRole('table', { name: 'Models' });
    await expect(models.getByRole('row', { name: /strict-model/ })).toContainText('v1');

    await models.getByRole('button', { name: 'Edit model strict-model' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit model strict-model' });
    await expect(dialog.getByLabel('Provider model')).toHaveValue('local/llama3.2');
    await dialog.getByLabel('Temperature').fill('0.3');
    await dialog.getByRole('button', { name: 'Save new version' }).click();
    await expect(models.getByRole('row', { name: /strict-model/ })).toContainText('v2');

    await page.getByRole('button', { name: 'New judge' }).click();
    dialog = page.getByRole('dialog', { name: 'New LLM judge' });
    await dialog.getByLabel('Name').fill('helpful');
    await dialog.getByLabel('Judge model').selectOption({ label: 'strict-model (v2, local/llama3.2)' });
    await dialog.getByLabel('Scoring prompt').fill('Rate {output} for {question}');
    // Tried on the project's call before it is saved: a score, and nothing stored.
    const trial = dialog.getByRole('group', { name: 'Try on a call' });
    await expect(trial.getByRole('combobox', { name: 'Call to try on' })).toContainText('answer');
    await trial.getByRole('button', { name: 'Try' }).click();
    await expect(trial.getByRole('status', { name: 'Judge answer' })).toContainText(/Score \S+ in \d/);
    await showsFixed(page, '11-judge-try');
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('for What is two plus two?');
    expect((await api.feedbackQuery({ project_id: project })).result).toEqual([]);
    await dialog.getByRole('button', { name: 'Save judge' }).click();
    const judges = page.getByRole('table', { name: 'Judges' });
    await expect(judges.getByRole('row', { name: /helpful/ })).toContainText('Rate {output} for {question}');
    await judges.getByRole('button', { name: 'Edit judge helpful' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit judge helpful' });
    await dialog.getByLabel('Scoring prompt').fill('Rate the answer {output} to {question}');
    await dialog.getByRole('button', { name: 'Save new version' }).click();
    await expect(judges.getByRole('row', { name: /helpful/ })).toContainText('v2');

    // The saved judge is the reference class, readable by the SDKs and evaluate_model.
    const { objs } = await api.objsQuery({
      project_id: project,
      filter: { latest_only: true, leaf_object_classes: ['LLMAsAJudgeScorer'] },
    });
    expect(objs[0]!.val).toMatchObject({ _class_name: 'LLMAsAJudgeScorer', scoring_prompt: 'Rate the answer {output} to {question}' });

    await page.goto(`/${project}/calls`);
    await page.getByRole('button', { name: 'Score with…' }).click();
    await expect(page.getByRole('combobox', { name: 'Judge' })).toHaveValue(/\/object\/helpful:/);
    await page.getByRole('button', { name: 'Score 1 call' }).click();
    await expect(page.getByRole('status', { name: 'Scoring progress' })).toContainText('Done: 1 scored');
    await expect(page.getByRole('table', { name: 'Calls' }).getByText(/helpful: \d/)).toBeVisible();
    const judged = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    expect(JSON.stringify(judged.body.messages)).toContain('to What is two plus two?');
    expect(judged.body.temperature).toBe(0.3);
  },
);

test('a monitor created in the browser scores new calls until it is paused', async ({ signedInPage: page, api, project }) => {
  await addProvider(api, project);
  await publishLlmEvaluation(api, project, { model: 'local/llama3.2' });
  await logAnswer(api, project, 'before the monitor');
  // Evaluation and judge machinery the project also logged.
  for (const op of ['Evaluation.evaluate', 'Evaluation.predict_and_score', 'LLMAsAJudgeScorer.score'])
    await logAnswer(api, project, op, op);
  await page.goto(`/${project}/monitors`);
  await page.getByRole('button', { name: 'New monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'New monitor' });
  await dialog.getByLabel('Name').fill('answers');
  await expect(dialog.getByRole('checkbox', { name: /helpfulness/ })).toBeChecked();
  // The evaluation's machinery is folded away; a search finds any op.
  await expect(dialog.getByRole('checkbox', { name: 'answer', exact: true })).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Evaluation.evaluate' })).toHaveCount(0);
  await dialog.getByRole('searchbox', { name: 'Find an op' }).fill('evaluate');
  await expect(dialog.getByRole('checkbox', { name: 'Evaluation.evaluate' })).toBeVisible();
  await dialog.getByRole('searchbox', { name: 'Find an op' }).fill('');
  await dialog.getByRole('checkbox', { name: 'answer', exact: true }).check();
  await dialog.getByLabel('Sampling rate (%)').fill('100');
  await dialog.getByRole('button', { name: 'Create monitor' }).click();
  const row = page.getByRole('table', { name: 'Monitor list' }).getByRole('row', { name: /answers/ });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('100%');

  const scored = await logAnswer(api, project, 'after the monitor');
  const scores = page.getByRole('table', { name: 'Monitor scores' });
  await expect(scores).toContainText(scored.slice(-8), { timeout: 20_000 });
  await expect(scores.getByRole('row')).toHaveCount(2);

  await row.getByRole('button', { name: 'Pause answers' }).click();
  await expect(row).toContainText('Paused');
  await expect(row).toContainText('v2');

  await page.goto(`/${project}/calls`);
  // The Scores column is hidden by default (to fit 1280 px): shown from the column chooser.
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Scores', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Scores', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Calls' }).getByText(/helpfulness: \d/)).toHaveCount(1);
});

test('the judge dialogs are styled on a direct link to the judges page', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  await addProvider(api, project);
  await page.goto(`/${project}/judges`);
  await page.getByRole('button', { name: 'New model' }).click();
  const dialog = page.getByRole('dialog', { name: 'New judge model' });
  await expect(dialog).toBeVisible();
  // The dialog frame (components/ui/modal.css): rounded, with a header rule.
  expect(await dialog.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('8px');
  await showsFixed(page, '6-judge-dialog');
});
