/**
 * Saved views: a view saved on Calls, Threads or Evaluations is a `SavedView` object shared with
 * the project, listed in the sidebar under its page; loading it restores the URL exactly, and
 * the page's default view opens on a fresh visit (docs/saved-views.md).
 */
import type { Page } from '@playwright/test';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

/** Saves the page's current view under `label` through the Views dialog. */
async function saveView(page: Page, label: string, { makeDefault = false } = {}) {
  await page.getByRole('button', { name: 'Views', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Saved views' });
  await dialog.getByLabel('Name of the current view').fill(label);
  if (makeDefault) await dialog.getByLabel(/Default for everyone/).check();
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();
}

const searchOf = (page: Page) => new URL(page.url()).search;

test('a Calls view: saved in the reference’s shape, listed after a reload, loaded exactly, default on a fresh visit', async ({
  signedInPage: page,
  api,
  project,
}) => {
  test.setTimeout(60_000);
  await seedAgentTraces(api, { projectId: project, count: 6 });
  const filters = encodeURIComponent(JSON.stringify([['op_name', 'contains', 'agent']]));
  const saved = `?f=${filters}&sort=started_at%3Aasc&cols=op%2Cstatus%2Clatency&since=-7d`;
  await page.goto(`/${project}/calls${saved}`);
  await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();
  await saveView(page, 'Agent runs');

  // Stored as the reference's SavedView, with Weft's exact search beside its definition.
  const { objs } = await api.objsQuery({ project_id: project, filter: { base_object_classes: ['SavedView'] } });
  expect(objs).toHaveLength(1);
  expect(objs[0]!.val).toMatchObject({
    _type: 'SavedView',
    view_type: 'traces',
    label: 'Agent runs',
    definition: {
      _type: 'SavedViewDefinition',
      filter: { trace_roots_only: true },
      sort_by: [{ field: 'started_at', direction: 'asc' }],
      columns: [{ path: ['op'] }, { path: ['status'] }, { path: ['latency'] }],
      weft_search: saved,
    },
    _class_name: 'SavedView',
    _bases: ['BaseObject', 'BaseModel'],
  });

  // Elsewhere, after a reload: the sidebar lists it, and loading it restores the URL exactly.
  await page.goto(`/${project}/calls?sort=started_at%3Adesc`);
  await page.reload();
  const sidebar = page.getByRole('navigation', { name: 'Project sections' });
  await sidebar.getByRole('link', { name: 'Agent runs' }).click();
  await expect.poll(() => searchOf(page)).toBe(saved);
  await expect(sidebar.getByRole('link', { name: 'Agent runs' })).toHaveAttribute('aria-current', 'page');

  // A second view made the default: a fresh visit to Calls opens it.
  const errors = `?f=${encodeURIComponent(JSON.stringify([['summary.weave.status', 'eq', 'error']]))}`;
  await page.goto(`/${project}/calls${errors}`);
  await saveView(page, 'Errors', { makeDefault: true });
  await page.goto(`/${project}/calls`);
  await expect.poll(() => searchOf(page)).toBe(errors);
  await expect(sidebar.getByRole('link', { name: /Errors/ })).toContainText('default');
  // Leaving the view on the page stays left (the default applies once per visit).
  await sidebar.getByRole('link', { name: 'Calls', exact: true }).click();
  await expect.poll(() => searchOf(page)).toBe('');
  await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();
  expect(searchOf(page)).toBe('');
});

test('Threads and Evaluations views restore their URL from the sidebar; a default applies on a fresh visit', async ({
  signedInPage: page,
  api,
  project,
}) => {
  test.setTimeout(60_000);
  const threads = '?sort=turn_count%3Adesc&after=-7d';
  await page.goto(`/${project}/threads${threads}`);
  await expect(page.getByRole('heading', { name: 'Threads' })).toBeVisible();
  await saveView(page, 'Long threads');

  const evals = '?status=finished&sort=started_at%3Aasc';
  await page.goto(`/${project}/evaluations${evals}`);
  await expect(page.getByRole('heading', { name: 'Evaluations' })).toBeVisible();
  await saveView(page, 'Finished runs', { makeDefault: true });

  const { objs } = await api.objsQuery({ project_id: project, filter: { base_object_classes: ['SavedView'] } });
  expect(
    objs.map((o) => [
      (o.val as { view_type: string }).view_type,
      (o.val as { definition: { weft_search: string } }).definition.weft_search,
    ]),
  ).toEqual([
    ['weft.threads', threads],
    ['weft.evaluations', evals],
  ]);

  const sidebar = page.getByRole('navigation', { name: 'Project sections' });
  await page.goto(`/${project}/threads`);
  await sidebar.getByRole('link', { name: 'Long threads' }).click();
  await expect(page).toHaveURL(/\/threads\?/);
  expect(searchOf(page)).toBe(threads);

  // Evaluations' default opens on a fresh visit.
  await page.goto(`/${project}/evaluations`);
  await expect.poll(() => searchOf(page)).toBe(evals);
});
