/**
 * Threads: the list sorts on the server by clicking headers (shift-click adds keys) in the same
 * order `/threads/stream_query` gives, and a thread's turns can be walked by keyboard beside the
 * conversation they make up, each opening its own trace.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];
type ThreadSort = NonNullable<ReqOf<'threadsStreamQuery'>['sort_by']>;

const SYSTEM = { role: 'system', content: 'You are a concise travel assistant.' };
const QUESTIONS = ['Where should I go in March?', 'What about the weather there?', 'And how do I get there by train?'];
const ANSWERS = ['Lisbon is lovely in March.', 'Mild: around 17 °C with some rain.', 'Take the Sud Express from Hendaye.'];

/**
 * One thread whose turns last the given milliseconds, a minute apart. Each turn is the root of
 * its own trace, with a nested LLM call that must not count towards the thread's statistics;
 * turn inputs resend the chat history, as chat apps do.
 */
function threadItems({ projectId, threadId, durations, t0 }: { projectId: string; threadId: string; durations: number[]; t0: number }) {
  const op = (name: string) => `weave:///${projectId}/op/${name}:0123456789abcdef`;
  const items: BatchItem[] = [];
  const turns: { id: string; traceId: string }[] = [];
  const history: { role: string; content: string }[] = [SYSTEM];
  durations.forEach((ms, i) => {
    const turn = { id: randomUUID(), traceId: randomUUID() };
    const child = randomUUID();
    const start = t0 + i * 60_000;
    const question = QUESTIONS[i % QUESTIONS.length]!;
    const answer = ANSWERS[i % ANSWERS.length]!;
    const messages = [...history, { role: 'user', content: question }];
    const common = { project_id: projectId, trace_id: turn.traceId, thread_id: threadId, turn_id: turn.id };
    items.push(
      {
        mode: 'start',
        req: {
          start: {
            ...common,
            id: turn.id,
            parent_id: null,
            op_name: op('chat_turn'),
            started_at: new Date(start).toISOString(),
            inputs: { messages },
          },
        },
      },
      {
        mode: 'start',
        req: {
          start: {
            ...common,
            id: child,
            parent_id: turn.id,
            op_name: op('openai.chat.completions.create'),
            started_at: new Date(start + 1).toISOString(),
            inputs: { model: 'gpt-4o-mini', messages },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: projectId,
            id: child,
            ended_at: new Date(start + ms - 1).toISOString(),
            output: { choices: [{ index: 0, message: { role: 'assistant', content: answer } }] },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: projectId,
            id: turn.id,
            ended_at: new Date(start + ms).toISOString(),
            output: { choices: [{ index: 0, message: { role: 'assistant', content: answer } }] },
          },
        },
      },
    );
    history.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
    turns.push(turn);
  });
  return { items, turns };
}

/** Threads with known turn durations (ms), so their p99 order is known: d, c, a, then f and e tie. */
const DURATIONS = {
  a: [1000, 5000, 2000], // p99 4,940 ms
  b: [300, 400], // p99 399 ms
  c: [8000], // p99 8,000 ms
  d: [2500, 2600, 2700, 9000], // p99 8,811 ms
  e: [700], // p99 700 ms, one turn
  f: [700, 700], // p99 700 ms, two turns
};

async function seedThreads(api: WeftClient, projectId: string) {
  const t0 = Date.now() - 3_600_000;
  const ids = Object.fromEntries(Object.keys(DURATIONS).map((k) => [k, `thread-${k}-${randomUUID().slice(0, 8)}`])) as Record<
    keyof typeof DURATIONS,
    string
  >;
  const built = Object.entries(DURATIONS).map(([k, durations], i) =>
    threadItems({ projectId, threadId: ids[k as keyof typeof DURATIONS], durations, t0: t0 + i * 1000 }),
  );
  await api.callUpsertBatch({ batch: built.flatMap((b) => b.items) });
  return { ids, turnsOfA: built[0]!.turns };
}

