/**
 * A review's answers are feedback on the call, so the calls table must show them as soon as the
 * reviewer goes back to it, in the same page (no reload): the review submit refreshes the
 * feedback and calls caches it wrote to.
 */
import { randomUUID } from 'node:crypto';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('the calls table shows an annotation at once after a review is submitted', async ({ signedInPage: page, api, project }) => {
  const [trace] = await seedAgentTraces(api, { projectId: project, count: 1, failEvery: 0 });
  const val = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'verdict',
    field_schema: { type: 'string', enum: ['good', 'bad'] },
  };
  const { digest } = await api.objCreate({ obj: { project_id: project, object_id: 'verdict', val } });
  const queueName = `Fresh ${randomUUID().slice(0, 6)}`;
  const { id: queueId } = await api.annotationQueueCreate({
    project_id: project,
    name: queueName,
    scorer_refs: [`weave:///${project}/object/verdict:${digest}`],
  });
  await api.annotationQueueAddCalls({ project_id: project, queue_id: queueId, call_ids: [trace!.rootId], display_fields: [] });

  // The calls table is loaded (and cached) before the review: no annotation yet.
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table.getByRole('link', { name: 'research_agent', exact: true })).toBeVisible();
  // The Feedback column, hidden by default to fit 1280 px, shown from the column chooser.
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Feedback', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: /Feedback/ })).toBeVisible();
  await expect(table.getByRole('img', { name: '1 annotation' })).toHaveCount(0);
  // A marker on the window: it survives client-side navigation and would vanish on a reload.
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));

  // Review the call, moving through the app's own links.
  const nav = page.getByRole('navigation', { name: 'Project sections' });
  await nav.getByRole('link', { name: 'Annotation queues' }).click();
  await page.getByRole('link', { name: `Review ${queueName}` }).click();
  await expect(page.getByText('1 of 1')).toBeVisible();
  await page.getByRole('radio', { name: 'good' }).click();
  await page.keyboard.press('Enter');
  await expect(page.getByText('All done')).toBeVisible();

  // Back on the calls table, the answer is there without a reload.
  await nav.getByRole('link', { name: 'Calls' }).click();
  await expect(table.getByRole('img', { name: '1 annotation' })).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
});
