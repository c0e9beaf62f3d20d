/**
 * Leading a review queue end to end: a reviewer answers from the keyboard and fixes a
 * mis-keyed answer (E, then Enter), answers a skipped call; the lead's queue page shows the
 * items with their states and answers, progress per reviewer and the answer distribution,
 * exports CSV, saves the answers as a dataset, and adds a whole thread, which the reviewer
 * then reads as a conversation.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createClient, type WeftClient } from '../src/client/index.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

/** A category question stored as an AnnotationSpec, as the queue form writes it. */
async function createSpec(api: WeftClient, project: string, name: string, options: string[]) {
  const val = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name,
    field_schema: { type: 'string', enum: options },
  };
  const { digest } = await api.objCreate({ obj: { project_id: project, object_id: name, val } });
  return `weave:///${project}/object/${name}:${digest}`;
}

/** A two-turn support conversation: each turn answers the question it was asked. */
async function seedThread(api: WeftClient, project: string, threadId: string) {
  const t0 = Date.now() - 60_000;
  const turns = [
    { q: 'How do I reset my password?', a: 'Open Settings → Security and choose “Reset password”.' },
    { q: 'And if I no longer have the email?', a: 'Contact support with your account id and we verify you another way.' },
  ];
  let messages: { role: string; content: string }[] = [];
  const batch = turns.flatMap((turn, i) => {
    const id = randomUUID();
    messages = [...messages, { role: 'user', content: turn.q }];
    const inputs = { messages };
    messages = [...messages, { role: 'assistant', content: turn.a }];
    const common = { project_id: project, id, trace_id: randomUUID(), thread_id: threadId, turn_id: id };
    return [
      {
        mode: 'start' as const,
        req: { start: { ...common, op_name: 'support_chat', started_at: new Date(t0 + i * 10_000).toISOString(), attributes: {}, inputs } },
      },
      {
        mode: 'end' as const,
        req: {
          end: {
            project_id: project,
            id,
            ended_at: new Date(t0 + i * 10_000 + 800).toISOString(),
            output: { choices: [{ message: { role: 'assistant', content: turn.a } }] },
            summary: {},
          },
        },
      },
    ];
  });
  await api.callUpsertBatch({ batch });
}