/** Thread ids as `/threads/stream_query` orders them. */
async function apiOrder(api: WeftClient, projectId: string, sortBy: ThreadSort): Promise<string[]> {
  const ids: string[] = [];
  for await (const t of api.threadsStreamQuery({ project_id: projectId, sort_by: sortBy })) ids.push(t.thread_id);
  return ids;
}

/** The thread ids in the table, top to bottom. */
async function tableOrder(table: Locator): Promise<string[]> {
  // The second cell: the first is the row's selection checkbox.
  return table.getByRole('row').locator('[role=cell]:nth-child(2)').allInnerTexts();
}

function threadsTable(page: Page) {
  return page.getByRole('table', { name: 'Threads' });
}

test('sort threads by p99 and turns, in the same order as the API', async ({ signedInPage: page, api, project }) => {
  const { ids } = await seedThreads(api, project);
  await page.goto(`/${project}/threads`);
  const table = threadsTable(page);
  await expect(table.getByRole('row')).toHaveCount(7); // header + 6 threads
  await expect(page.getByText('6 threads')).toBeVisible();

  // p99 is hidden by default (to fit 1280 px): shown from the table's column chooser.
  await table.getByRole('button', { name: 'Columns of Threads' }).click();
  await page.getByRole('checkbox', { name: 'p50 turn' }).check();
  await page.getByRole('checkbox', { name: 'p99 turn' }).check();
  await page.keyboard.press('Escape');

  // One click sorts by p99, slowest first, on the server.
  await table.getByRole('button', { name: /p99 turn/ }).click();
  await expect(page).toHaveURL(/sort=p99_turn_duration_ms%3Adesc$/);
  await expect(table.getByRole('columnheader', { name: /p99 turn/ })).toHaveAttribute('aria-sort', 'descending');
  const byP99 = await apiOrder(api, project, [{ field: 'p99_turn_duration_ms', direction: 'desc' }]);
  // e and f tie on p99; the server breaks ties by thread id.
  expect(byP99).toEqual([ids.d, ids.c, ids.a, ids.e, ids.f, ids.b]);
  await expect.poll(() => tableOrder(table)).toEqual(byP99);

  // Durations read in human units.
  const rowD = table.getByRole('row').filter({ hasText: ids.d });
  const headers = await table.getByRole('columnheader').allInnerTexts();
  const at = (name: string) => headers.findIndex((h) => h.startsWith(name));
  await expect(rowD.getByRole('cell').nth(at('p99 turn'))).toHaveText('8.81 s');
  await expect(rowD.getByRole('cell').nth(at('p50 turn'))).toHaveText('2.65 s');

  // Shift-click adds turns as the second key (most first), and shows the keys' order.
  await table.getByRole('button', { name: /Turns/ }).click({ modifiers: ['Shift'] });
  await expect(page).toHaveURL(/sort=p99_turn_duration_ms%3Adesc%2Cturn_count%3Adesc$/);
  await expect(table.getByRole('columnheader', { name: /Turns/ }).locator('.dt-sort-order')).toHaveText('2');
  await expect(table.getByRole('columnheader', { name: /p99 turn/ }).locator('.dt-sort-order')).toHaveText('1');
  const byP99ThenTurns = await apiOrder(api, project, [
    { field: 'p99_turn_duration_ms', direction: 'desc' },
    { field: 'turn_count', direction: 'desc' },
  ]);
  expect(byP99ThenTurns.slice(-3)).toEqual([ids.f, ids.e, ids.b]);
  await expect.poll(() => tableOrder(table)).toEqual(byP99ThenTurns);

  // Shift-click again flips that key only: the tie between e and f turns around.
  await table.getByRole('button', { name: /Turns/ }).click({ modifiers: ['Shift'] });
  const byP99ThenFewerTurns = await apiOrder(api, project, [
    { field: 'p99_turn_duration_ms', direction: 'desc' },
    { field: 'turn_count', direction: 'asc' },
  ]);
  expect(byP99ThenFewerTurns.slice(-3)).toEqual([ids.e, ids.f, ids.b]);
  await expect.poll(() => tableOrder(table)).toEqual(byP99ThenFewerTurns);

  // The URL is the view: a reload keeps both keys; a thread id search narrows to one thread.
  await page.reload();
  await expect.poll(() => tableOrder(threadsTable(page))).toEqual(byP99ThenFewerTurns);
  await page.getByLabel('Search threads').fill(ids.c);
  await page.getByLabel('Search threads').press('Enter');
  await expect.poll(() => tableOrder(threadsTable(page))).toEqual([ids.c]);
});

