/**
 * Columns: at 1280 px the Calls and Threads tables, opened by a direct link, show every default
 * column inside the screen without sideways scrolling; a column hidden or shown from the table's
 * chooser stays so after a reload; a link sorting by a hidden column still sorts.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed, WIDE_ONLY } from './fixtures/screens.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];

/** A thread of two chat turns per topic, every turn an LLM call with usage. */
async function seedThreads(api: WeftClient, projectId: string, topics = ['refunds', 'shipping', 'returns']) {
  const t0 = Date.now() - 600_000 - topics.length * 120_000;
  const items: BatchItem[] = [];
  topics.forEach((topic, t) => {
    const threadId = `thread-${topic}-${randomUUID().slice(0, 6)}`;
    [0, 1].forEach((turn) => {
      const id = randomUUID();
      const start = t0 + t * 120_000 + turn * 30_000;
      const common = { project_id: projectId, id, trace_id: randomUUID(), thread_id: threadId, turn_id: id };
      items.push(
        {
          mode: 'start',
          req: {
            start: {
              ...common,
              parent_id: null,
              op_name: 'openai.chat.completions.create',
              started_at: new Date(start).toISOString(),
              inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `A question about ${topic}, turn ${turn + 1}` }] },
            },
          },
        },
        {
          mode: 'end',
          req: {
            end: {
              project_id: projectId,
              id,
              ended_at: new Date(start + 700 + 300 * t).toISOString(),
              output: { choices: [{ index: 0, message: { role: 'assistant', content: `An answer about ${topic}` } }] },
              summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } } },
            },
          },
        },
      );
    });
  });
  await api.callUpsertBatch({ batch: items });
}

/** Each named header lies inside the viewport, and the table does not scroll sideways. */
async function expectFits(page: Page, table: Locator, headers: string[]) {
  const width = page.viewportSize()!.width;
  for (const name of headers) {
    const header = table.getByRole('columnheader', { name, exact: true });
    await expect(header).toBeVisible();
    const box = (await header.boundingBox())!;
    expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(width);
  }
  const overflow = await table.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'sideways scroll of the table').toBeLessThanOrEqual(0);
}

test(
  'the default Calls and Threads columns fit a 1280 px screen',
  { tag: [SCREENS, WIDE_ONLY] },
  async ({ signedInPage: page, api, project }) => {
    // Enough rows for a vertical scrollbar, which takes its width from the columns'.
    await seedThreads(
      api,
      project,
      Array.from({ length: 30 }, (_, i) => `topic ${i}`),
    );
    expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });

    await page.goto(`/${project}/calls`);
    const calls = page.getByRole('table', { name: 'Calls' });
    await expect(page.getByText('60 traces')).toBeVisible();
    expect(await calls.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expectFits(page, calls, ['Op', 'Status', 'Latency', 'Output', 'Tokens', 'Cost']);
    await showsFixed(page, '9-columns-calls');

    await page.goto(`/${project}/threads`);
    const threads = page.getByRole('table', { name: 'Threads' });
    await expect(page.getByText('30 threads')).toBeVisible();
    expect(await threads.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expectFits(page, threads, ['Thread', 'Turns', 'Last updated', 'First input', 'Last output', 'Errors', 'Tokens', 'Cost']);
    await showsFixed(page, '9-columns-threads');
  },
);

