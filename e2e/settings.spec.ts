/** Settings: API keys (shown once, revoked at once), users, and a project's model prices. */
import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures/test.js';

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

test('create an API key, see it once, revoke it: the key then answers 401', async ({ signedInPage: page, baseURL }) => {
  const name = `e2e-${randomUUID().slice(0, 8)}`;
  await page.goto('/settings');
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();

  const notice = page.getByRole('status', { name: 'New API key' });
  await expect(notice).toContainText('won’t see it again');
  const key = (await notice.getByLabel('API key').innerText()).trim();
  expect(key).toMatch(/^[a-z0-9]{40}$/);
  const whoami = () => fetch(`${baseURL}/weft/whoami`, { headers: { authorization: basic('api', key) } });
  expect((await whoami()).status).toBe(200);

  // Once dismissed (or reloaded) the key is gone for good: only its id prefix is listed.
  await notice.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(key)).toHaveCount(0);
  await page.reload();
  const keys = page.getByRole('table', { name: 'Your API keys' });
  const row = keys.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${key.slice(0, 10)}…`);
  expect(await page.content()).not.toContain(key);

  // Revoke asks first; Cancel keeps the key.
  await row.getByRole('button', { name: `Revoke key ${name}` }).click();
  await row.getByRole('button', { name: 'Cancel' }).click();
  expect((await whoami()).status).toBe(200);
  await row.getByRole('button', { name: `Revoke key ${name}` }).click();
  await row.getByRole('button', { name: 'Revoke key', exact: true }).click();
  await expect(row).toContainText('Revoked');
  expect((await whoami()).status).toBe(401);
});

test('an admin creates a user who can then log in', async ({ signedInPage: page, baseURL }) => {
  const username = `user-${randomUUID().slice(0, 8)}`;
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Create a user' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill('a-long-password');
  await form.getByLabel('Entities').fill('e2e-team, research');
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('status')).toContainText(`Created ${username}`);
  // Each entity is a membership with the default role, member.
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username });
  await expect(row.getByLabel(`Role of ${username} in e2e-team`)).toHaveValue('member');
  await expect(row.getByLabel(`Role of ${username} in research`)).toHaveValue('member');

  const res = await fetch(`${baseURL}/weft/whoami`, { headers: { authorization: basic(username, 'a-long-password') } });
  expect(await res.json()).toMatchObject({ username, is_admin: false, entities: ['e2e-team', 'research'] });
});

test('add a project price, see it in force, delete it', async ({ signedInPage: page, api, project }) => {
  const model = `e2e-model-${randomUUID().slice(0, 8)}`;
  await page.goto(`/${project}/settings`);
  const form = page.getByRole('form', { name: 'Add a price' });
  await form.getByLabel('Model').fill(model);
  await form.getByLabel('Prompt $ / 1M').fill('1.5');
  await form.getByLabel('Completion $ / 1M').fill('6');
  await form.getByRole('button', { name: 'Add price' }).click();

  const prices = page.getByRole('table', { name: 'Model prices' });
  const row = prices.getByRole('row').filter({ hasText: model });
  await expect(row).toContainText('$1.50');
  await expect(row).toContainText('$6.00');
  await expect(row).toContainText('project');
  const [listed] = (await api.pricesList({ project_id: project })).prices.filter((p) => p.llm_id === model);
  expect(listed).toMatchObject({ in_force: true, prompt_token_cost: 1.5e-6, pricing_level: 'project' });

  await row.getByRole('button', { name: new RegExp(`Delete the project price of ${model}`) }).click();
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toHaveCount(0);
  expect((await api.pricesList({ project_id: project })).prices.some((p) => p.llm_id === model)).toBe(false);
});

test('choose a default entity: the SDKs get it from /graphql', async ({ signedInPage: page, baseURL }) => {
  const entity = `e2e-team-${randomUUID().slice(0, 8)}`;
  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Default entity' });
  await card.getByLabel('Default entity').fill(entity);
  await card.getByRole('button', { name: 'Save default entity' }).click();
  await expect(card.getByRole('status')).toHaveText('Saved');
  await expect(card).toContainText(`${entity}/my-project`);

  const res = await fetch(`${baseURL}/graphql`, {
    method: 'POST',
    headers: { authorization: basic('admin', 'e2e-admin-password'), 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { defaultEntity { name } } }' }),
  });
  expect(await res.json()).toEqual({ data: { viewer: { defaultEntity: { name: entity } } } });
});