test('walk a thread by keyboard and open a turn’s trace', async ({ signedInPage: page, api, project }) => {
  const { ids, turnsOfA } = await seedThreads(api, project);
  await page.goto(`/${project}/threads`);
  await threadsTable(page).getByRole('link', { name: ids.a }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${ids.a}$`));

  const turns = page.getByRole('listbox', { name: 'Turns' });
  const options = turns.getByRole('option');
  await expect(options).toHaveCount(3);
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(1)).toContainText('5.00 s');
  await expect(page.getByLabel('Thread statistics')).toContainText('4.94 s');

  // The conversation shows each message once: later turns add only what is new.
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation.getByRole('list', { name: 'Turn 1 messages' })).toContainText(SYSTEM.content);
  const second = conversation.getByRole('list', { name: 'Turn 2 messages' });
  await expect(second).toContainText(QUESTIONS[1]!);
  await expect(second).toContainText(ANSWERS[1]!);
  await expect(second).not.toContainText(QUESTIONS[0]!);
  await expect(second).not.toContainText(SYSTEM.content);

  // j / ↓ go down, k / ↑ go up; the selection is in the URL.
  await page.keyboard.press('j');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`turn=${turnsOfA[1]!.id}`));
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown'); // already the last turn: stays
  await expect(options.nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`turn=${turnsOfA[1]!.id}`));
  await expect(conversation.getByRole('article', { name: 'Turn 2' })).toHaveAttribute('aria-current', 'true');

  // A reload lands on the same turn; Enter opens its trace with the turn selected.
  await page.reload();
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/traces/${turnsOfA[1]!.traceId}\\?call=${turnsOfA[1]!.id}`));
  const tree = page.getByRole('tree', { name: 'Call tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  await expect(tree.getByRole('treeitem', { selected: true })).toContainText('chat_turn');

  // Back on the thread, one click on a turn's ↗ opens that turn's trace.
  await page.goBack();
  await turns.getByRole('link', { name: 'Open the trace of turn 3' }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${turnsOfA[2]!.traceId}\\?call=${turnsOfA[2]!.id}`));
});

test(
  'a turn answered with plain text shows its answer, opened by a direct link',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    // `def chat(messages) -> str`: the prompt is messages, the output a plain string.
    const threadId = `plain-${randomUUID()}`;
    const id = randomUUID();
    const at = new Date(Date.now() - 60_000).toISOString();
    const common = { project_id: project, trace_id: randomUUID(), thread_id: threadId, turn_id: id };
    await api.callUpsertBatch({
      batch: [
        {
          mode: 'start',
          req: {
            start: {
              ...common,
              id,
              parent_id: null,
              op_name: `weave:///${project}/op/chat:0123456789abcdef`,
              started_at: at,
              inputs: { messages: [{ role: 'user', content: 'Is the shop open on Sunday?' }] },
            },
          },
        },
        { mode: 'end', req: { end: { project_id: project, id, ended_at: at, output: 'Yes, from 10 to 4.' } } },
      ],
    });
    await page.goto(`/${project}/threads/${threadId}`);
    const turn = page.getByRole('region', { name: 'Conversation' }).getByRole('list', { name: 'Turn 1 messages' });
    await expect(turn).toContainText('Is the shop open on Sunday?');
    await expect(turn).toContainText('Yes, from 10 to 4.');
    await showsFixed(page, '3-plain-answer');
  },
);
