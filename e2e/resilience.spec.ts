/**
 * The app never goes blank when its code cannot be fetched (a server gone away mid-session):
 * the error page is part of the main bundle, so a page whose code fails to load shows it, and
 * Retry loads the page once the code can be fetched again.
 */
import { expect, test } from './fixtures/test.js';

test('a page whose code cannot be fetched shows the error page, and Retry recovers', async ({ signedInPage: page, project }) => {
  await page.goto(`/${project}/threads`);
  await expect(page.getByRole('heading', { name: 'Threads', level: 1 })).toBeVisible();
  // From here on no code chunk can be fetched, as when the server has stopped.
  const blocked = (url: URL) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js');
  await page.route(blocked, (route) => route.abort('connectionrefused'));
  await page.getByRole('link', { name: 'Evaluations' }).first().click();
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await page.unroute(blocked);
  await retry.click();
  await expect(page.getByRole('heading', { name: 'Evaluations', level: 1 })).toBeVisible();
});
