/**
 * The project dashboard: call statistics bucketed by /calls/stats over a chosen time range, and
 * a bucket that opens the calls table filtered to exactly that window.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { toBatch } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

const HOUR = 3_600_000;

/** One-call traces (roots) started at the given times; every `failEvery`-th one throws. */
async function seedRoots(api: WeftClient, { projectId, times, failEvery = 0 }: { projectId: string; times: number[]; failEvery?: number }) {
  const batch = times.flatMap((t0, i) =>
    toBatch({
      projectId,
      traceId: randomUUID(),
      t0,
      calls: [
        {
          id: randomUUID(),
          parentId: null,
          op: 'answer_question',
          startMs: 0,
          endMs: 200 + i * 40,
          inputs: { question: `question ${i}` },
          output: 'ok',
          exception: failEvery && i % failEvery === failEvery - 1 ? 'ValueError: boom' : undefined,
          usage: { model: i % 2 ? 'gpt-4o' : 'gpt-4o-mini', prompt: 100 + i, completion: 20 },
        },
      ],
    }),
  );
  await api.callUpsertBatch({ batch });
}

test('dashboard charts follow the time range and a bucket opens its calls', async ({ signedInPage: page, api, project }) => {
  // Ten minutes into the hour that began five hours ago: three calls a second apart, so they
  // share one hourly bucket whatever the minute is now.
  const now = Date.now();
  const fiveHoursAgo = Math.floor((now - 5 * HOUR) / HOUR) * HOUR + 10 * 60_000;
  // Two recent calls a second apart inside one clock hour and inside the last hour, whatever
  // the minute is now (the hour's first minutes fall back to ten minutes ago).
  const hourStart = Math.floor(now / HOUR) * HOUR;
  const recentAt = now - hourStart >= 2 * 60_000 ? hourStart + 30_000 : now - 10 * 60_000;
  const recent = [recentAt, recentAt + 1000];
  const earlier = [0, 1, 2].map((i) => fiveHoursAgo + i * 1000);
  const daysAgo = [0, 1, 2, 3].map((i) => now - 3 * 24 * HOUR + i * 1000);
  await seedRoots(api, { projectId: project, times: [...recent, ...earlier, ...daysAgo], failEvery: 3 });

  await page.goto(`/${project}/calls`);
  await page
    .getByRole('navigation', { name: 'Project sections' })
    .getByRole('link', { name: /Dashboards/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();

  // Last day (the default): the 5 calls of the last day, in hourly buckets.
  const totals = page.getByRole('definition');
  const requests = page.getByRole('figure', { name: 'Requests' });
  await expect(requests).toContainText('5 in range');
  await expect(totals.first()).toHaveText('5');
  const dayBuckets = await totals.last().innerText();

  // Last week: the older four join in, and the buckets get wider.
  await page.getByLabel('Time range').selectOption('7d');
  await expect(requests).toContainText('9 in range');
  await expect(page).toHaveURL(/range=7d/);
  await expect(totals.last()).not.toHaveText(dayBuckets);

  // Last hour: only the two recent ones.
  await page.getByLabel('Time range').selectOption('1h');
  await expect(requests).toContainText('2 in range');

  // Back to the last day; hovering the tallest bar shows its exact count, clicking it opens
  // the calls table filtered to that hour.
  await page.getByLabel('Time range').selectOption('24h');
  await expect(requests).toContainText('5 in range');
  const bars = requests.locator('.recharts-bar-rectangle path');
  await expect(bars).toHaveCount(2);
  const heights = await bars.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  const tallest = bars.nth(heights.indexOf(Math.max(...heights)));
  await tallest.hover();
  await expect(page.getByRole('tooltip')).toContainText('Traces');
  await expect(page.getByRole('tooltip')).toContainText('3');
  await tallest.click();

  await expect(page).toHaveURL(new RegExp(`/${project}/calls\\?`));
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Started after');
  await expect(page.getByText('3 traces')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Calls' }).getByRole('row')).toHaveCount(4);
  // The header's figures cover the same window: one of the three failed.
  const figures = page.getByLabel('Statistics of these calls');
  await expect(figures).toContainText('33% errors');
  await expect(figures).toContainText(/p50 \d+ ms/);

  // A filter /calls/stats cannot express (status) keeps the count and says why the rest is gone.
  await page.goto(`/${project}/calls?f=${encodeURIComponent(JSON.stringify([['summary.weave.status', 'eq', 'error']]))}`);
  await expect(page.getByText('3 traces')).toBeVisible();
  await expect(page.getByText(/need a simpler filter/)).toBeVisible();
});
