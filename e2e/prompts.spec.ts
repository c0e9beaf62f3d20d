/**
 * Prompts: `StringPrompt` versions published in the SDKs' shape are listed with their
 * variables; a prompt's page shows a version's content, a line diff against another version,
 * an alias set in place, and the calls whose inputs name the version (docs/prompts.md).
 */
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
