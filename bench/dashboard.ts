/**
 * Dashboard budgets, measured (`npm run bench:dashboard`); prints figures, asserts nothing.
 *
 * 1. Initial JavaScript (initialJs.ts, alone: `npm run size`): the entry and every chunk it
 *    imports statically, gzipped with zlib. Goal: ≤ 100 KB (the client needs no zod:
 *    src/client/routeTable.ts; no data router: src/web/app/routing.tsx).
 * 2. First rows: a real `weft serve` with a 100,000-call project (seeded through
 *    /call/upsert_batch); time from navigation to the calls table's first real row in Chromium,
 *    cold (empty browser cache) and warm. Budget: 1 s.
 * 3. Scrolling: load 10,000 rows into the table, then scroll through them with one scroll step
 *    per animation frame and record frame times with requestAnimationFrame. Chromium runs with
 *    vsync off, so a frame takes as long as its work, not a fixed 16.7 ms. Budget: 16 ms. The
 *    same rows as static HTML without JavaScript, scrolled the same way, give this machine's
 *    limit (software rendering: no GPU), printed beside it.
 *
 * 4. Every page's first rows at a 42k-call / 2k-thread / 4×300-row project (dashboardPages.ts):
 *    calls, threads, runs, a run, a comparison, a review; goal ≤ 300 ms warm, ≤ 500 ms cold.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_CALLS (default 100000),
 * BENCH_DASHBOARD=pages (only parts 1 and 4), BENCH_DASHBOARD=profile (where part 4's time goes:
 * dashboardProfile.ts), BENCH_PAGE_CALLS (default 42000), BENCH_PAGE_TRIES
 * (default 5), BENCH_DATA_DIR (keep and reuse the seeded part-4 project), BENCH_BASELINE (another
 * checkout, dist/ built, measured in the same run for before/after figures).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createClient } from '../src/client/index.js';
import { PROJECT_ROOT } from '../src/server/process/dashboardBuild.js';
import { E2E_ADMIN } from '../e2e/fixtures/credentials.js';
import { agentTrace } from '../e2e/fixtures/seed.js';
import { buildDashboardIfStale, startWeft } from '../e2e/fixtures/weftServer.js';
import { measureInitialJs, printInitialJs } from './initialJs.js';
import { profilePages } from './dashboardProfile.js';
import { measurePages, printPages, seedPages, type PageTiming } from './dashboardPages.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const PROJECT = 'bench/dashboard';
const ROW_HEIGHT = 32;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;

/** Seeds CALLS calls as 4-call agent traces, 1,000 calls per upsert_batch request. */
async function seed(url: string): Promise<number> {
  const client = createClient({ baseUrl: url, auth: E2E_ADMIN });
  const traces = Math.ceil(CALLS / 4);
  const started = Date.now();
  let batch: Parameters<typeof client.callUpsertBatch>[0]['batch'] = [];
  for (let n = 0; n < traces; n++) {
    batch.push(...agentTrace({ projectId: PROJECT, t0: started - (traces - n) * 1000, n, question: `Question number ${n}` }).items);
    if (batch.length >= 2000 || n === traces - 1) {
      await client.callUpsertBatch({ batch });
      batch = [];
    }
  }
  return Date.now() - started;
}

async function signedInPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // A real session, as the e2e fixtures sign in: page.request shares the context's cookie jar.
  const res = await page.request.post(`${url}/weft/session`, { data: E2E_ADMIN });
  if (!res.ok()) throw new Error(`Signing in failed: ${res.status()} ${await res.text()}`);
  return page;
}

/** Navigation → first non-placeholder row of the calls table, in ms. */
async function timeFirstRows(page: Page, url: string): Promise<number> {
  const started = Date.now();
  await page.goto(url);
  await page.locator('[role=table][aria-label=Calls] [role=row][aria-rowindex="2"]:not([aria-busy])').waitFor();
  return Date.now() - started;
}

/** Scrolls until `rows` rows have been loaded (the table fetches pages as they come into view). */
async function loadRows(page: Page, rows: number): Promise<void> {
  const table = page.locator('[role=table][aria-label=Calls]');
  for (let top = 0; top <= rows * ROW_HEIGHT; top += (600 * ROW_HEIGHT) / 10) {
    await table.evaluate((el, t) => (el.scrollTop = t), top);
    await page.waitForFunction(() => !document.querySelector('[role=table][aria-label=Calls] [aria-busy]'), undefined, { timeout: 30_000 });
  }
  await table.evaluate((el) => (el.scrollTop = 0));
}

