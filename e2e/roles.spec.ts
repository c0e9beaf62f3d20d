/**
 * Roles in the dashboard: an admin creates a viewer and an annotator in Settings; the viewer
 * reads calls, threads and queues but is offered no write or delete; the annotator answers a
 * queue item but deletes nothing; an entity admin changes a member's role in Settings and the
 * change holds after a reload.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

const PASSWORD = 'role-password-1';

/** A fresh browser context signed in as `username` through the session endpoint. */
async function signIn(browser: Browser, baseURL: string, username: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const res = await page.request.post('/weft/session', { data: { username, password: PASSWORD } });
  if (!res.ok()) throw new Error(`Signing in as ${username} failed: ${res.status()} ${await res.text()}`);
  return page;
}

/** Two traces, one single-turn thread, and a queue with one category question holding both traces. */
async function seedProject(api: WeftClient, project: string) {
  const traces = await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  const threadId = `chat-${randomUUID().slice(0, 8)}`;
  const turn = randomUUID();
  const started = new Date(Date.now() - 30_000).toISOString();
  await api.callUpsertBatch({
    batch: [
      {
        mode: 'start',
        req: {
          start: {
            project_id: project,
            id: turn,
            trace_id: randomUUID(),
            thread_id: threadId,
            turn_id: turn,
            parent_id: null,
            op_name: `weave:///${project}/op/chat_turn:0123456789abcdef`,
            started_at: started,
            inputs: { question: 'Hello?' },
          },
        },
      },
      { mode: 'end', req: { end: { project_id: project, id: turn, ended_at: new Date().toISOString(), output: 'Hi.' } } },
    ],
  });
  const spec = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'verdict',
    field_schema: { type: 'string', enum: ['good', 'bad'] },
  };
  const { digest } = await api.objCreate({ obj: { project_id: project, object_id: 'verdict', val: spec } });
  const queueName = `Review ${randomUUID().slice(0, 6)}`;
  const { id: queueId } = await api.annotationQueueCreate({
    project_id: project,
    name: queueName,
    scorer_refs: [`weave:///${project}/object/verdict:${digest}`],
  });
  await api.annotationQueueAddCalls({ project_id: project, queue_id: queueId, call_ids: traces.map((t) => t.rootId), display_fields: [] });
  return { traces, threadId, queueId, queueName };
}

