/**
 * Tables from the keyboard and at a glance: the calls table sorts by tokens and cost on the
 * server, shows what each call was asked and answered and by which model, walks with a row
 * cursor (j/k, Enter) like the runs and queue tables, and a link with a sort the server refuses
 * falls back to the default order with a notice.
 */
import { randomUUID } from 'node:crypto';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { expect, test } from './fixtures/test.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];

/** Root LLM calls with known usage: [question, answer, model, prompt tokens, completion tokens]. */
const CALLS: [string, string, string, number, number][] = [
  ['What is the capital of Portugal?', 'Lisbon.', 'gpt-4o-mini', 40, 10],
  ['Summarise this contract in one line.', 'A one-year lease with a break clause.', 'gpt-4o', 3000, 200],
  ['Translate "thank you" into French.', 'Merci.', 'gpt-4o-mini', 20000, 5],
];

async function seedCalls(api: WeftClient, projectId: string) {
  const t0 = Date.now() - 300_000;
  const ids: string[] = [];
  const items: BatchItem[] = CALLS.flatMap(([q, a, model, prompt, completion], i): BatchItem[] => {
    const id = randomUUID();
    ids.push(id);
    const start = t0 + i * 10_000;
    return [
      {
        mode: 'start',
        req: {
          start: {
            project_id: projectId,
            id,
            trace_id: randomUUID(),
            parent_id: null,
            op_name: 'openai.chat.completions.create',
            started_at: new Date(start).toISOString(),
            inputs: { model, messages: [{ role: 'user', content: q }] },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: projectId,
            id,
            ended_at: new Date(start + 800).toISOString(),
            output: { choices: [{ index: 0, message: { role: 'assistant', content: a } }] },
            summary: { usage: { [model]: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } } },
          },
        },
      },
    ];
  });
  await api.callUpsertBatch({ batch: items });
  // Prices of this project's own, so the cost order is known: gpt-4o 100× dearer per token.
  await api.costCreate({
    project_id: projectId,
    costs: {
      'gpt-4o-mini': { prompt_token_cost: 1e-7, completion_token_cost: 1e-7, effective_date: new Date(t0 - 60_000).toISOString() },
      'gpt-4o': { prompt_token_cost: 1e-5, completion_token_cost: 1e-5, effective_date: new Date(t0 - 60_000).toISOString() },
    },
  });
  return ids;
}

/** The Input column's text per row, top to bottom. */
async function inputs(page: import('@playwright/test').Page) {
  const table = page.getByRole('table', { name: 'Calls' });
  const index = await table
    .getByRole('columnheader')
    .allInnerTexts()
    .then((h) => h.findIndex((t) => t.trim().startsWith('Input')));
  const rows = table.getByRole('row');
  const out: string[] = [];
  for (let i = 1; i < (await rows.count()); i++) out.push((await rows.nth(i).getByRole('cell').nth(index).innerText()).trim());
  return out;
}

