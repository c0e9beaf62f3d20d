/**
 * The trace page's first rows, painted before the app's code is in from the outline the page
 * carries or else the streamed one (docs/trace-outline.md "Painted before the app's code", "In
 * the page"): the app's entry script is held back here, so what shows meanwhile is the early
 * paint's alone.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { WeftClient } from '../src/client/index.js';
import { SCREENS, showsFixed } from './fixtures/screens.js';
import { toBatch } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

/** Holds the requests to `url` until the answer's `release()`. */
async function holdRequests(page: Page, url: string | RegExp): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** Holds the app's entry script: nothing of the app runs meanwhile. */
const holdAppCode = (page: Page) => holdRequests(page, /\/assets\/index-[^/]+\.js$/);

/** A trace of `calls`, started a minute ago, in `project`; answers its id. */
async function seedTrace(api: WeftClient, project: string, calls: Parameters<typeof toBatch>[0]['calls']): Promise<string> {
  const traceId = randomUUID();
  await api.callUpsertBatch({ batch: toBatch({ projectId: project, traceId, t0: Date.now() - 60_000, calls }) });
  return traceId;
}

const HOSTILE = '</span><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

test(
  'the first rows paint before the app, show the real spans, escape names, then give way',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const traceId = randomUUID();
    const id = (name: string) => `${traceId.slice(0, 8)}-${name}`;
    await api.callUpsertBatch({
      batch: toBatch({
        projectId: project,
        traceId,
        t0: Date.now() - 60_000,
        calls: [
          { id: id('run'), parentId: null, op: 'agent_run', startMs: 0, endMs: 2400, inputs: {}, output: 'done' },
          {
            id: id('llm'),
            parentId: id('run'),
            op: 'openai.chat.completions.create',
            startMs: 10,
            endMs: 900,
            inputs: {},
            output: {},
            usage: { model: 'gpt-4o', prompt: 12_000, completion: 345 },
          },
          {
            id: id('tool'),
            parentId: id('run'),
            op: 'search_web',
            displayName: HOSTILE,
            startMs: 950,
            endMs: 1200,
            inputs: {},
            output: {},
          },
          {
            id: id('fail'),
            parentId: id('run'),
            op: 'fetch_page',
            startMs: 1300,
            endMs: 2300,
            inputs: {},
            output: null,
            exception: 'Timeout',
          },
        ],
      }),
    });
    const app = await holdAppCode(page);
    // Not to its load event: that waits for the app's code.
    await page.goto(`/${project}/traces/${traceId}`, { waitUntil: 'commit' });

    const early = page.locator('#weft-early');
    const rows = early.locator('.tt-row');
    await expect(rows).toHaveCount(4);
    await expect(early.locator('h1')).toHaveText('agent_run');
    await expect(early.locator('.page-header')).toContainText('4 calls · 2.40 s');
    await expect(rows.nth(0)).toHaveClass(/selected/);
    await expect(rows.nth(1)).toContainText('openai.chat.completions.create');
    await expect(rows.nth(1)).toContainText('12.3K');
    await expect(rows.nth(1)).toContainText('890 ms');
    // A span name is text: shown as written, never markup.
    await expect(rows.nth(2).locator('.tt-label')).toHaveText(HOSTILE);
    await expect(rows.locator('img, script')).toHaveCount(0);
    await expect(rows.nth(3).locator('.status')).toHaveText('Error');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // The app has not run: the early paint is all there is.
    await expect(page.locator('#root')).toBeEmpty();
    // Inline, the early script may run before the page's stylesheet is in; nothing is painted
    // before it is, so the rows' text is read as painted (innerText follows the layout).
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((l) => l.sheet));
    const earlyTexts = await rows.allInnerTexts();
    // Readable in either theme, and no wider than a phone's screen.
    await showsFixed(page, '11-trace-early-rows');

    app.release();
    const tree = page.getByRole('tree', { name: 'Call tree' });
    await expect(tree.getByRole('treeitem')).toHaveCount(4);
    await expect(early).toHaveCount(0);
    // The app's rows read as the early ones did.
    expect(await tree.getByRole('treeitem').allInnerTexts()).toEqual(earlyTexts);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  },
);

test('a small trace comes whole in its page: painted before the app, and no outline asked for', async ({
  signedInPage: page,
  api,
  project,
}) => {
  const [root, step] = [randomUUID(), randomUUID()];
  const traceId = await seedTrace(api, project, [
    { id: root, parentId: null, op: 'plan_trip', startMs: 0, endMs: 500, inputs: {}, output: 'ok' },
    { id: step, parentId: root, op: 'book_hotel', startMs: 10, endMs: 400, inputs: {}, output: 'ok' },
  ]);
  const app = await holdAppCode(page);
  // Held for good: a page that asked for the outline would never show its tree.
  await holdRequests(page, '**/weft/trace/outline_stream');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/weft/trace/outline')) asked.push(r.url());
  });
  await page.goto(`/${project}/traces/${traceId}`, { waitUntil: 'commit' });
  const rows = page.locator('#weft-early .tt-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('book_hotel');
  app.release();
  await expect(page.getByRole('tree', { name: 'Call tree' }).getByRole('treeitem')).toHaveCount(2);
  await expect(page.locator('#weft-early')).toHaveCount(0);
  expect(asked).toEqual([]);
});

test('signed out, nothing of the trace paints and the sign-in page shows', async ({ page, api, project }) => {
  const traceId = await seedTrace(api, project, [
    { id: `secret-${randomUUID()}`, parentId: null, op: 'secret_step', startMs: 0, endMs: 10, inputs: {}, output: null },
  ]);
  const app = await holdAppCode(page);
  const outline = page.waitForResponse('**/weft/trace/outline_stream');
  await page.goto(`/${project}/traces/${traceId}`, { waitUntil: 'commit' });
  expect((await outline).status()).toBe(401);
  await page.waitForFunction(() => (window as { __weftEarlyOutline?: { painted?: unknown } }).__weftEarlyOutline?.painted !== undefined);
  expect(await page.evaluate(() => (window as { __weftEarlyOutline?: { painted?: Promise<boolean> } }).__weftEarlyOutline?.painted)).toBe(
    false,
  );
  await expect(page.locator('#weft-early')).toHaveCount(0);
  app.release();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('secret_step')).toHaveCount(0);
});
