/**
 * Thread triage: search what the turns say, filter by errors, read the exact count, sort by
 * errors and tokens, walk the list with a row cursor, step through threads in the list's order
 * from the thread page, come back to the same row, and come back from a trace to its thread.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { expect, test } from './fixtures/test.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];

interface Conversation {
  key: string;
  questions: string[];
  error?: boolean;
  tokens: number;
}

/** Support conversations, each turn the root of its own trace; keys become part of the ids. */
const CONVERSATIONS: Conversation[] = [
  { key: 'refund', questions: ['I want a refund for order 1142', 'How long does the refund take?'], tokens: 900 },
  { key: 'parcel', questions: ['Where is my parcel?'], tokens: 300, error: true },
  { key: 'password', questions: ['I forgot my password', 'The reset link expired', 'It works now, thanks'], tokens: 120 },
  { key: 'invoice', questions: ['Can I get an invoice with my VAT number?'], tokens: 2500 },
];

async function seed(api: WeftClient, projectId: string) {
  const t0 = Date.now() - 3_600_000;
  const suffix = randomUUID().slice(0, 6);
  const items: BatchItem[] = [];
  const ids: Record<string, string> = {};
  const traces: Record<string, string[]> = {};
  CONVERSATIONS.forEach((c, ci) => {
    const threadId = `conv-${c.key}-${suffix}`;
    ids[c.key] = threadId;
    traces[c.key] = [];
    c.questions.forEach((q, i) => {
      const id = randomUUID();
      const traceId = randomUUID();
      traces[c.key]!.push(traceId);
      const start = t0 + ci * 600_000 + i * 60_000;
      const base = { project_id: projectId, trace_id: traceId, thread_id: threadId, turn_id: id };
      items.push(
        {
          mode: 'start',
          req: {
            start: {
              ...base,
              id,
              parent_id: null,
              op_name: 'support_turn',
              started_at: new Date(start).toISOString(),
              inputs: { question: q },
            },
          },
        },
        {
          mode: 'end',
          req: {
            end: {
              project_id: projectId,
              id,
              ended_at: new Date(start + 1000 + i * 500).toISOString(),
              output: { answer: `Answer to: ${q}` },
              exception: c.error ? 'Tracking service timed out' : null,
              summary: { usage: { 'gpt-4o-mini': { prompt_tokens: c.tokens - 20, completion_tokens: 20, total_tokens: c.tokens } } },
            },
          },
        },
      );
    });
  });
  await api.callUpsertBatch({ batch: items });
  return { ids, traces };
}

const table = (page: Page) => page.getByRole('table', { name: 'Threads' });
// The thread cell, after the row's selection checkbox.
const firstCells = (page: Page) => table(page).getByRole('row').locator('[role=cell]:nth-child(2)').allInnerTexts();

test('search turns, filter by errors, count exactly and sort by errors and tokens', async ({ signedInPage: page, api, project }) => {
  const { ids } = await seed(api, project);
  await page.goto(`/${project}/threads`);
  await expect(page.getByText('4 threads', { exact: true })).toBeVisible();

  // Words from the turns, not only ids: "refund" finds the refund conversation.
  await page.getByLabel('Search threads').fill('refund');
  await page.getByLabel('Search threads').press('Enter');
  await expect(page).toHaveURL(/q=refund/);
  await expect.poll(() => firstCells(page)).toEqual([ids.refund]);
  await expect(page.getByText('1 thread', { exact: true })).toBeVisible();
  await page.getByLabel('Search threads').fill('');
  await expect.poll(() => firstCells(page)).toHaveLength(4);

  // Has errors, from the Filters panel; the chip removes it again.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('checkbox', { name: 'Has errors' }).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect.poll(() => firstCells(page)).toEqual([ids.parcel]);
  await page.getByRole('button', { name: 'Remove filter Has errors' }).click();
  await expect.poll(() => firstCells(page)).toHaveLength(4);

  // A range: at least two turns.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Turns at least').fill('2');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/turns=2-/);
  await expect.poll(async () => (await firstCells(page)).sort()).toEqual([ids.password, ids.refund].sort());
  await expect(page.getByText('2 threads', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: /Remove filter Turns/ }).click();

  // Errors and tokens sort on the server.
  await table(page).getByRole('button', { name: 'Errors' }).click();
  await expect(page).toHaveURL(/sort=error_count%3Adesc/);
  await expect.poll(async () => (await firstCells(page))[0]).toBe(ids.parcel);
  await table(page).getByRole('button', { name: 'Tokens' }).click();
  await expect(page).toHaveURL(/sort=total_tokens%3Adesc/);
  // invoice 2,500; refund 2 × 900; password 3 × 120; parcel 300.
  await expect.poll(() => firstCells(page)).toEqual([ids.invoice, ids.refund, ids.password, ids.parcel]);
});

