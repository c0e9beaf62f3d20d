/**
 * The app never goes blank when its code cannot be fetched (a server gone away mid-session):
 * the error page is part of the main bundle, so a page whose code fails to load shows it, and
 * Retry loads the page once the code can be fetched again.
 */
import { expect, test } from './fixtures/test.js';
import { openSection, SCREENS, showsFixed } from './fixtures/screens.js';

test(
  'a page whose code cannot be fetched shows the error page, and Retry recovers',
  { tag: SCREENS },
  async ({ signedInPage: page, project }) => {
    await page.goto(`/${project}/threads`);
    await expect(page.getByRole('heading', { name: 'Threads', level: 1 })).toBeVisible();
    // From here on no code chunk can be fetched, as when the server has stopped.
    const blocked = (url: URL) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js');
    await page.route(blocked, (route) => route.abort('connectionrefused'));
    await openSection(page, 'Evaluations');
    const retry = page.getByRole('button', { name: 'Retry' });
    await expect(retry).toBeVisible();
    await showsFixed(page, '1-error-page');
    await page.unroute(blocked);
    await retry.click();
    await expect(page.getByRole('heading', { name: 'Evaluations', level: 1 })).toBeVisible();
  },
);

test(
  'a failed threads request shows the error, not "no threads match" and a stale count',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const started_at = new Date().toISOString();
    await api.callStart({
      start: {
        project_id: project,
        id: 'turn-1',
        trace_id: 'trace-1',
        op_name: 'chat',
        started_at,
        inputs: {},
        attributes: {},
        thread_id: 'thread-1',
        turn_id: 'turn-1',
      },
    });
    const failing = (url: URL) => url.pathname.startsWith('/threads/');
    await page.route(failing, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"reason":"boom"}' }));
    await page.goto(`/${project}/threads`);
    await expect(page.getByRole('alert')).toContainText('The server had a problem');
    await expect(page.getByText('No threads match these filters.')).toHaveCount(0);
    await expect(page.locator('.page-header .muted')).toHaveText('');
    await showsFixed(page, '11-failed-request');
    await page.unroute(failing);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('table', { name: 'Threads' }).getByRole('row').nth(1)).toContainText('thread-1');
    await expect(page.locator('.page-header .muted')).toHaveText('1 thread');
  },
);