test(
  'a column shown or hidden from the chooser stays so after a reload',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    await seedThreads(api, project);
    await page.goto(`/${project}/threads`);
    const threads = page.getByRole('table', { name: 'Threads' });
    await expect(threads.getByRole('row')).toHaveCount(4);
    await expect(threads.getByRole('columnheader', { name: /p99 turn/ })).toHaveCount(0);

    await threads.getByRole('button', { name: 'Columns of Threads' }).click();
    await page.getByRole('checkbox', { name: 'p99 turn' }).check();
    await page.getByRole('checkbox', { name: 'Last output' }).uncheck();
    await expect(threads.getByRole('columnheader', { name: /p99 turn/ })).toBeVisible();
    await expect(threads.getByRole('columnheader', { name: 'Last output' })).toHaveCount(0);

    await page.reload();
    await expect(threads.getByRole('row')).toHaveCount(4);
    await expect(threads.getByRole('columnheader', { name: /p99 turn/ })).toBeVisible();
    await expect(threads.getByRole('columnheader', { name: 'Last output' })).toHaveCount(0);

    // Calls: the toolbar's chooser, remembered for a link that names no columns.
    await page.goto(`/${project}/calls`);
    const calls = page.getByRole('table', { name: 'Calls' });
    await expect(calls.getByRole('columnheader', { name: 'Model' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Model' }).check();
    await expect(calls.getByRole('columnheader', { name: 'Model' })).toBeVisible();
    await page.goto(`/${project}/calls`);
    await expect(calls.getByRole('row')).toHaveCount(7);
    await expect(calls.getByRole('columnheader', { name: 'Model' })).toBeVisible();
    await expect(calls.getByText('gpt-4o-mini').first()).toBeVisible();
    await showsFixed(page, '9-column-chooser');
  },
);

test('a link sorting threads by a hidden column still sorts by it', async ({ signedInPage: page, api, project }) => {
  await seedThreads(api, project);
  // Turn durations grow with the thread: returns (1,300 ms) is slowest, refunds (700 ms) fastest.
  await page.goto(`/${project}/threads?sort=p99_turn_duration_ms:desc`);
  const threads = page.getByRole('table', { name: 'Threads' });
  await expect(threads.getByRole('row')).toHaveCount(4);
  await expect(threads.getByRole('columnheader', { name: /p99 turn/ })).toHaveCount(0);
  await expect(page.getByText('Ignored from this link')).toHaveCount(0);
  await expect(threads.getByRole('row').nth(1)).toContainText('returns');
  await expect(threads.getByRole('row').nth(3)).toContainText('refunds');
  await page.goto(`/${project}/threads?sort=p99_turn_duration_ms:asc`);
  await expect(threads.getByRole('row').nth(1)).toContainText('refunds');
});

test(
  'the evaluation runs list shows three scorers within a 1280 px screen',
  { tag: [SCREENS, WIDE_ONLY] },
  async ({ signedInPage: page, api, project }) => {
    const [entity, name] = project.split('/') as [string, string];
    const path = { entity, project: name };
    const rows = [{ question: 'What is 1 + 1?' }, { question: 'What is 2 + 2?' }];
    const ds = await api.datasetCreate({ ...path, name: 'arith', rows });
    const names = ['correctness', 'helpfulness', 'groundedness'];
    const scorers: string[] = [];
    for (const n of names)
      scorers.push((await api.scorerCreate({ ...path, name: n, op_source_code: 'def score(output): return 0.5' })).scorer);
    const model = (await api.modelCreate({ ...path, name: 'model-alpha', source_code: 'def predict(question): ...' })).model_ref;
    const dataset = `weave:///${project}/object/arith:${ds.digest}`;
    const evaluation = (await api.evaluationCreate({ ...path, name: 'arith-eval', dataset, scorers })).evaluation_ref;
    const { evaluation_run_id: run } = await api.evaluationRunCreate({ ...path, evaluation, model });
    for (const row of rows) {
      const { prediction_id } = await api.predictionCreate({ ...path, model, inputs: row, output: '2', evaluation_run_id: run });
      for (const scorer of scorers) await api.scoreCreate({ ...path, prediction_id, scorer, value: 0.5, evaluation_run_id: run });
      await api.predictionFinish({ ...path, prediction_id });
    }
    await api.evaluationRunFinish({ ...path, evaluation_run_id: run });

    await page.goto(`/${project}/evaluations`);
    const runs = page.getByRole('table', { name: 'Evaluation runs' });
    await expect(runs.getByRole('row')).toHaveCount(2);
    await expectFits(page, runs, ['Evaluation', 'Model', 'Status', ...names.map((n) => `${n} (mean)`)]);
    await showsFixed(page, '9-columns-runs');
  },
);
