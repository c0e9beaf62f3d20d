/** The calls table: server-side filters, sorting, trace roots, columns, and a URL that reproduces the view. */
import type { Locator } from '@playwright/test';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

/** "850 ms" / "1.23 s" → milliseconds. */
function parseDuration(text: string): number {
  const m = /([\d.]+)\s*(ms|s)/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

async function columnTexts(table: Locator, column: number): Promise<string[]> {
  const rows = table.getByRole('row');
  const n = await rows.count();
  const out: string[] = [];
  for (let i = 1; i < n; i++) out.push((await rows.nth(i).getByRole('cell').nth(column).innerText()).trim());
  return out;
}

test('filter and sort the calls table', async ({ signedInPage: page, api, project }) => {
  // 12 agent traces; every fifth one fails (2 errors).
  await seedAgentTraces(api, { projectId: project, count: 12 });
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(page.getByText('12 traces')).toBeVisible();

  // Status = error, through the typed filter builder.
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByLabel('Field').fill('summary.weave.status');
  await filter.getByLabel('Operator').selectOption('eq');
  await filter.getByLabel('Value').selectOption('error');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('2 traces')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Status equals error');

  // The URL carries the view: a reload shows the same filtered table.
  expect(new URL(page.url()).searchParams.get('f')).toContain('summary.weave.status');
  await page.reload();
  await expect(page.getByText('2 traces')).toBeVisible();

  await page.getByRole('button', { name: /Remove filter: Status equals error/ }).click();
  await expect(page.getByText('12 traces')).toBeVisible();

  // Sort by latency on the server, both ways.
  await table.getByRole('button', { name: /Latency/ }).click();
  await expect(table.getByRole('columnheader', { name: /Latency/ })).toHaveAttribute('aria-sort', /ending/);
  await expect(page).toHaveURL(/sort=summary\.weave\.latency_ms/);
  const direction = new URL(page.url()).searchParams.get('sort')!.endsWith('desc') ? -1 : 1;
  await expect(table.getByRole('row')).toHaveCount(13);
  const latency = (await table.getByRole('columnheader').allInnerTexts()).findIndex((t) => t.includes('Latency'));
  const latencies = (await columnTexts(table, latency)).map(parseDuration);
  expect(latencies).toEqual([...latencies].sort((a, b) => direction * (a - b)));

  await table.getByRole('button', { name: /Latency/ }).click();
  await expect
    .poll(async () => (await columnTexts(table, latency)).map(parseDuration)[0])
    .toBe(direction === 1 ? Math.max(...latencies) : Math.min(...latencies));
});

test('trace roots only, op filter and a path column', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 10 }); // 8 × 4 calls + 2 failing × 3 calls
  await page.goto(`/${project}/calls`);
  await expect(page.getByText('10 traces')).toBeVisible();

  // The toggle answers at once, and a second change made before the first lands keeps both.
  await page.getByLabel('Trace roots only').uncheck();
  await page.getByLabel('Time range').selectOption({ label: 'Last 24 hours' });
  await expect(page.getByText('38 calls')).toBeVisible();
  await expect(page).toHaveURL(/roots=0/);
  await expect(page).toHaveURL(/since=-24h/);

  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByLabel('Field').fill('op_name');
  await filter.getByLabel('Operator').selectOption('eq');
  await filter.getByLabel('Value').fill('search');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('10 calls')).toBeVisible();

  // Any input path becomes a column.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByLabel('Add a column by field path').fill('inputs.query');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table.getByRole('columnheader', { name: 'inputs.query' })).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('(#9)');
  await expect(page).toHaveURL(/cols=[^&]*inputs\.query/);
});

test('live refresh adds new calls without moving the rows in view', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 200, failEvery: 0, now: Date.now() - 60_000 });
  await page.goto(`/${project}/calls?live=1&cols=op,status,latency,inputs.question`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(page.getByText('200 traces')).toBeVisible();

  // Scroll so that row 60 is at the top, and remember what is there.
  await table.evaluate((el) => (el.scrollTop = 60 * 32));
  const topRow = () =>
    table.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + 300, box.top + 32 + 40);
      return /\(#\d+\)/.exec(hit?.closest('[role=row]')?.textContent ?? '')?.[0] ?? '';
    });
  await expect.poll(topRow).toMatch(/\(#\d+\)/);
  const before = await topRow();

  await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
  await expect(page.getByText('203 traces')).toBeVisible({ timeout: 15_000 });
  expect(await topRow()).toBe(before);
});
