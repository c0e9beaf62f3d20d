/**
 * Progress with two reviewers per item, opened by direct links: an item one reviewer answered
 * reads "1 of 2 reviews" (not "Completed") while the queue says no item has all its reviews; once
 * the second reviewer answers, the item, the queue page and the queues list all say completed.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type WeftClient } from '../src/client/index.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

/** A yes/no question stored as an AnnotationSpec. */
async function createSpec(api: WeftClient, project: string) {
  const val = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'verdict',
    field_schema: { type: 'string', enum: ['good', 'bad'] },
  };
  const { digest } = await api.objCreate({ obj: { project_id: project, object_id: 'verdict', val } });
  return `weave:///${project}/object/verdict:${digest}`;
}

test(
  'an item with 1 of 2 reviews is not completed anywhere; with 2 of 2 it is everywhere',
  { tag: SCREENS },
  async ({ signedInPage: page, api, baseURL }) => {
    const entity = `progress-${randomUUID().slice(0, 8)}`;
    const project = `${entity}/app`;
    const traces = await seedAgentTraces(api, { projectId: project, count: 6, failEvery: 0 });
    const verdict = await createSpec(api, project);
    const name = `Two each ${randomUUID().slice(0, 6)}`;
    const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name, scorer_refs: [verdict], reviewers_per_item: 2 });
    await api.annotationQueueAddCalls({
      project_id: project,
      queue_id: queueId,
      call_ids: traces.map((t) => t.rootId),
      display_fields: [],
    });
    const { items } = await api.annotationQueueItemsQuery({ project_id: project, queue_id: queueId, include_position: true });
    const first = items.find((i) => i.position_in_queue === 1)!;
    const answer = (client: WeftClient) =>
      client.annotationQueueItemSubmit({
        project_id: project,
        queue_id: queueId,
        item_id: first.id,
        annotations: [{ annotation_ref: verdict, value: 'good' }],
      });
    await answer(api);

    await page.goto(`/${project}/annotation/${queueId}`);
    const rows = page.getByRole('table', { name: 'Queue items' }).getByRole('row');
    await expect(rows).toHaveCount(7);
    await expect(rows.nth(1)).toContainText('1 of 2 reviews');
    await expect(rows.nth(1)).not.toContainText('Completed');
    await expect(page.getByText('2 reviewers per item: 0 of 6 items have them all.')).toBeVisible();
    const overview = page.getByLabel('Queue progress');
    await expect(overview).toContainText('0 completed (2 reviews each) · 1 partly reviewed');
    await expect(overview.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    await page.goto(`/${project}/annotation`);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('0 / 6 · 0 %');

    // The second reviewer answers the same item.
    const username = `second-${randomUUID().slice(0, 6)}`;
    await api.userCreate({ username, password: 'second-password-1', entities: [entity], role: 'annotator' });
    await answer(createClient({ baseUrl: baseURL!, auth: { username, password: 'second-password-1' } }));

    await page.goto(`/${project}/annotation/${queueId}`);
    await expect(rows.nth(1)).toContainText('Completed');
    await expect(rows.nth(1)).toContainText('2/2');
    await expect(page.getByText('2 reviewers per item: 1 of 6 items have them all.')).toBeVisible();
    await expect(overview).toContainText('1 completed (2 reviews each) · 0 partly reviewed');
    await showsFixed(page, '10-queue-progress');
    await page.goto(`/${project}/annotation`);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('1 / 6 · 16 %');
  },
);