/** Creates a user through the Settings form, with a role in one entity. */
async function createInSettings(page: Page, { username, entity, role }: { username: string; entity: string; role: string }) {
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Create a user' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByLabel('Entities').fill(entity);
  await form.getByLabel('Role in them').selectOption(role);
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Created ${username}` })).toBeVisible();
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username });
  await expect(row.getByLabel(`Role of ${username} in ${entity}`)).toHaveValue(role);
}

test('a viewer reads calls, threads and queues but is offered no write; an annotator answers a queue but deletes nothing', async ({
  signedInPage: admin,
  api,
  baseURL,
  browser,
}) => {
  const entity = `roles-${randomUUID().slice(0, 8)}`;
  const project = `${entity}/app`;
  const { traces, threadId, queueId, queueName } = await seedProject(api, project);
  const viewerName = `viewer-${randomUUID().slice(0, 6)}`;
  const annotatorName = `annotator-${randomUUID().slice(0, 6)}`;
  await createInSettings(admin, { username: viewerName, entity, role: 'viewer' });
  await createInSettings(admin, { username: annotatorName, entity, role: 'annotator' });

  const viewer = await signIn(browser, baseURL!, viewerName);
  // Calls: listed, but neither scoring nor adding to a queue or a dataset is offered.
  await viewer.goto(`/${project}/calls`);
  // Two agent traces and the thread's one turn.
  await expect(viewer.getByText('3 traces')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Export' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Add to queue' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Add to dataset' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Score/ })).toHaveCount(0);

  // A call's details: reactions shown but disabled with the role needed, no note box.
  await viewer.goto(`/${project}/traces/${traces[0]!.traceId}?call=${traces[0]!.rootId}`);
  const details = viewer.getByRole('complementary', { name: 'Call details' });
  const thumbsUp = details.getByRole('button', { name: 'Thumbs up', exact: true });
  await expect(thumbsUp).toBeDisabled();
  await expect(thumbsUp).toHaveAttribute('title', 'Needs annotator role');
  await expect(details.getByRole('button', { name: 'Add a reaction' })).toHaveCount(0);
  await expect(details.getByRole('heading', { name: 'Notes' })).toBeVisible();
  await expect(details.getByLabel('New note')).toHaveCount(0);

  // Threads: listed.
  await viewer.goto(`/${project}/threads`);
  await expect(viewer.getByRole('table', { name: 'Threads' })).toContainText(threadId);

  // Queues: listed; New queue disabled with the role needed; no Edit, no Delete; Review disabled.
  await viewer.goto(`/${project}/annotation`);
  const row = viewer.getByRole('row', { name: new RegExp(queueName) });
  await expect(row).toBeVisible();
  const newQueue = viewer.getByRole('button', { name: 'New queue' });
  await expect(newQueue).toBeDisabled();
  await expect(newQueue).toHaveAttribute('title', 'Needs member role');
  await expect(row.getByRole('button', { name: `Delete ${queueName}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Edit ${queueName}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Review ${queueName}` })).toBeDisabled();
  await viewer.goto(`/${project}/annotation/${queueId}`);
  await expect(viewer.getByRole('button', { name: 'Save as dataset' })).toBeDisabled();
  await expect(viewer.getByRole('button', { name: 'Add threads' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Export CSV' })).toBeEnabled();

  // Settings: no price form, no Users section.
  await viewer.goto(`/${project}/settings`);
  await expect(viewer.getByRole('heading', { name: /Model prices/ })).toBeVisible();
  await expect(viewer.getByRole('form', { name: 'Add a price' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Delete the project price/ })).toHaveCount(0);
  await expect(viewer.getByRole('heading', { name: 'Users' })).toHaveCount(0);
  await viewer.context().close();

  // The annotator answers the first item, and is offered no delete or edit of the queue.
  const annotator = await signIn(browser, baseURL!, annotatorName);
  await annotator.goto(`/${project}/annotation`);
  const queueRow = annotator.getByRole('row', { name: new RegExp(queueName) });
  await expect(queueRow.getByRole('button', { name: `Delete ${queueName}` })).toHaveCount(0);
  await expect(queueRow.getByRole('button', { name: `Edit ${queueName}` })).toHaveCount(0);
  await queueRow.getByRole('link', { name: `Review ${queueName}` }).click();
  await expect(annotator.getByText('1 of 2')).toBeVisible();
  await annotator.getByRole('radio', { name: 'good' }).click();
  await annotator.getByRole('button', { name: /Submit & next/ }).click();
  await expect(annotator.getByText('2 of 2')).toBeVisible();
  const { result } = await api.feedbackQuery({
    project_id: project,
    query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.annotation.verdict' }] } },
  });
  expect(result.map((f) => [f.wb_user_id, (f.payload as { value: unknown }).value])).toEqual([[annotatorName, 'good']]);
  // Feedback of their own on a call: a reaction yes, no removing it (annotators delete nothing).
  await annotator.goto(`/${project}/traces/${traces[1]!.traceId}?call=${traces[1]!.rootId}`);
  const panel = annotator.getByRole('complementary', { name: 'Call details' });
  await panel.getByRole('button', { name: 'Thumbs up', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Thumbs up (1)' })).toBeDisabled();
  await expect(panel.getByRole('list', { name: 'Reactions given' })).toContainText(annotatorName);
  await expect(panel.getByRole('list', { name: 'Reactions given' }).getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await annotator.context().close();
});

test('an entity admin changes a member to viewer in Settings, and it holds after a reload', async ({ api, baseURL, browser }) => {
  const entity = `team-${randomUUID().slice(0, 8)}`;
  const boss = `boss-${randomUUID().slice(0, 6)}`;
  const carol = `carol-${randomUUID().slice(0, 6)}`;
  const outsider = `out-${randomUUID().slice(0, 6)}`;
  await api.userCreate({ username: boss, password: PASSWORD, entities: [entity], role: 'admin' });
  await api.userCreate({ username: carol, password: PASSWORD, entities: [entity], role: 'member' });
  await api.userCreate({ username: outsider, password: PASSWORD, entities: [`elsewhere-${entity}`], role: 'member' });

  const page = await signIn(browser, baseURL!, boss);
  await page.goto('/settings');
  const users = page.getByRole('table', { name: 'Users' });
  // Only the users of the entity admin's entity are listed, without set-password or end-sessions.
  await expect(users.getByRole('row').filter({ hasText: carol })).toBeVisible();
  await expect(users.getByRole('row').filter({ hasText: outsider })).toHaveCount(0);
  await expect(users.getByRole('button', { name: `Set password for ${carol}` })).toHaveCount(0);

  const select = users.getByLabel(`Role of ${carol} in ${entity}`, { exact: true });
  await expect(select).toHaveValue('member');
  await select.selectOption('viewer');
  await expect(page.getByRole('status').filter({ hasText: `${carol} is now viewer in ${entity}` })).toBeVisible();

  // A project override, given and removed through the form and the list.
  const grant = page.getByRole('form', { name: 'Give a user a role' });
  await grant.getByLabel('Username').fill(carol);
  await grant.getByLabel('Entity or entity/project').fill(`${entity}/labels`);
  await grant.getByLabel('Role').selectOption('annotator');
  await grant.getByRole('button', { name: 'Set role' }).click();
  await expect(users.getByLabel(`Role of ${carol} in ${entity}/labels`)).toHaveValue('annotator');

  await page.reload();
  await expect(users.getByLabel(`Role of ${carol} in ${entity}`, { exact: true })).toHaveValue('viewer');
  await expect(users.getByLabel(`Role of ${carol} in ${entity}/labels`)).toHaveValue('annotator');
  await users.getByRole('button', { name: `Remove ${carol} from ${entity}/labels` }).click();
  await users.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(users.getByLabel(`Role of ${carol} in ${entity}/labels`)).toHaveCount(0);

  const { users: listed } = await api.usersList({});
  expect(listed.find((u) => u.username === carol)).toMatchObject({ roles: { [entity]: 'viewer' }, project_roles: {} });
  await page.context().close();
});