/**
 * The physical limit on this machine: the same rows (the app's own markup and CSS, cloned from
 * the live table) as a short static list with no JavaScript, scrolled the same way for as many
 * frames. What the dashboard adds on top is its own cost.
 */
async function addStaticTwin(page: Page, rows: number): Promise<void> {
  await page.evaluate(`(() => {
    const live = document.querySelector('[role=table][aria-label=Calls]');
    const sample = [...live.querySelectorAll('.dt-body [role=row]:not([aria-busy])')];
    const twin = live.cloneNode(false);
    twin.setAttribute('aria-label', 'Static');
    const body = document.createElement('div');
    for (let i = 0; i < ${rows}; i++) {
      const row = sample[i % sample.length].cloneNode(true);
      row.style.position = 'relative';
      row.style.transform = 'none';
      body.appendChild(row);
    }
    twin.appendChild(body);
    live.style.display = 'none';
    live.after(twin);
  })()`);
}

/**
 * Scrolls through `rows` loaded rows, `step` px per frame; returns each frame's duration in ms.
 * The page script is a string: tsx's name helpers must not leak into the browser.
 */
async function scrollFrames(
  page: Page,
  { label, rows, step, frames = 0 }: { label: string; rows: number; step: number; frames?: number },
): Promise<number[]> {
  // With `frames`, scrolling wraps to the top until that many frames were drawn.
  return page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector('[role=table][aria-label=${label}]');
    el.scrollTop = 0;
    const end = Math.min(${rows * ROW_HEIGHT}, el.scrollHeight) - el.clientHeight;
    const frames = [];
    let last = performance.now();
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      const done = ${frames} ? frames.length >= ${frames} + 2 : el.scrollTop >= end;
      if (done) return resolve(frames.slice(2));
      el.scrollTop = el.scrollTop >= end ? 0 : Math.min(end, el.scrollTop + ${step});
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`) as Promise<number[]>;
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

async function main(): Promise<void> {
  await buildDashboardIfStale();
  printInitialJs(measureInitialJs(join(PROJECT_ROOT, 'dist')));

  if (process.env.BENCH_DASHBOARD === 'profile') return pagesProfile();
  if (process.env.BENCH_DASHBOARD !== 'pages') await callsBench();
  await pagesBench();
}

/** `fn` against a `weft serve` started with `options`, stopped after. */
async function withWeft<T>(options: Parameters<typeof startWeft>[0], fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startWeft(options);
  try {
    return await fn(server.url);
  } finally {
    await server.stop();
  }
}

/** The other pages at the 42k-call project (dashboardPages.ts), optionally beside a baseline checkout. */
async function pagesBench(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'weft-bench-pages-'));
  mkdirSync(dataDir, { recursive: true });
  const baselineRoot = process.env.BENCH_BASELINE;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    // Seeded by the baseline's server when there is one (its schema may be the older); each
    // server then runs on its own copy, which it may migrate forward, and the seed stays as it was.
    const seed = existsSync(join(dataDir, 'bench-pages-seed.json'))
      ? await seedPages('', dataDir)
      : await withWeft({ dataDir, root: baselineRoot }, (url) => seedPages(url, dataDir));
    const measureOnCopy = async (root?: string) => {
      const copy = `${dataDir}-${root ? 'baseline' : 'current'}`;
      rmSync(copy, { recursive: true, force: true });
      cpSync(dataDir, copy, { recursive: true });
      try {
        return await withWeft({ dataDir: copy, root }, (url) => measurePages(browser, url, signedInPage, seed));
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    };
    let baseline: PageTiming[] | undefined;
    if (baselineRoot) {
      baseline = await measureOnCopy(baselineRoot);
      console.log(`\nBaseline (${baselineRoot}):`);
      printPages(baseline);
      console.log('\nThis checkout:');
    }
    printPages(await measureOnCopy(), baseline);
  } finally {
    await browser.close();
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where part 4's time goes (dashboardProfile.ts), on a copy of the seeded project; BENCH_BASELINE's first. */
async function pagesProfile(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'weft-bench-pages-'));
  mkdirSync(dataDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const copy = `${dataDir}-profile`;
  try {
    const seed = existsSync(join(dataDir, 'bench-pages-seed.json'))
      ? await seedPages('', dataDir)
      : await withWeft({ dataDir }, (url) => seedPages(url, dataDir));
    // With BENCH_BASELINE, that checkout first, on its own copy of the same data.
    const baseline = process.env.BENCH_BASELINE;
    for (const root of baseline ? [baseline, undefined] : [undefined]) {
      if (baseline) console.log(root ? `\nBaseline (${root}):` : '\nThis checkout:');
      rmSync(copy, { recursive: true, force: true });
      cpSync(dataDir, copy, { recursive: true });
      await withWeft({ dataDir: copy, root }, (url) => profilePages(browser, url, signedInPage, seed));
    }
  } finally {
    await browser.close();
    rmSync(copy, { recursive: true, force: true });
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Parts 2 and 3: the calls table at 100k calls, first rows and scrolling. */
async function callsBench(): Promise<void> {
  const server = await startWeft();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // vsync off: rAF then fires as soon as a frame is done, so frame times show the real work.
  const unthrottled = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
  });
  try {
    const seedMs = await seed(server.url);
    console.log(
      `\nSeeded ${CALLS.toLocaleString()} calls in ${(seedMs / 1000).toFixed(1)} s (${Math.round(CALLS / (seedMs / 1000)).toLocaleString()} calls/s)`,
    );

    const views = [
      { name: 'all calls (roots=0)', path: `/${PROJECT}/calls?roots=0` },
      { name: 'trace roots (default)', path: `/${PROJECT}/calls` },
    ];
    // One query first, so the numbers below are the dashboard's, not a just-started server's.
    await createClient({ baseUrl: server.url, auth: E2E_ADMIN }).callsQueryStats({ project_id: PROJECT });
    console.log('\nFirst rows after navigation (budget 1,000 ms; cold = empty browser cache):');
    for (const view of views) {
      const cold: number[] = [];
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) {
        const page = await signedInPage(browser, server.url);
        cold.push(await timeFirstRows(page, server.url + view.path));
        warm.push(await timeFirstRows(page, `${server.url + view.path}${view.path.includes('?') ? '&' : '?'}r=${i}`));
        await page.context().close();
      }
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
      console.log(
        `  ${view.name.padEnd(24)} cold median ${med(cold)} ms (max ${Math.max(...cold)}), warm median ${med(warm)} ms (max ${Math.max(...warm)})`,
      );
    }

    const rows = 10_000;
    const page = await signedInPage(unthrottled, server.url);
    await timeFirstRows(page, `${server.url}/${PROJECT}/calls?roots=0`);
    const loadStarted = Date.now();
    await loadRows(page, rows);
    console.log(`\nLoaded ${rows.toLocaleString()} rows (${rows / 100} pages) in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);
    console.log('Scrolling through them, one step per frame (budget 16 ms a frame):');
    const describe = (frames: number[]) => {
      const sorted = [...frames].sort((a, b) => a - b);
      const over = sorted.filter((f) => f > 16).length;
      return (
        `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, ` +
        `p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms, ${((over / sorted.length) * 100).toFixed(1)}% over 16 ms`
      );
    };
    const steps = [3, 12];
    const results = [];
    for (const rowsPerFrame of steps) results.push(await scrollFrames(page, { label: 'Calls', rows, step: rowsPerFrame * ROW_HEIGHT }));
    await addStaticTwin(page, 400);
    for (const [i, rowsPerFrame] of steps.entries()) {
      const baseline = await scrollFrames(page, {
        label: 'Static',
        rows: 400,
        step: rowsPerFrame * ROW_HEIGHT,
        frames: results[i]!.length,
      });
      const app = results[i]!;
      console.log(`  ${String(rowsPerFrame).padStart(2)} rows/frame  dashboard (${app.length} frames): ${describe(app)}`);
      console.log(`                static HTML, no JS (limit, ${baseline.length} frames): ${describe(baseline)}`);
      const med = (xs: number[]) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          0.5,
        );
      console.log(`                median ratio dashboard/limit: ${(med(app) / med(baseline)).toFixed(2)}`);
    }
    await page.context().close();
  } finally {
    await unthrottled.close();
    await browser.close();
    await server.stop();
  }
}

await main();