test('calls show input, output and model, sort by tokens and cost, and open by keyboard', async ({ signedInPage: page, api, project }) => {
  const ids = await seedCalls(api, project);
  // Input and model are not default columns (docs/dashboard.md "Columns"): a link names them.
  await page.goto(`/${project}/calls?cols=op,input,output,model,tokens,cost`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table.getByRole('row')).toHaveCount(4);

  // What was asked and answered, and by which model, as readable text.
  const row = table.getByRole('row').filter({ hasText: 'capital of Portugal' });
  await expect(row).toContainText('Lisbon.');
  await expect(row).toContainText('gpt-4o-mini');

  // Tokens, most first: 20,005, 3,200, 50.
  await table.getByRole('button', { name: 'Tokens' }).click();
  await expect(page).toHaveURL(/sort=summary\.weave\.total_tokens%3Adesc/);
  await expect.poll(() => inputs(page)).toEqual([CALLS[2]![0], CALLS[1]![0], CALLS[0]![0]]);

  // Cost, dearest first: gpt-4o's 3,200 tokens ($0.032) beat gpt-4o-mini's 20,005 ($0.002).
  await table.getByRole('button', { name: 'Cost' }).click();
  await expect(page).toHaveURL(/sort=summary\.weave\.total_cost%3Adesc/);
  await expect.poll(() => inputs(page)).toEqual([CALLS[1]![0], CALLS[2]![0], CALLS[0]![0]]);

  // The row cursor: j from the page, j again, Enter opens that call's trace.
  await page.keyboard.press('j');
  await expect(table.getByRole('row').nth(1)).toBeFocused();
  await page.keyboard.press('j');
  await expect(table.getByRole('row').nth(2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/traces/.+\\?call=${ids[2]}`));
  await expect(page.getByRole('link', { name: '← Calls' })).toBeVisible();
});

test('a calls link with a sort or filter the server refuses falls back with a notice', async ({ signedInPage: page, api, project }) => {
  await seedCalls(api, project);
  await page.goto(`/${project}/calls?sort=colour.hue:desc`);
  const notice = page.getByRole('status').filter({ hasText: 'Ignored from this link' });
  await expect(notice).toContainText('sort “colour.hue:desc”');
  await expect(page.getByRole('table', { name: 'Calls' }).getByRole('row')).toHaveCount(4);
  await expect(page.getByText('You do not have access to this')).toHaveCount(0);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page).not.toHaveURL(/colour/);

  const filter = encodeURIComponent(JSON.stringify([['nowhere.field', 'eq', 'x']]));
  await page.goto(`/${project}/calls?f=${filter}`);
  await expect(page.getByRole('status').filter({ hasText: 'Ignored from this link' })).toContainText('nowhere.field');
  await expect(page.getByRole('table', { name: 'Calls' }).getByRole('row')).toHaveCount(4);
});

test('the queue and runs tables walk with j/k and open with Enter', async ({ signedInPage: page, api, project }) => {
  const [entity, name] = project.split('/') as [string, string];
  const a = await api.annotationQueueCreate({ project_id: project, name: `Alpha ${randomUUID().slice(0, 4)}`, scorer_refs: [] });
  await api.annotationQueueCreate({ project_id: project, name: `Beta ${randomUUID().slice(0, 4)}`, scorer_refs: [] });
  await page.goto(`/${project}/annotation`);
  const queues = page.getByRole('table', { name: 'Annotation queues' });
  await expect(queues.getByRole('row')).toHaveCount(3);
  await page.keyboard.press('j');
  const first = queues.getByRole('row').nth(1);
  await expect(first).toBeFocused();
  await page.keyboard.press('j');
  await expect(queues.getByRole('row').nth(2)).toBeFocused();
  await page.keyboard.press('k');
  await expect(first).toBeFocused();
  const firstId = (await first.innerText()).startsWith('Alpha') ? a.id : null;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/annotation\/.+\/review/);
  if (firstId) await expect(page).toHaveURL(new RegExp(firstId));

  // Runs: one finished run of a small evaluation.
  const path = { entity, project: name };
  const ds = await api.datasetCreate({ ...path, name: 'tiny', rows: [{ q: 'one' }] });
  const model = (await api.modelCreate({ ...path, name: 'echo', source_code: 'def predict(q): return q' })).model_ref;
  const evaluation = (
    await api.evaluationCreate({ ...path, name: 'tiny-eval', dataset: `weave:///${project}/object/tiny:${ds.digest}`, scorers: [] })
  ).evaluation_ref;
  const { evaluation_run_id: run } = await api.evaluationRunCreate({ ...path, evaluation, model });
  await api.evaluationRunFinish({ ...path, evaluation_run_id: run });
  await page.goto(`/${project}/evaluations`);
  const runs = page.getByRole('table', { name: 'Evaluation runs' });
  await expect(runs.getByRole('row')).toHaveCount(2);
  await page.keyboard.press('j');
  await expect(runs.getByRole('row').nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/evaluations/runs/${run}`));
});
