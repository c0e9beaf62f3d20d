/**
 * The playground: with no provider it says what to configure; a provider added in Settings (an
 * OpenAI-compatible stand-in server run by this spec) makes its models runnable; two models
 * answer the same prompt side by side, each run is a tracked call; an LLM call in a trace
 * opens in the playground with its messages prefilled.
 */
import { startFakeOpenAi, type FakeOpenAi } from '../src/server/testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../src/server/testing/llmFixture.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-e2e-provider-7777', models: ['llama3.2', 'qwen2.5'] });
});
test.afterAll(async () => {
  await fake.close();
});

test(
  'configure a provider, compare two models, open the call, reopen it in the playground',
  { tag: SCREENS },
  async ({ signedInPage: page, project }) => {
    await page.goto(`/${project}/playground`);
    const empty = page.getByRole('status', { name: 'No model provider' });
    await expect(empty).toContainText('No model provider is configured');
    await empty.getByRole('link', { name: 'Add a model provider in Settings' }).click();

    const form = page.getByRole('form', { name: 'Add a model provider' });
    await form.getByLabel('Provider name').fill('local');
    await form.getByLabel('Base URL').fill(fake.baseUrl);
    await form.getByLabel('API key').fill('sk-e2e-provider-7777');
    await form.getByLabel('Models').fill('llama3.2, qwen2.5:0.5:1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const providers = page.getByRole('table', { name: 'Model providers' });
    await expect(providers).toContainText('sk-…7777');
    await expect(providers).toContainText('llama3.2, qwen2.5');
    expect(await page.content()).not.toContain('sk-e2e-provider-7777');
    await providers.getByRole('button', { name: 'Test provider local' }).click();
    await expect(providers.getByRole('status')).toContainText('Works: 2 models');

    await page.goto(`/${project}/playground`);
    // Nothing to answer yet: Run waits for a user message.
    await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
    await page.getByRole('textbox', { name: 'Message 2', exact: true }).fill('compare these models');
    await page.getByRole('button', { name: 'Add model to compare' }).click();
    await page.getByRole('combobox', { name: 'Model 2' }).selectOption('local/qwen2.5');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: 'Answer of model 1' })).toContainText('Echo: compare these models');
    await expect(page.getByRole('region', { name: 'Answer of model 2' })).toContainText('Echo: compare these models');
    // Each answer says how long it took and what it cost (no price is set for these models).
    await expect(page.getByRole('region', { name: 'Model 1' }).locator('.playground-meta')).toContainText(/\d+(\.\d+)? ?m?s · no price/);
    await showsFixed(page, '11-playground-meta');
    const sentModels = fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body.model);
    expect(sentModels).toEqual(expect.arrayContaining(['llama3.2', 'qwen2.5']));

    // The run is a tracked call; from its trace, "Open in playground" brings the prompt back.
    await page.getByRole('region', { name: 'Model 2' }).getByRole('link', { name: 'View the call' }).click();
    const detail = page.getByRole('complementary', { name: 'Call details' });
    await expect(detail).toContainText('weave.completions_create');
    await detail.getByRole('link', { name: 'Open in playground' }).click();
    await expect(page.getByRole('textbox', { name: 'Message 2', exact: true })).toHaveValue('compare these models');
    await expect(page.getByRole('combobox', { name: 'Model 1' })).toHaveValue('local/qwen2.5');
    await expect(page.getByText(/Opened from call/)).toBeVisible();
  },
);

test('run an evaluation of an LLM model from the browser, with live progress ending in the run page', async ({
  signedInPage: page,
  api,
  project,
}) => {
  await api.providerCreate({
    project_id: project,
    name: 'local',
    base_url: fake.baseUrl,
    api_key: 'sk-e2e-provider-7777',
    models: [{ name: 'llama3.2' }],
  });
  await publishLlmEvaluation(api, project, { model: 'local/llama3.2' });
  await page.goto(`/${project}/evaluations`);
  await page.getByRole('button', { name: 'Run evaluation' }).click();
  const panel = page.getByRole('region', { name: 'Run evaluation' });
  await expect(panel.getByRole('combobox', { name: 'Evaluation' })).toContainText('qa-eval');
  await expect(panel.getByRole('combobox', { name: 'Model to evaluate' })).toContainText('answerer');
  await panel.getByRole('button', { name: 'Start' }).click();
  // Progress shows while it runs; a completed evaluation opens its run page by itself.
  await expect(page).toHaveURL(/\/evaluations\/runs\//);
  await expect(page.getByText('helpfulness').first()).toBeVisible();
});
