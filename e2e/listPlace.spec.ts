/**
 * Place kept in every list: opened by a direct link and scrolled well down, a list walked with
 * j/k and left by a row click or Enter comes back (browser Back) with the same row under the
 * cursor, fully visible between the sticky header and the bottom edge; and j/k past the edge of
 * the viewport keep the cursor row whole in view.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];

/** `count` one-turn threads, a minute apart. */
async function seedThreads(api: WeftClient, projectId: string, count: number) {
  const t0 = Date.now() - count * 60_000;
  const batch: BatchItem[] = [];
  for (let n = 0; n < count; n++) {
    const id = randomUUID();
    const base = { project_id: projectId, trace_id: randomUUID(), thread_id: `thread-${String(n).padStart(3, '0')}`, turn_id: id };
    const start = t0 + n * 60_000;
    batch.push(
      {
        mode: 'start',
        req: {
          start: {
            ...base,
            id,
            parent_id: null,
            op_name: 'chat_turn',
            started_at: new Date(start).toISOString(),
            inputs: { question: `Question ${n}` },
          },
        },
      },
      {
        mode: 'end',
        req: { end: { project_id: projectId, id, ended_at: new Date(start + 500).toISOString(), output: `Answer ${n}`, summary: {} } },
      },
    );
  }
  await api.callUpsertBatch({ batch });
}

/** `count` finished evaluation runs of one small evaluation. */
async function seedRuns(api: WeftClient, projectId: string, count: number) {
  const [entity, project] = projectId.split('/') as [string, string];
  const path = { entity, project };
  const ds = await api.datasetCreate({ ...path, name: 'tiny', rows: [{ q: 'one' }] });
  const model = (await api.modelCreate({ ...path, name: 'echo', source_code: 'def predict(q): return q' })).model_ref;
  const evaluation = (
    await api.evaluationCreate({ ...path, name: 'tiny-eval', dataset: `weave:///${projectId}/object/tiny:${ds.digest}`, scorers: [] })
  ).evaluation_ref;
  for (let n = 0; n < count; n++) {
    const { evaluation_run_id: run } = await api.evaluationRunCreate({ ...path, evaluation, model });
    await api.evaluationRunFinish({ ...path, evaluation_run_id: run });
  }
}

/** `count` published objects. */
async function seedObjects(api: WeftClient, projectId: string, count: number) {
  for (let n = 0; n < count; n++) {
    const val = { _type: 'Config', _class_name: 'Config', _bases: ['Object', 'BaseModel'], n };
    await api.objCreate({ obj: { project_id: projectId, object_id: `config-${String(n).padStart(3, '0')}`, val } });
  }
}

/** The cursor row, its index and its text (what identifies it). */
async function cursorRow(table: Locator) {
  const row = table.locator('.dt-row.cursor');
  await expect(row).toHaveCount(1);
  return { row, index: Number(await row.getAttribute('data-row-index')), text: await row.innerText() };
}

/** Asserts the row is whole inside the table's viewport: below the sticky header, above the bottom edge. */
async function expectFullyVisible(table: Locator, row: Locator) {
  await expect
    .poll(async () => {
      if ((await row.count()) !== 1) return `cursor on ${await table.locator('.dt-row.cursor').getAttribute('data-row-index')}`;
      const box = await row.boundingBox();
      const view = await table.evaluate((el) => {
        const head = el.querySelector(':scope > .dt-head')!.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return { top: head.bottom, bottom: r.top + el.clientTop + el.clientHeight };
      });
      if (!box) return 'not rendered';
      if (box.y < view.top - 0.5) return `${(view.top - box.y).toFixed(0)} px under the header`;
      if (box.y + box.height > view.bottom + 0.5) return `${(box.y + box.height - view.bottom).toFixed(0)} px below the bottom edge`;
      return 'visible';
    })
    .toBe('visible');
}

/** Clicks a row where nothing in it (link, checkbox) takes the click instead. */
async function clickRow(row: Locator) {
  const cell = await row.evaluate((r) =>
    [...r.querySelectorAll('[role="cell"]')].findIndex((c) => {
      const box = c.getBoundingClientRect();
      return !c.querySelector('a,button,input,label') && box.width > 20 && box.right < window.innerWidth;
    }),
  );
  await row.getByRole('cell').nth(cell).click();
}

/**
 * From a list scrolled well down: the cursor moved with j/k, a row opened (by `how`), Back
 * returns to the same cursor row, in view, at the same scroll offset.
 */
async function openAndComeBack(page: Page, table: Locator, how: 'click' | 'enter', opened: RegExp) {
  await expect(table.locator('.dt-row:not(.placeholder)').first()).toBeVisible();
  await table.evaluate((el) => (el.scrollTop = 1500));
  // The cursor on a row a few rows into the viewport, then walked with j/k.
  const start = table.locator('.dt-row[data-row-index="50"]');
  await expect(start).toBeVisible();
  await start.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const before = await cursorRow(table);
  expect(before.index).toBe(53);
  await expectFullyVisible(table, before.row);
  const scrolled = await table.evaluate((el) => el.scrollTop);

  if (how === 'click') await clickRow(before.row);
  else await page.keyboard.press('Enter');
  await expect(page).toHaveURL(opened);
  await page.goBack();

  await expect(table.locator(`.dt-row.cursor[data-row-index="${before.index}"]`)).toHaveCount(1);
  const after = await cursorRow(table);
  expect(after.text).toBe(before.text);
  await expectFullyVisible(table, after.row);
  expect(Math.abs((await table.evaluate((el) => el.scrollTop)) - scrolled)).toBeLessThanOrEqual(1);
  // The keys go on from there: a first j outside the table only brings it the focus. Whether the
  // focus is back in the table when Back has painted depends on timing, so it is read first.
  const focused = await table.evaluate((el) => el.contains(document.activeElement));
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(table.locator('.dt-row.cursor')).toHaveAttribute('data-row-index', String(before.index + (focused ? 2 : 1)));
}