test(
  'lead a queue: fix an answer, read the results, export, save a dataset, queue a thread',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const traces = await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
    const verdict = await createSpec(api, project, 'verdict', ['good', 'okay', 'bad']);
    const queueName = `Lead ${randomUUID().slice(0, 6)}`;
    const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: queueName, scorer_refs: [verdict] });
    await api.annotationQueueAddCalls({
      project_id: project,
      queue_id: queueId,
      call_ids: traces.map((t) => t.rootId),
      display_fields: [],
    });
    const threadId = `support-${randomUUID().slice(0, 8)}`;
    await seedThread(api, project, threadId);

    // The reviewer answers the first call, skips the second, and answers the third.
    await page.goto(`/${project}/annotation/${queueId}/review`);
    await expect(page.getByText('1 of 3')).toBeVisible();
    await page.keyboard.press('3'); // bad — a slip: it should have been "good"
    await page.keyboard.press('Enter');
    await expect(page.getByText('2 of 3')).toBeVisible();
    await page.keyboard.press('s');
    await expect(page.getByText('3 of 3')).toBeVisible();
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await expect(page.getByText('All done')).toBeVisible();

    // Back to the first call: E reopens the answers, 1 picks "good", Enter saves the change.
    await page.keyboard.press('j');
    await expect(page.getByText('1 of 3')).toBeVisible();
    await expect(page.getByRole('radio', { name: 'bad' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('e');
    await expect(page.getByRole('button', { name: /Save changes/ })).toBeVisible();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByText('You answered this call.')).toBeVisible();
    await expect(page.getByRole('radio', { name: 'good' })).toHaveAttribute('aria-checked', 'true');

    // The skipped call can still be answered.
    await page.keyboard.press('j');
    await expect(page.getByText('2 of 3')).toBeVisible();
    await expect(page.getByText('You skipped this call.')).toBeVisible();
    await page.getByRole('button', { name: /Answer it/ }).click();
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await expect(page.getByText('You answered this call.')).toBeVisible();

    // The lead's view of the queue.
    await page.goto(`/${project}/annotation`);
    await page.getByRole('link', { name: queueName, exact: true }).click();
    await expect(page.getByRole('heading', { name: queueName })).toBeVisible();
    const reviewers = page.getByRole('table', { name: 'Reviewer progress' });
    await expect(reviewers.getByRole('row', { name: /admin/ })).toContainText('3 / 3 · 100 %');
    const answers = page.getByRole('region', { name: 'Answers to verdict' });
    await expect(answers).toContainText('3 answers');
    // In the question's order, as a scale, with the option nobody chose.
    await expect(answers.getByRole('listitem')).toHaveText([/good\s*1/, /okay\s*2/, /bad\s*0/]);
    await showsFixed(page, '11-answer-scale');
    const items = page.getByRole('table', { name: 'Queue items' });
    await expect(items.getByRole('row')).toHaveCount(4);
    await expect(items.getByRole('row').nth(1)).toContainText('Completed');
    await expect(items.getByRole('row').nth(1)).toContainText('verdict good');

    // The answer history keeps the slip.
    const firstItem = (await api.annotationQueueItemsQuery({ project_id: project, queue_id: queueId })).items[0]!;
    const history = await api.annotationItemHistory({ project_id: project, queue_id: queueId, item_id: firstItem.id });
    expect(history.entries.map((e) => [e.value, e.superseded_at === null])).toEqual([
      ['bad', false],
      ['good', true],
    ]);

    // Export as CSV.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await downloading).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('item_id,call_id,thread_id,op_name,annotator,annotation_state,updated_at,inputs,output,verdict');
    expect(csv.trim().split('\r\n')).toHaveLength(4);

    // Save as a dataset.
    await page.getByRole('button', { name: 'Save as dataset' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save answers as a dataset' });
    await dialog.getByRole('textbox', { name: 'Dataset name' }).fill('lead-answers');
    await dialog.getByRole('button', { name: 'Save dataset' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved 3 rows as lead-answers');
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    // Queue a whole thread; the reviewer reads it as a conversation.
    await page.getByRole('button', { name: 'Add threads' }).click();
    const add = page.getByRole('dialog', { name: 'Add threads to the queue' });
    await add.getByRole('checkbox').first().check();
    await add.getByRole('button', { name: 'Add 1 thread' }).click();
    await expect(add.getByRole('status')).toContainText('Added 1 thread');
    await add.getByRole('button', { name: 'Close' }).last().click();
    await expect(items.getByRole('row')).toHaveCount(5);
    await expect(items.getByRole('row').nth(4)).toContainText(`Thread ${threadId}`);
    await items.getByRole('link', { name: 'Open item 4' }).click();
    await expect(page.getByText('4 of 4')).toBeVisible();
    const conversation = page.getByLabel('Conversation under review');
    await expect(conversation).toContainText('Conversation of 2 turns');
    await expect(conversation).toContainText('How do I reset my password?');
    await expect(conversation).toContainText('Contact support with your account id');
  },
);

test('two reviewers are never handed the same call at once', async ({ signedInPage: page, api, project, baseURL }) => {
  const traces = await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  const verdict = await createSpec(api, project, 'verdict', ['good', 'bad']);
  const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: 'Shared', scorer_refs: [verdict] });
  await api.annotationQueueAddCalls({ project_id: project, queue_id: queueId, call_ids: traces.map((t) => t.rootId), display_fields: [] });
  // A second reviewer takes the first call through the API...
  const username = `rev${randomUUID().slice(0, 6)}`;
  await api.userCreate({ username, password: 'reviewer-password-1', entities: [project.split('/')[0]!] });
  const reviewer = createClient({ baseUrl: baseURL!, auth: { username, password: 'reviewer-password-1' } });
  const held = await reviewer.annotationQueueNextItem({ project_id: project, queue_id: queueId });
  expect(held.item?.call_id).toBe(traces[0]!.rootId);
  // ...so the signed-in reviewer starts on the second.
  await page.goto(`/${project}/annotation/${queueId}/review`);
  await expect(page.getByText('2 of 2')).toBeVisible();
  // The lead sees who holds what.
  await page.goto(`/${project}/annotation/${queueId}`);
  const items = page.getByRole('table', { name: 'Queue items' });
  await expect(items.getByRole('row').nth(1)).toContainText(`held by ${username}`);
  await expect(items.getByRole('row').nth(2)).toContainText('held by admin');
});
