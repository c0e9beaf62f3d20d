/**
 * Calls Weft made itself (playground runs, judges, monitors, evaluate_model; marked with
 * attributes.weft.source) stay out of the default Calls view and its latency header, opened by a
 * direct link; one chip brings them back, in the list and the header alike.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

/** A finished root call of `op` that took `ms`, with `attributes`. */
function rootCall(project: string, op: string, ms: number, attributes: Record<string, unknown>, ago: number) {
  const id = randomUUID();
  const started = Date.now() - ago;
  return [
    {
      mode: 'start' as const,
      req: {
        start: { project_id: project, id, trace_id: id, op_name: op, started_at: new Date(started).toISOString(), attributes, inputs: {} },
      },
    },
    {
      mode: 'end' as const,
      req: { end: { project_id: project, id, ended_at: new Date(started + ms).toISOString(), output: 'ok', summary: {} } },
    },
  ];
}

async function seed(api: WeftClient, project: string) {
  await api.callUpsertBatch({
    batch: [
      ...rootCall(project, 'answer_question', 1_000, {}, 120_000),
      ...rootCall(project, 'answer_question', 1_000, {}, 110_000),
      // A playground run: 40 s, which would drag the header's p99 up.
      ...rootCall(project, 'weave.completions_create', 40_000, { weft: { source: 'playground' } }, 100_000),
    ],
  });
}

test(
  "Weft's own calls are hidden from Calls and its latency header until the chip shows them",
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    await seed(api, project);
    await page.goto(`/${project}/calls`);
    const table = page.getByRole('table', { name: 'Calls' });
    const stats = page.getByLabel('Statistics of these calls');
    await expect(page.getByText('2 traces')).toBeVisible();
    await expect(table).toContainText('answer_question');
    await expect(table).not.toContainText('weave.completions_create');
    await expect(stats).toContainText('p99 1.00 s');
    await showsFixed(page, '11-weft-own-calls-hidden');

    const chip = page.getByRole('button', { name: "Weft's own calls" });
    await expect(chip).toHaveAttribute('aria-pressed', 'false');
    await chip.click();
    await expect(chip).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/[?&]weft=1/);
    await expect(page.getByText('3 traces')).toBeVisible();
    await expect(table).toContainText('weave.completions_create');
    await expect(stats).not.toContainText('p99 1.00 s');

    // The same by a direct link.
    await page.goto(`/${project}/calls?weft=1`);
    await expect(page.getByText('3 traces')).toBeVisible();
    await expect(page.getByRole('button', { name: "Weft's own calls" })).toHaveAttribute('aria-pressed', 'true');
  },
);