/** j past the bottom edge and k past the header: the cursor row stays whole in view. */
async function walkPastTheEdges(page: Page, table: Locator) {
  await expect(table.locator('.dt-row:not(.placeholder)').first()).toBeVisible();
  await page.keyboard.press('j');
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('j');
    await expectFullyVisible(table, table.locator(`.dt-row.cursor[data-row-index="${i + 1}"]`));
  }
  for (let i = 30; i > 20; i--) {
    await page.keyboard.press('k');
    await expectFullyVisible(table, table.locator(`.dt-row.cursor[data-row-index="${i - 1}"]`));
  }
  await page.keyboard.press('PageDown');
  await page.keyboard.press('End');
  const last = await cursorRow(table);
  await expectFullyVisible(table, last.row);
}

test(
  'threads: Back returns to the cursor row, after a click and after Enter',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    await seedThreads(api, project, 150);
    await page.goto(`/${project}/threads`);
    const table = page.getByRole('table', { name: 'Threads' });
    await openAndComeBack(page, table, 'click', /\/threads\/thread-/);
    await openAndComeBack(page, table, 'enter', /\/threads\/thread-/);
  },
);

test('threads: p/n move the cursor the list comes back to', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  await seedThreads(api, project, 150);
  await page.goto(`/${project}/threads`);
  const table = page.getByRole('table', { name: 'Threads' });
  await expect(table.locator('.dt-row:not(.placeholder)').first()).toBeVisible();
  await table.evaluate((el) => (el.scrollTop = 1500));
  const row = table.locator('.dt-row[data-row-index="55"]');
  const next = await table.locator('.dt-row[data-row-index="56"]').innerText();
  await clickRow(row);
  await expect(page.getByText('Thread 56 of 150')).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByText('Thread 57 of 150')).toBeVisible();
  await page.getByRole('link', { name: '← Threads' }).click();
  const after = await cursorRow(table);
  expect(after.index).toBe(56);
  expect(after.text).toBe(next);
  await expectFullyVisible(table, after.row);
  await showsFixed(page, '2-back-threads');
});

test('calls: Back from a trace returns to the cursor row', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 60, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await openAndComeBack(page, table, 'click', /\/traces\//);
  await openAndComeBack(page, table, 'enter', /\/traces\//);
  await showsFixed(page, '2-back-calls');
});

test('runs and objects: Back returns to the cursor row', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  await seedRuns(api, project, 70);
  await page.goto(`/${project}/evaluations`);
  await openAndComeBack(page, page.getByRole('table', { name: 'Evaluation runs' }), 'enter', /\/evaluations\/runs\//);

  await seedObjects(api, project, 70);
  await page.goto(`/${project}/objects`);
  await openAndComeBack(page, page.getByRole('table', { name: 'Objects' }), 'click', /\/objects\/config-/);
});

test('j/k past the viewport keep the cursor row fully visible', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 60, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  await walkPastTheEdges(page, page.getByRole('table', { name: 'Calls' }));
  await showsFixed(page, '2-cursor-visible');
});

test('on a phone, Back returns to the cursor row and j/k keep it in view', async ({ signedInPage: page, api, project }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await seedThreads(api, project, 120);
  await page.goto(`/${project}/threads`);
  const table = page.getByRole('table', { name: 'Threads' });
  await walkPastTheEdges(page, table);
  await page.goto(`/${project}/threads`);
  await openAndComeBack(page, table, 'enter', /\/threads\/thread-/);
});

test('queue items: Back from the review returns to the cursor row', { tag: SCREENS }, async ({ signedInPage: page, api, project }) => {
  const traces = await seedAgentTraces(api, { projectId: project, count: 60, failEvery: 0 });
  const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: 'Long queue', scorer_refs: [] });
  await api.annotationQueueAddCalls({ project_id: project, queue_id: queueId, call_ids: traces.map((t) => t.rootId), display_fields: [] });
  await page.goto(`/${project}/annotation/${queueId}`);
  const items = page.getByRole('table', { name: 'Queue items' });
  const scroller = page.locator('.page');
  await items.locator('tr[data-row-index="40"]').focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const cursor = items.locator('tr[data-cursor="true"]');
  await expect(cursor).toHaveAttribute('data-row-index', '42');
  const position = await cursor.locator('td.num').innerText();
  const inView = async () => {
    const box = (await cursor.boundingBox())!;
    const view = await scroller.evaluate((el) => ({
      top: el.getBoundingClientRect().top,
      bottom: el.getBoundingClientRect().top + el.clientHeight,
    }));
    return box.y >= view.top - 0.5 && box.y + box.height <= view.bottom + 0.5;
  };
  expect(await inView()).toBe(true);
  const scrolled = await scroller.evaluate((el) => el.scrollTop);
  expect(scrolled).toBeGreaterThan(500);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/review/);
  await page.goBack();
  await expect(cursor).toHaveAttribute('data-row-index', '42');
  await expect(cursor.locator('td.num')).toHaveText(position);
  await expect.poll(inView).toBe(true);
  expect(Math.abs((await scroller.evaluate((el) => el.scrollTop)) - scrolled)).toBeLessThanOrEqual(1);
  await showsFixed(page, '2-back-queue-items');
});
