/** The trace view: tree and waterfall, keyboard walking, the call detail panel, search, big traces. */
import { seedAgentTraces, seedBigTrace } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('open a trace, walk the tree by keyboard, read a call', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
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