test('a bad sort or filter in a link falls back to the default with a notice', async ({ signedInPage: page, api, project }) => {
  await seed(api, project);
  await page.goto(`/${project}/threads?sort=colour:desc&turns=lots`);
  await expect(page.getByRole('status').filter({ hasText: 'Ignored from this link' })).toContainText('sort “colour:desc”');
  await expect(page.getByText('You do not have access to this')).toHaveCount(0);
  await expect.poll(() => firstCells(page)).toHaveLength(4);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page).not.toHaveURL(/colour/);
  await expect(page.getByText('Ignored from this link')).toHaveCount(0);
});

test('walk threads by keyboard, step to the next thread, and come back to the same row', async ({ signedInPage: page, api, project }) => {
  const { ids, traces } = await seed(api, project);
  await page.goto(`/${project}/threads?sort=total_tokens:desc`);
  await expect.poll(() => firstCells(page)).toEqual([ids.invoice, ids.refund, ids.password, ids.parcel]);

  // j from anywhere on the page puts the cursor in the table; j/k move it; Enter opens.
  await page.keyboard.press('j');
  const rows = table(page).getByRole('row');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.refund}`));
  await expect(page.getByText('Thread 2 of 4')).toBeVisible();

  // Next and previous follow the list's order (tokens, most first): keys and buttons.
  await page.keyboard.press('n');
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.password}`));
  await page.getByRole('button', { name: 'Next ›' }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.parcel}`));
  await expect(page.getByRole('button', { name: 'Next ›' })).toBeDisabled();
  await page.keyboard.press('p');
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.password}`));

  // A turn's trace leads back to its thread, not to Calls.
  await page.getByRole('listbox', { name: 'Turns' }).getByRole('link', { name: 'Open the trace of turn 2' }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${traces.password![1]}`));
  await expect(page.getByRole('link', { name: '← Calls' })).toHaveCount(0);
  await page.getByRole('link', { name: '← Thread', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.password}`));
  await expect(page.getByRole('listbox', { name: 'Turns' }).getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');

  // Back on the list: same view, cursor on the thread last visited.
  await page.getByRole('link', { name: '← Threads' }).click();
  await expect(page).toHaveURL(/sort=total_tokens(%3A|:)desc/);
  await expect(rows.nth(3)).toHaveClass(/cursor/);
  await page.keyboard.press('j');
  await expect(rows.nth(3)).toBeFocused();
});

test('unknown thread and trace show not found with a way back, no Retry', async ({ signedInPage: page, project, api }) => {
  await seed(api, project);
  await page.goto(`/${project}/threads/no-such-thread`);
  await expect(page.getByRole('heading', { name: 'Thread not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to threads' }).click();
  await expect(page).toHaveURL(new RegExp(`/${project}/threads$`));

  await page.goto(`/${project}/traces/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Trace not found' })).toBeVisible();
  await expect(page.getByText(/0 calls/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: '← Calls' }).first()).toBeVisible();

  // A call ref to an unknown call, and an unknown object.
  await page.goto(`/${project}/calls/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Call not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to calls' }).click();
  await expect(page).toHaveURL(new RegExp(`/${project}/calls$`));
  await page.goto(`/${project}/objects/no-such-object`);
  await expect(page.getByText(/not found|no object|does not exist/i).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});
