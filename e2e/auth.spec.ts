/** Signing in and out: wrong credentials are refused in words, the session survives reloads, logout ends it (sessions.spec.ts covers tabs and cookies). */
import { E2E_ADMIN } from './fixtures/credentials.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('log in, pick a project, log out', async ({ page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 3 });
  const [entity, name] = project.split('/') as [string, string];

  // A deep link while signed out goes to the login page, which says why, and comes back after signing in.
  await page.goto(`/${entity}/${name}/calls`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByRole('status')).toHaveText('Sign in to see this page; you will be taken back to it.');

  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password or API key').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');

  await page.getByLabel('Password or API key').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/${entity}/${name}/calls$`));
  await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();

  // The project picker lists the project; picking it from the home page opens its calls.
  await page.getByRole('link', { name: 'Weft home' }).click();
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('table', { name: 'Calls' }).getByRole('row')).toHaveCount(4); // header + 3 traces

  // The session survives a reload (its cookie), and logout ends it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();
  await page.getByRole('button', { name: 'Account admin' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('status')).toHaveText('You have signed out.');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
});

test('the project switcher moves between projects and keeps the section', async ({ signedInPage: page, api, project }) => {
  const other = `${project}-b`;
  await seedAgentTraces(api, { projectId: project, count: 2 });
  await seedAgentTraces(api, { projectId: other, count: 5 });
  await page.goto(`/${project}/calls`);
  await page.getByRole('button', { name: /switch project/ }).click();
  await page.getByLabel('Find a project').fill(other.split('/')[1]!);
  await page.getByRole('link', { name: new RegExp(other.split('/')[1]!) }).click();
  await expect(page).toHaveURL(new RegExp(`/${other}/calls$`));
  await expect(page.getByText('5 traces')).toBeVisible();
});

test('every section is built: none says coming soon', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 1 });
  await page.goto(`/${project}/calls`);
  const nav = page.getByRole('navigation', { name: 'Project sections' });
  await expect(nav).not.toContainText(/\bsoon\b/i);
  await nav.getByRole('link', { name: /Dashboards/ }).click();
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();
  await expect(page.getByText('Coming soon')).toHaveCount(0);
});
