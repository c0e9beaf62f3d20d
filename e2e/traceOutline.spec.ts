/** The trace page on its outline: collapse with subtree totals, next error, slowest path, search, big strings in parts. */
import { randomUUID } from 'node:crypto';
import { toBatch } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('collapse a subtree, jump to each error, show the slowest path, search', async ({ signedInPage: page, api, project }) => {
  const traceId = randomUUID();
  const id = (name: string) => `${traceId.slice(0, 8)}-${name}`;
  const call = (name: string, parent: string | null, startMs: number, endMs: number, exception?: string) => ({
    id: id(name),
    parentId: parent ? id(parent) : null,
    op: name,
    startMs,
    endMs,
    inputs: { name },
    output: { ok: !exception },
    ...(exception ? { exception } : {}),
  });
  // pipeline ─┬─ stage_a ─┬─ fetch_a1
  //           │           └─ fetch_a2 (fails)
  //           ├─ stage_b ─┬─ slow_b1 ── deep_b      (the slowest path)
  //           │           └─ fast_b2 (fails)
  //           └─ stage_c
  const calls = [
    call('pipeline', null, 0, 1000),
    call('stage_a', 'pipeline', 10, 300),
    call('fetch_a1', 'stage_a', 20, 100),
    call('fetch_a2', 'stage_a', 110, 290, 'TimeoutError: fetch_a2'),
    call('stage_b', 'pipeline', 310, 990),
    call('slow_b1', 'stage_b', 320, 900),
    call('deep_b', 'slow_b1', 330, 880),
    call('fast_b2', 'stage_b', 901, 950, 'ValueError: fast_b2'),
    call('stage_c', 'pipeline', 995, 999),
  ];
  await api.callUpsertBatch({ batch: toBatch({ projectId: project, traceId, t0: Date.now() - 60_000, calls }) });
  await page.goto(`/${project}/traces/${traceId}`);

  const tree = page.getByRole('tree', { name: 'Call tree' });
  const items = tree.getByRole('treeitem');
  const row = (name: string) => tree.locator(`#tt-${id(name)}`);
  const details = page.getByRole('complementary', { name: 'Call details' });
  await expect(items).toHaveCount(9);
  await expect(details.getByLabel('Subtree totals')).toHaveText('8 calls · 2 errors');
  // boot.js fetched the page's code beside the entry, from index.html's template for this page.
  await expect(page.locator('head > link[rel=modulepreload][href*="/TracePage-"]')).toHaveCount(1);

  // Collapsing stage_a hides its two calls; its row counts them and the error below.
  await row('stage_a').getByRole('button', { name: 'Collapse' }).click();
  await expect(items).toHaveCount(7);
  await expect(row('stage_a')).toContainText('(+2)');
  await expect(row('stage_a')).toContainText('1 error below');

  // Next error walks the failed calls in tree order, opening what hides them, and wraps.
  await row('pipeline').click();
  const nextError = page.getByRole('button', { name: 'Next error (2)' });
  await nextError.click();
  await expect(row('fetch_a2')).toHaveAttribute('aria-selected', 'true');
  await expect(items).toHaveCount(9);
  await expect(details.getByRole('heading', { name: 'fetch_a2' })).toBeVisible();
  await expect(details.locator('pre.exception')).toContainText('TimeoutError: fetch_a2');
  await nextError.click();
  await expect(row('fast_b2')).toHaveAttribute('aria-selected', 'true');
  await nextError.click();
  await expect(row('fetch_a2')).toHaveAttribute('aria-selected', 'true');

  // The slowest path: pipeline → stage_b → slow_b1 → deep_b, marked, its end selected.
  const slowest = page.getByRole('button', { name: 'Slowest path' });
  await slowest.click();
  await expect(slowest).toHaveAttribute('aria-pressed', 'true');
  await expect(row('deep_b')).toHaveAttribute('aria-selected', 'true');
  await expect(tree.locator('.tt-row.on-path')).toHaveCount(4);
  for (const name of ['pipeline', 'stage_b', 'slow_b1', 'deep_b']) await expect(row(name)).toHaveClass(/on-path/);
  await slowest.click();
  await expect(tree.locator('.tt-row.on-path')).toHaveCount(0);

  // Search within the trace keeps matches and their ancestors.
  await page.getByLabel('Search calls in this trace').fill('fetch');
  await expect(items).toHaveCount(4);
  await expect(tree.locator('.tt-row.match')).toHaveCount(2);
});

test('a long string opens in parts, each on demand, its button never hidden by the preview', async ({
  signedInPage: page,
  api,
  project,
}) => {
  const traceId = randomUUID();
  const document = 'a'.repeat(250_000) + 'b'.repeat(250_000) + 'THE END';
  await api.callUpsertBatch({
    batch: toBatch({
      projectId: project,
      traceId,
      t0: Date.now() - 60_000,
      calls: [{ id: randomUUID(), parentId: null, op: 'read_report', startMs: 0, endMs: 10, inputs: { document }, output: null }],
    }),
  });
  await page.goto(`/${project}/traces/${traceId}`);
  const inputs = page.getByRole('complementary', { name: 'Call details' }).getByRole('tree', { name: 'Inputs' });
  await inputs.getByRole('button', { name: 'show all (500,007 chars)' }).click();
  await expect(inputs).not.toContainText('ab');
  await inputs.getByRole('button', { name: 'show more (300,007 characters left)' }).click();
  await expect(inputs).toContainText('ab');
  await inputs.getByRole('button', { name: 'show more (100,007 characters left)' }).click();
  await expect(inputs).toContainText('THE END');
  await expect(inputs.getByRole('button', { name: /show more/ })).toHaveCount(0);
});
