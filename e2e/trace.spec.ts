/** The trace view: tree and waterfall, keyboard walking, the call detail panel, search, big traces. */
import { randomUUID } from 'node:crypto';
import { seedAgentTraces, seedBigTrace } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

test('open a trace, walk the tree by keyboard, read a call', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
  // Nothing the pages ask for fails (a missing default view once answered 404 on every visit).
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  await page.goto(`/${project}/calls`);
  await page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: 'research_agent' }).first().click();

  const tree = page.getByRole('tree', { name: 'Call tree' });
  const items = tree.getByRole('treeitem');
  await expect(items).toHaveCount(4);
  await expect(items.first()).toHaveAttribute('aria-selected', 'true');
  const details = page.getByRole('complementary', { name: 'Call details' });
  await expect(details.getByRole('heading', { name: 'research_agent' })).toBeVisible();
  await expect(details.getByRole('tree', { name: 'Inputs' })).toContainText('Middlemarch');

  // ↓ selects the first LLM call; its messages render as a conversation.
  await tree.focus();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`call=`));
  const conversation = details.getByRole('list', { name: 'Conversation' });
  await expect(conversation).toContainText('You are a helpful research agent');
  await expect(conversation).toContainText('→ search');

  // The second LLM call shows the tool result and the reply.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(3)).toHaveAttribute('aria-selected', 'true');
  await expect(conversation).toContainText('result of call_2');
  await expect(conversation).toContainText('the short answer is no');

  // ← goes to the parent, ← again collapses it, → expands, → enters the first child.
  await page.keyboard.press('ArrowLeft');
  await expect(items.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(items).toHaveCount(4);
  await page.keyboard.press('ArrowRight');
  await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');

  // The selected call is in the URL: a reload lands on it.
  await page.reload();
  await expect(tree.getByRole('treeitem', { selected: true })).toContainText('openai.chat.completions.create');

  // Search inside the tree keeps matches and their ancestors.
  await page.getByLabel('Search calls in this trace').fill('search');
  await expect(items).toHaveCount(2);
  expect(failed).toEqual([]);
});

test('a failed call shows its exception and stack', async ({ signedInPage: page, api, project }) => {
  const [failed] = await seedAgentTraces(api, { projectId: project, count: 1, failEvery: 1 });
  await page.goto(`/${project}/traces/${failed!.traceId}`);
  const tree = page.getByRole('tree', { name: 'Call tree' });
  await tree.getByRole('treeitem', { name: 'search (error)' }).click();
  const details = page.getByRole('complementary', { name: 'Call details' });
  await expect(details.getByText('Error', { exact: true })).toBeVisible();
  await expect(details.locator('pre.exception')).toContainText('File "agent.py", line 42');
});

test('a trace with thousands of calls loads in pages and stays navigable', async ({ signedInPage: page, api, project }) => {
  const { traceId } = await seedBigTrace(api, { projectId: project, children: 2500 });
  await page.goto(`/${project}/traces/${traceId}`);
  await expect(page.getByText('2,501 calls')).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Call tree' });
  // Virtualized: a few dozen rows in the DOM, not 2,501.
  expect(await tree.getByRole('treeitem').count()).toBeLessThan(100);
  await expect(page.getByText(/loaded .* of/)).toHaveCount(0);
  await tree.focus();
  await page.keyboard.press('End');
  await expect(tree.getByRole('treeitem', { selected: true })).toContainText('process_item');
  await expect(page.getByRole('complementary', { name: 'Call details' }).getByRole('tree', { name: 'Inputs' })).toContainText('2499');
});

test('a 10 MB payload opens and expands lazily', async ({ signedInPage: page, api, project }) => {
  const traceId = randomUUID();
  const id = randomUUID();
  // 40,000 documents of ~250 bytes: about 10 MB of inputs.
  const documents = Array.from({ length: 40_000 }, (_, i) => ({ id: i, text: `document ${i} `.padEnd(240, 'x') }));
  const now = new Date().toISOString();
  await api.callUpsertBatch({
    batch: [
      {
        mode: 'start',
        req: {
          start: {
            project_id: project,
            id,
            trace_id: traceId,
            op_name: 'rerank',
            started_at: now,
            attributes: {},
            inputs: { query: 'big', documents },
          },
        },
      },
      { mode: 'end', req: { end: { project_id: project, id, ended_at: now, output: { top: [1, 2, 3] }, summary: {} } } },
    ],
  });
  await page.goto(`/${project}/traces/${traceId}`);
  const inputs = page.getByRole('complementary', { name: 'Call details' }).getByRole('tree', { name: 'Inputs' });
  await expect(inputs).toContainText('40,000 items', { timeout: 15_000 });

  // Speed is measured in bench/, not asserted here; what must hold is that expanding renders
  // only what is in view.
  await inputs.getByRole('button', { name: /documents/ }).click();
  await expect(inputs.getByRole('treeitem', { name: '0: {2 keys}', exact: true })).toBeVisible();
  // Virtualized: the first 100 documents are open, but only those in view are in the DOM.
  expect(await inputs.getByRole('treeitem').count()).toBeLessThan(60);
  await inputs.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await inputs.getByRole('button', { name: /39,900 more/ }).click();
  await expect(inputs.getByRole('treeitem', { name: '100: {2 keys}', exact: true })).toBeVisible();
  await inputs.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(inputs.getByRole('button', { name: /38,900 more/ })).toBeVisible();
});

test(
  'arrow keys walk the tree of a trace opened by a link, before anything is focused',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const [trace] = await seedAgentTraces(api, { projectId: project, count: 1, failEvery: 0 });
    await page.goto(`/${project}/traces/${trace!.traceId}`);
    const items = page.getByRole('tree', { name: 'Call tree' }).getByRole('treeitem');
    await expect(items.first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(2)).toHaveAttribute('aria-selected', 'true');
    await showsFixed(page, '11-trace-keys');
    await page.keyboard.press('Home');
    await expect(items.first()).toHaveAttribute('aria-selected', 'true');
  },
);
