/**
 * Prompts: `StringPrompt` versions published in the SDKs' shape are listed with their
 * variables; a prompt's page shows a version's content, a line diff against another version,
 * an alias set in place, and the calls whose inputs name the version. A `MessagesPrompt`
 * published by the weave npm SDK opens in the playground, runs with its variables filled
 * (against an OpenAI-compatible stand-in run by this spec), and its edit saved there is a
 * version the SDK reads back as a `MessagesPrompt` (docs/prompts.md).
 */
import * as weave from 'weave';
import { startFakeOpenAi } from '../src/server/testing/fakeOpenAi.js';
import { expect, test } from './fixtures/test.js';

const stringPrompt = (content: string) => ({
  _type: 'StringPrompt',
  name: 'greeter',
  description: null,
  content,
  _class_name: 'StringPrompt',
  _bases: ['Prompt', 'Object', 'BaseModel'],
});

test('a prompt: versions, variables, a diff, an alias and the calls that used it', async ({ signedInPage: page, api, project }) => {
  test.setTimeout(60_000);
  await api.objCreate({ obj: { project_id: project, object_id: 'greeter', val: stringPrompt('Hello {name}.\nBe brief.') } });
  const v1 = await api.objCreate({
    obj: { project_id: project, object_id: 'greeter', val: stringPrompt('Hello {name}.\nAnswer in {language}.') },
  });
  const ref = `weave:///${project}/object/greeter:${v1.digest}`;
  const now = new Date().toISOString();
  await api.callStart({
    start: { project_id: project, id: 'c-1', trace_id: 't-1', op_name: 'greet', started_at: now, attributes: {}, inputs: { prompt: ref } },
  });

  await page.goto(`/${project}/prompts`);
  const row = page.getByRole('row', { name: /greeter/ });
  await expect(row).toContainText('StringPrompt');
  await expect(row).toContainText('name, language');
  await row.getByRole('link', { name: 'greeter' }).click();

  await expect(page.getByLabel('Variables')).toHaveText('name, language');
  await expect(page.getByRole('region', { name: 'Prompt' })).toContainText('Answer in {language}.');
  await page.getByLabel('Compare with').selectOption('v0');
  const changes = page.getByLabel('Changes');
  await expect(changes).toContainText('− Be brief.');
  await expect(changes).toContainText('+ Answer in {language}.');
  expect(new URL(page.url()).searchParams.get('vs')).toBeTruthy();

  const versions = page.getByRole('table', { name: 'Prompt versions' });
  await versions.getByRole('button', { name: 'Add alias to v1' }).click();
  await page.getByLabel('New alias for v1').fill('production');
  await page.getByLabel('New alias for v1').press('Enter');
  await expect(versions.getByLabel('Aliases of v1')).toContainText('production');
  const { obj } = await api.objRead({ project_id: project, object_id: 'greeter', digest: 'production' });
  expect(obj.digest).toBe(v1.digest);

  await expect(page.getByRole('region', { name: 'Calls using this version' }).getByRole('link', { name: 'greet' })).toBeVisible();
});

test('a prompt opens in the playground, runs with its variables and saves a version the SDK reads', async ({
  signedInPage: page,
  api,
  project,
  adminKey,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const fake = await startFakeOpenAi({ apiKey: 'sk-e2e-prompts', models: ['llama3.2'] });
  const saved = { url: process.env.WF_TRACE_SERVER_URL, key: process.env.WANDB_API_KEY };
  process.env.WF_TRACE_SERVER_URL = baseURL;
  process.env.WANDB_API_KEY = adminKey;
  try {
    await api.providerCreate({
      project_id: project,
      name: 'local',
      base_url: fake.baseUrl,
      api_key: 'sk-e2e-prompts',
      models: [{ name: 'llama3.2' }],
    });
    const sdk = await weave.init(project);
    const published = new weave.MessagesPrompt({
      name: 'support',
      messages: [
        { role: 'system', content: 'You are {persona}.' },
        { role: 'user', content: 'Help with {topic}' },
      ],
    });
    const v0 = await sdk.publish(published);

    await page.goto(`/${project}/prompts/support`);
    await page.getByRole('link', { name: 'Open in playground' }).click();
    await expect(page.getByText('Opened from prompt')).toContainText('support v0');
    await expect(page.getByRole('textbox', { name: 'Message 1', exact: true })).toHaveValue('You are {persona}.');
    await expect(page.getByRole('textbox', { name: 'Message 2', exact: true })).toHaveValue('Help with {topic}');
    await page.getByLabel('Variable persona').fill('a support agent');
    await page.getByLabel('Variable topic').fill('billing');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: 'Answer of model 1' })).toContainText('Echo: Help with billing');
    const sent = fake.requests.find((r) => r.path === '/v1/chat/completions')!.body.messages;
    expect(sent).toEqual([
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Help with billing' },
    ]);

    await page.getByRole('textbox', { name: 'Message 2', exact: true }).fill('Help me with {topic} today');
    await page.getByRole('button', { name: 'Save as new version of support' }).click();
    const status = page.getByRole('group', { name: 'Save prompt' }).getByRole('status');
    await expect(status).toContainText('Saved support v1');
    const digest = new URL((await status.getByRole('link').getAttribute('href'))!, baseURL).searchParams.get('v')!;
    await page.getByLabel('New prompt name').fill('support-terse');
    await page.getByRole('button', { name: 'Save as new prompt' }).click();
    await expect(status).toContainText('Saved support-terse v0');

    // The SDK reads the saved versions as its own class, and publishing the same prompt itself
    // lands on the same digest: the playground wrote the SDK's shape.
    const edited = [
      { role: 'system', content: 'You are {persona}.' },
      { role: 'user', content: 'Help me with {topic} today' },
    ];
    for (const [objectId, version] of [
      ['support', digest],
      ['support-terse', 'latest'],
    ]) {
      const read = await sdk.get(new weave.ObjectRef(project, objectId!, version!));
      expect(read).toBeInstanceOf(weave.MessagesPrompt);
      expect((read as weave.MessagesPrompt).messages).toEqual(edited);
      expect((read as weave.MessagesPrompt).name).toBe(objectId);
    }
    const again = await sdk.publish(new weave.MessagesPrompt({ name: 'support', messages: edited }));
    expect(again.digest).toBe(digest);
    expect(again.digest).not.toBe(v0.digest);

    await page.goto(`/${project}/prompts/support`);
    await expect(page.getByRole('button', { name: 'v1', pressed: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Prompt' })).toContainText('Help me with {topic} today');
    // The run named v0 by its ref, so it is one of the calls using v0.
    await page.getByRole('button', { name: 'v0' }).click();
    const usedBy = page.getByRole('region', { name: 'Calls using this version' });
    await expect(usedBy).toContainText('completions_create');
    // That call opens in the playground as the prompt it named, with its variables.
    await usedBy.getByRole('link', { name: /completions_create/ }).click();
    await page.getByRole('link', { name: 'Open in playground' }).click();
    await expect(page.getByText('Opened from prompt')).toContainText('support v0');
    await expect(page.getByRole('textbox', { name: 'Message 2', exact: true })).toHaveValue('Help with {topic}');
    await expect(page.getByLabel('Variable topic')).toHaveValue('billing');
  } finally {
    process.env.WF_TRACE_SERVER_URL = saved.url;
    process.env.WANDB_API_KEY = saved.key;
    if (saved.url === undefined) delete process.env.WF_TRACE_SERVER_URL;
    if (saved.key === undefined) delete process.env.WANDB_API_KEY;
    await fake.close();
  }
});
