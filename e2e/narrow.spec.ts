/**
 * Narrow screens: at phone (390 × 844) and tablet (768 × 1024) sizes the project navigation
 * folds into a Menu button, and the review, thread and trace pages fit the width: nothing
 * scrolls sideways. Screenshots land in test-results/ for a person to look at.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import type { ReqOf } from '../src/contract/endpoints.js';
import { expect, test } from './fixtures/test.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';

type BatchItem = ReqOf<'callUpsertBatch'>['batch'][number];

const QUESTIONS = [
  'My order arrived damaged, the box was crushed and the mug inside is broken. What can I do?',
  'Can you send a replacement instead of a refund? I would rather have the mug.',
];

/** A two-turn support thread whose turns each have a nested LLM call. */
async function seedThread(api: WeftClient, projectId: string) {
  const threadId = `support-${randomUUID().slice(0, 8)}`;
  const t0 = Date.now() - 600_000;
  const items: BatchItem[] = [];
  const turnIds: string[] = [];
  QUESTIONS.forEach((q, i) => {
    const id = randomUUID();
    const child = randomUUID();
    const traceId = randomUUID();
    turnIds.push(id);
    const start = t0 + i * 60_000;
    const common = { project_id: projectId, trace_id: traceId, thread_id: threadId, turn_id: id };
    const messages = [{ role: 'user', content: q }];
    const answer = { role: 'assistant', content: `I am sorry to hear that. ${'We will make it right. '.repeat(6)}` };
    items.push(
      {
        mode: 'start',
        req: {
          start: {
            ...common,
            id,
            parent_id: null,
            op_name: 'support_turn',
            started_at: new Date(start).toISOString(),
            inputs: { messages },
          },
        },
      },
      {
        mode: 'start',
        req: {
          start: {
            ...common,
            id: child,
            parent_id: id,
            op_name: 'openai.chat.completions.create',
            started_at: new Date(start + 5).toISOString(),
            inputs: { model: 'gpt-4o-mini', messages },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: projectId,
            id: child,
            ended_at: new Date(start + 900).toISOString(),
            output: { choices: [{ index: 0, message: answer }] },
            summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 40, completion_tokens: 60, total_tokens: 100 } } },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: projectId,
            id,
            ended_at: new Date(start + 1000).toISOString(),
            output: { choices: [{ index: 0, message: answer }] },
          },
        },
      },
    );
  });
  await api.callUpsertBatch({ batch: items });
  return { threadId, turnIds };
}

/** True when neither the document nor the page container scrolls sideways. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector('.page');
    const fits = (el: Element) => el.scrollWidth <= el.clientWidth + 1;
    return fits(doc) && (main === null || fits(main));
  });
}

for (const size of [
  { width: 390, height: 844, name: 'phone' },
  { width: 768, height: 1024, name: 'tablet' },
]) {
  test.describe(`at ${size.width} × ${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('thread, trace and review pages fit the screen; the navigation is a menu', async ({ signedInPage: page, api, project }, info) => {
      const { threadId, turnIds } = await seedThread(api, project);

      await page.goto(`/${project}/threads/${threadId}`);
      await expect(page.getByRole('listbox', { name: 'Turns' }).getByRole('option')).toHaveCount(2);
      const nav = page.getByRole('navigation', { name: 'Project sections' });
      await expect(nav).toBeHidden();
      await page.screenshot({ path: info.outputPath(`thread-${size.name}.png`) });
      await expect.poll(() => fitsWidth(page)).toBe(true);

      // The menu opens the sections as a drawer; choosing one closes it.
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(nav).toBeVisible();
      await page.screenshot({ path: info.outputPath(`menu-${size.name}.png`) });
      await page.keyboard.press('Escape');
      await expect(nav).toBeHidden();

      // The trace of the first turn, opened from the thread.
      await page.getByRole('listbox', { name: 'Turns' }).getByRole('link', { name: 'Open the trace of turn 1' }).click();
      await expect(page.getByRole('tree', { name: 'Call tree' }).getByRole('treeitem')).toHaveCount(2);
      await expect(page.getByRole('link', { name: '← Thread', exact: true })).toBeVisible();
      await page.screenshot({ path: info.outputPath(`trace-${size.name}.png`) });
      await expect.poll(() => fitsWidth(page)).toBe(true);

      // A queue with the two turns, reviewed on the small screen.
      const { id: queueId } = await api.annotationQueueCreate({ project_id: project, name: `Narrow ${size.name}`, scorer_refs: [] });
      await api.annotationQueueAddCalls({
        project_id: project,
        queue_id: queueId,
        call_ids: turnIds,
        display_fields: ['inputs', 'output'],
      });
      await page.goto(`/${project}/annotation/${queueId}/review`);
      await expect(page.getByRole('region', { name: 'Call under review' })).toContainText(QUESTIONS[0]!.slice(0, 30));
      await expect(page.getByRole('button', { name: /Submit & next/ })).toBeVisible();
      // The call gets a readable width, not a sliver beside the questions.
      const callBox = await page.getByRole('region', { name: 'Call under review' }).boundingBox();
      expect(callBox!.width).toBeGreaterThan(size.width / 2 - 40);
      await page.screenshot({ path: info.outputPath(`review-${size.name}.png`) });
      await expect.poll(() => fitsWidth(page)).toBe(true);

      await page.getByRole('button', { name: 'Menu' }).click();
      await nav.getByRole('link', { name: 'Threads' }).click();
      await expect(page).toHaveURL(new RegExp(`/${project}/threads$`));
      await expect(nav).toBeHidden();
      await expect(page.getByRole('table', { name: 'Threads' }).getByRole('row')).toHaveCount(2);
      await page.screenshot({ path: info.outputPath(`threads-${size.name}.png`) });
    });

    test('the annotation queues list fits the screen', { tag: SCREENS }, async ({ signedInPage: page, api, project }, info) => {
      const { turnIds } = await seedThread(api, project);
      const { id: queueId } = await api.annotationQueueCreate({
        project_id: project,
        name: 'Support answers that need a second look',
        description: 'Turns where the customer asked for a replacement rather than a refund',
        scorer_refs: [],
      });
      await api.annotationQueueAddCalls({ project_id: project, queue_id: queueId, call_ids: turnIds, display_fields: [] });
      await page.goto(`/${project}/annotation`);
      await expect(page.getByRole('link', { name: 'Support answers that need a second look', exact: true })).toBeVisible();
      await page.screenshot({ path: info.outputPath(`queues-${size.name}.png`) });
      await expect.poll(() => fitsWidth(page)).toBe(true);
      await showsFixed(page, '11-queues-list');
    });
  });
}

test('a skip link takes the keyboard past the navigation', async ({ signedInPage: page, api, project }) => {
  await seedThread(api, project);
  await page.goto(`/${project}/threads`);
  await expect(page.getByRole('table', { name: 'Threads' }).getByRole('row')).toHaveCount(2);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});
