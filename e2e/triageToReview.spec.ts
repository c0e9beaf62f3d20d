/**
 * From triage to review: "Add to queue" on the threads list (a selection), on a thread's page
 * and on the calls list (a selection), each opened by a direct link; a new queue made from the
 * dialog; the dialog counts what it added and what was already queued; a viewer, who would be
 * refused, is not offered the action.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

/**
 * One finished thread per entry of `questions`, the i-th last active about i minutes ago, with
 * `turns[i]` turns (default 1) that each ask the question.
 */
async function seedThreads(api: WeftClient, project: string, questions: string[], turns: number[] = []): Promise<string[]> {
  const ids = questions.map(() => `chat-${randomUUID().slice(0, 8)}`);
  const now = Date.now();
  await api.callUpsertBatch({
    batch: questions
      .flatMap((question, i) =>
        Array.from({ length: turns[i] ?? 1 }, (_, turn) => ({ i, question, started: now - (i + 1) * 60_000 - turn * 1_000 })),
      )
      .flatMap(({ i, question, started }) => {
        const id = randomUUID();
        return [
          {
            mode: 'start' as const,
            req: {
              start: {
                project_id: project,
                id,
                trace_id: randomUUID(),
                thread_id: ids[i]!,
                turn_id: id,
                op_name: 'support_chat',
                started_at: new Date(started).toISOString(),
                inputs: { messages: [{ role: 'user', content: question }] },
              },
            },
          },
          {
            mode: 'end' as const,
            req: {
              end: { project_id: project, id, ended_at: new Date(started + 900).toISOString(), output: `About ${question}`, summary: {} },
            },
          },
        ];
      }),
  });
  return ids;
}

test(
  'add selected threads to a new queue from the threads list, then again: already queued',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const ids = await seedThreads(api, project, ['refund for order 17', 'password reset', 'shipping to Norway']);
    await page.goto(`/${project}/threads`);
    const table = page.getByRole('table', { name: 'Threads' });
    await expect(table).toContainText(ids[0]!);
    const add = page.getByRole('button', { name: 'Add to queue' });
    await expect(add).toBeDisabled();
    await table.getByRole('checkbox', { name: `Select thread ${ids[0]}` }).check();
    await table.getByRole('checkbox', { name: `Select thread ${ids[1]}` }).check();
    await add.click();

    const dialog = page.getByRole('dialog', { name: 'Add to an annotation queue' });
    await expect(dialog).toContainText('2 selected threads');
    // No queue yet: the dialog offers to make one.
    await dialog.getByRole('textbox', { name: 'New queue' }).fill('Triage picks');
    await dialog.getByRole('button', { name: 'Create queue' }).click();
    await expect(dialog.getByRole('combobox', { name: 'Queue' })).toHaveValue(/.+/);
    await expect(dialog.getByRole('combobox', { name: 'Queue' }).locator('option:checked')).toHaveText('Triage picks');
    await dialog.getByRole('button', { name: 'Add 2 threads' }).click();
    await expect(dialog.getByRole('status')).toContainText('Added 2 threads to Triage picks');
    await dialog.getByRole('button', { name: 'Add 2 threads' }).click();
    await expect(dialog.getByRole('status')).toContainText('Added 0 threads to Triage picks · 2 already queued');
    await showsFixed(page, '8-add-to-queue-threads');

    const queues = [];
    for await (const q of api.annotationQueuesQuery({ project_id: project, name: 'Triage picks' })) queues.push(q);
    expect(queues).toHaveLength(1);
    const { items } = await api.annotationQueueItemsQuery({ project_id: project, queue_id: queues[0]!.id });
    expect(items.map((i) => i.thread_id).sort()).toEqual([ids[0], ids[1]].sort());
  },
);

test('add a thread to a queue from its page', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  const [threadId] = await seedThreads(api, project, ['where is my parcel']);
  const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: 'Parcels', scorer_refs: [] });
  await page.goto(`/${project}/threads/${threadId}`);
  await page.getByRole('button', { name: 'Add to queue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to an annotation queue' });
  await expect(dialog).toContainText(`Thread ${threadId}`);
  await dialog.getByRole('button', { name: 'Add 1 thread' }).click();
  await expect(dialog.getByRole('status')).toContainText('Added 1 thread to Parcels');
  await showsFixed(page, '8-add-to-queue-thread-page');
  await dialog.getByRole('link', { name: 'Open the queue →' }).click();
  await expect(page).toHaveURL(new RegExp(`/annotation/${queueId}$`));
  await expect(page.getByRole('table', { name: 'Queue items' })).toContainText(`Thread ${threadId}`);
});

