/**
 * The search boxes: on Calls, a substring of any script finds the calls holding it (in the URL as
 * `?q=`, so a reload keeps it) and a text shorter than 3 characters says so instead of searching;
 * on Threads, a substring inside an unspaced Chinese phrase finds its thread.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { expect, test } from './fixtures/test.js';

/** A finished root call of `op` with `inputs`, in thread `thread` as its own turn when given. */
function call(project: string, op: string, inputs: Record<string, unknown>, ago: number, thread?: string) {
  const id = randomUUID();
  const started = Date.now() - ago;
  const turn = thread ? { thread_id: thread, turn_id: id } : {};
  return [
    {
      mode: 'start' as const,
      req: {
        start: { project_id: project, id, trace_id: id, op_name: op, started_at: new Date(started).toISOString(), inputs, ...turn },
      },
    },
    {
      mode: 'end' as const,
      req: { end: { project_id: project, id, ended_at: new Date(started + 1000).toISOString(), output: 'ok', summary: {} } },
    },
  ];
}

async function seed(api: WeftClient, project: string) {
  await api.callUpsertBatch({
    batch: [
      ...call(project, 'ask_chinese', { q: '我们今天讨论退款政策' }, 300_000, 'thread-zh'),
      ...call(project, 'ask_hindi', { q: 'नमस्ते दुनिया' }, 200_000, 'thread-hi'),
      ...call(project, 'ask_latin', { q: 'The Refund was APPROVED' }, 100_000, 'thread-en'),
    ],
  });
}

test('search calls by a substring in any script, kept in the URL', async ({ signedInPage: page, api, project }) => {
  await seed(api, project);
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table).toContainText('ask_latin');
  const box = page.getByLabel('Search calls');

  await box.fill('款政');
  await box.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Type at least 3 characters');
  await expect(page).not.toHaveURL(/[?&]q=/);

  await box.fill('退款政');
  await box.press('Enter');
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(table).toContainText('ask_chinese');
  await expect(table).not.toContainText('ask_latin');
  await expect(table).not.toContainText('ask_hindi');

  await box.fill('approved');
  await box.press('Enter');
  await expect(table).toContainText('ask_latin');
  await expect(table).not.toContainText('ask_chinese');

  // The URL is the view: a reload keeps the search.
  await page.reload();
  await expect(page.getByLabel('Search calls')).toHaveValue('approved');
  await expect(table).toContainText('ask_latin');
  await expect(table).not.toContainText('ask_chinese');

  // Clearing the box shows every call again.
  await page.getByLabel('Search calls').fill('');
  await expect(table).toContainText('ask_chinese');
  await expect(table).toContainText('ask_hindi');
});

test('search threads by a substring inside an unspaced phrase', async ({ signedInPage: page, api, project }) => {
  await seed(api, project);
  await page.goto(`/${project}/threads`);
  const table = page.getByRole('table', { name: 'Threads' });
  await expect(table).toContainText('thread-en');
  await page.getByLabel('Search threads').fill('款政策');
  await page.getByLabel('Search threads').press('Enter');
  await expect(table).toContainText('thread-zh');
  await expect(table).not.toContainText('thread-en');
  await expect(table).not.toContainText('thread-hi');
});
