/**
 * A component's stylesheet comes with it (docs/dashboard.md "Styles"): opened by a direct link,
 * with no other page visited first, pieces whose rules used to live in another feature's sheet
 * are styled: the provider notice on Judges and Monitors (annotation.css), and the queue page's
 * breadcrumbs (the review page's sheet).
 */
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

test('the provider notice is styled on a direct link to judges and monitors', { tag: SCREENS }, async ({ signedInPage: page, project }) => {
  for (const path of ['judges', 'monitors']) {
    await page.goto(`/${project}/${path}`);
    const notice = page.getByRole('status').filter({ hasText: 'need a model provider' });
    await expect(notice).toBeVisible();
    await expect(notice).toHaveCSS('display', 'flex');
    await expect(notice).toHaveCSS('padding', '8px 12px');
    await showsFixed(page, `6-provider-notice-${path}`);
  }
});

test('the queue page breadcrumbs are styled on a direct link', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: 'Crumbs', scorer_refs: [] });
  await page.goto(`/${project}/annotation/${queueId}`);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toBeVisible();
  await expect(crumbs).toHaveCSS('display', 'flex');
  await expect(crumbs).toHaveCSS('column-gap', '8px');
  await showsFixed(page, '6-queue-breadcrumbs');
});
