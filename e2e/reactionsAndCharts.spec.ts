/**
 * Reactions drawn as icons (no colour-emoji font is installed in the test Chromium, which is
 * exactly the case where emoji characters show as empty boxes), and a latency chart whose
 * buckets with calls are separated by empty ones: gaps, with each lone bucket as a dot.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { seedAgentTraces, toBatch } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

const HOUR = 3_600_000;

test('reactions show as icons with their names', async ({ signedInPage: page, api, project }) => {
  const [trace] = await seedAgentTraces(api, { projectId: project, count: 1, failEvery: 0 });
  await api.feedbackCreate({
    project_id: project,
    weave_ref: `weave:///${project}/call/${trace!.rootId}`,
    feedback_type: 'wandb.reaction.1',
    payload: { emoji: '🎉' },
  });
  await page.goto(`/${project}/calls`);
  await page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: 'research_agent', exact: true }).first().click();
  const details = page.getByRole('complementary', { name: 'Call details' });
  const thumbsUp = details.getByRole('button', { name: 'Thumbs up', exact: true });
  await expect(thumbsUp.locator('svg')).toBeVisible();
  const party = details.getByRole('button', { name: '🎉 (1)' });
  await expect(party.locator('svg')).toBeVisible();
  // The icon is drawn, not a glyph from a font: it has a real size.
  const box = await party.locator('svg').boundingBox();
  expect(box!.width).toBeGreaterThan(10);
  await details.getByRole('button', { name: 'Add a reaction' }).click();
  await expect(page.getByRole('button', { name: 'React with 🚀' }).locator('svg')).toBeVisible();
});

/** One-call traces at the given times. */
async function seedRoots(api: WeftClient, projectId: string, times: number[]) {
  const batch = times.flatMap((t0, i) =>
    toBatch({
      projectId,
      traceId: randomUUID(),
      t0,
      calls: [{ id: randomUUID(), parentId: null, op: 'answer', startMs: 0, endMs: 300 + i * 50, inputs: { i }, output: 'ok' }],
    }),
  );
  await api.callUpsertBatch({ batch });
}

test('latency over empty buckets: gaps, and lone buckets as points', async ({ signedInPage: page, api, project }) => {
  // Calls in two hourly buckets, ten hours apart: every bucket between them is empty.
  const base = Math.floor((Date.now() - 14 * HOUR) / HOUR) * HOUR + 5 * 60_000;
  await seedRoots(api, project, [base, base + 1000, base + 10 * HOUR, base + 10 * HOUR + 1000]);
  await page.goto(`/${project}/dashboards`);
  const latency = page.getByRole('figure', { name: 'Latency' });
  await expect(latency).toBeVisible();
  // Two lone buckets per latency line (p50, p95, p99): each is drawn as a dot.
  await expect(latency.locator('.chart-lone-point')).toHaveCount(6);
});