test(
  'add threads from a queue: search, sort by turns, first messages, already queued marked',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const [refund, password, norway] = await seedThreads(
      api,
      project,
      ['refund for order 17', 'password reset', 'shipping to Norway'],
      [1, 3, 2],
    );
    const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: 'Picks', scorer_refs: [] });
    await api.annotationQueueAddThreads({ project_id: project, queue_id: queueId, thread_ids: [refund!] });

    await page.goto(`/${project}/annotation/${queueId}`);
    await page.getByRole('button', { name: 'Add threads' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add threads to the queue' });
    const picks = dialog.getByRole('list', { name: 'Threads' }).getByRole('listitem');
    // Last activity first, each by its first message; the queued one marked and not pickable.
    await expect(picks).toHaveCount(3);
    await expect(picks.nth(0)).toContainText('refund for order 17');
    await expect(picks.nth(0)).toContainText('Already queued');
    await expect(dialog.getByRole('checkbox', { name: 'refund for order 17 (already queued)' })).toBeDisabled();
    await expect(picks.nth(1)).toContainText('password reset');
    await expect(picks.nth(1)).toContainText('3 turns');
    // Sorted by turns.
    await dialog.getByRole('combobox', { name: 'Sort threads' }).selectOption({ label: 'Most turns' });
    await expect(picks.nth(0)).toContainText('password reset');
    await expect(picks.nth(1)).toContainText('shipping to Norway');
    // Searched by what the turns say.
    await dialog.getByRole('searchbox', { name: 'Search threads' }).fill('norway');
    await dialog.getByRole('searchbox', { name: 'Search threads' }).press('Enter');
    await expect(picks).toHaveCount(1);
    await expect(picks.first()).toContainText(norway!);
    await showsFixed(page, '8-add-threads-search');
    await dialog.getByRole('checkbox', { name: 'shipping to Norway' }).check();
    await dialog.getByRole('button', { name: 'Add 1 thread' }).click();
    await expect(dialog.getByRole('status')).toContainText('Added 1 thread');
    await expect(picks.first()).toContainText('Already queued');
    expect(password).toBeTruthy();
  },
);

test('add selected calls to a queue made in the menu', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  const traces = await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table.getByRole('checkbox', { name: /^Select / })).toHaveCount(3);
  await table
    .getByRole('checkbox', { name: /^Select / })
    .first()
    .check();
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await page.getByRole('textbox', { name: 'New queue' }).fill('Calls to check');
  await page.getByRole('button', { name: 'Create queue' }).click();
  await expect(page.getByRole('combobox', { name: 'Queue' }).locator('option:checked')).toHaveText('Calls to check');
  await page.getByRole('button', { name: 'Add 1 call' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added 1 to Calls to check' })).toBeVisible();
  await page.getByRole('button', { name: 'Add 1 call' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added 0 to Calls to check (1 already queued)' })).toBeVisible();
  await showsFixed(page, '8-add-to-queue-calls');
  expect(traces).toHaveLength(3);
});

test('a viewer is not offered "Add to queue" on threads', async ({ api, baseURL, browser }) => {
  const entity = `triage-${randomUUID().slice(0, 8)}`;
  const project = `${entity}/app`;
  const [threadId] = await seedThreads(api, project, ['hello']);
  const username = `viewer-${randomUUID().slice(0, 6)}`;
  await api.userCreate({ username, password: 'viewer-password-1', entities: [entity], role: 'viewer' });
  const context = await browser.newContext({ baseURL });
  const viewer = await context.newPage();
  expect((await viewer.request.post('/weft/session', { data: { username, password: 'viewer-password-1' } })).ok()).toBe(true);
  await viewer.goto(`/${project}/threads`);
  await expect(viewer.getByRole('table', { name: 'Threads' })).toContainText(threadId!);
  await expect(viewer.getByRole('button', { name: 'Add to queue' })).toHaveCount(0);
  await expect(viewer.getByRole('checkbox', { name: `Select thread ${threadId}` })).toHaveCount(0);
  await viewer.goto(`/${project}/threads/${threadId}`);
  await expect(viewer.getByRole('heading', { name: 'Thread' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Add to queue' })).toHaveCount(0);
  await context.close();
});
