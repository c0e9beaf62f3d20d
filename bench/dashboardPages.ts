/**
 * First rows of the dashboard's other pages (bench:dashboard, or alone with
 * `BENCH_DASHBOARD=pages npm run bench:dashboard`): threads, evaluation runs, one run, two runs
 * compared, and an annotation queue's review page, on a project of 42,000 calls in 2,000
 * threads with 4 evaluation runs of 300 rows (each row a prediction, 3 scores and the finish,
 * logged through the v2 API) and a 300-call queue. Budget: 300 ms warm, 500 ms cold.
 *
 * BENCH_DATA_DIR keeps the seeded data directory (and reuses it on the next run); BENCH_BASELINE
 * names another checkout (with its dist/ built) whose server is measured on a copy of the same
 * data right before this one's, so before/after figures come from one sitting.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { createClient, type WeftClient } from '../src/client/index.js';
import { E2E_ADMIN } from '../e2e/fixtures/credentials.js';

const PROJECT = 'bench/pages';
const PATH = { entity: 'bench', project: 'pages' };
const CALLS = Number(process.env.BENCH_PAGE_CALLS ?? 42_000);
const THREADS = 2_000;
const RUNS = 4;
const ROWS = 300;

/** 3-call traces whose roots are turns of THREADS threads. */
async function seedCalls(client: WeftClient): Promise<string[]> {
  const roots: string[] = [];
  const t0 = Date.now() - CALLS * 1000;
  let batch: Parameters<WeftClient['callUpsertBatch']>[0]['batch'] = [];
  for (let n = 0; n < CALLS / 3; n++) {
    const root = `root-${n}`;
    roots.push(root);
    const thread = `thread-${n % THREADS}`;
    for (let k = 0; k < 3; k++) {
      const id = k === 0 ? root : `${root}-${k}`;
      const at = new Date(t0 + n * 3000 + k * 100).toISOString();
      const end = new Date(t0 + n * 3000 + k * 100 + 800).toISOString();
      const start = {
        project_id: PROJECT,
        id,
        trace_id: root,
        parent_id: k === 0 ? null : root,
        op_name: k === 0 ? 'agent.turn' : 'llm.chat',
        thread_id: thread,
        turn_id: root,
        started_at: at,
        attributes: {},
        inputs: { question: `Question ${n}`, step: k },
      };
      batch.push({ mode: 'start', req: { start } });
      batch.push({
        mode: 'end',
        req: {
          end: {
            project_id: PROJECT,
            id,
            ended_at: end,
            output: { answer: `Answer ${n}` },
            summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 40, completion_tokens: 20, total_tokens: 60, requests: 1 } } },
          },
        },
      });
    }
    if (batch.length >= 2000) {
      await client.callUpsertBatch({ batch });
      batch = [];
    }
  }
  if (batch.length) await client.callUpsertBatch({ batch });
  return roots;
}

/** RUNS runs of a ROWS-row evaluation, logged the way an SDK logs them (v2 API, 8 at a time). */
async function seedRuns(client: WeftClient): Promise<string[]> {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ question: `What is ${i} + ${i}?`, expected: String(2 * i) }));
  const ds = await client.datasetCreate({ ...PATH, name: 'sums', rows });
  const dataset = `weave:///${PROJECT}/object/sums:${ds.digest}`;
  const scorers: string[] = [];
  for (const name of ['exact', 'close', 'length'])
    scorers.push((await client.scorerCreate({ ...PATH, name, op_source_code: `def ${name}(output): ...` })).scorer);
  const evaluation = (await client.evaluationCreate({ ...PATH, name: 'sums-eval', dataset, scorers })).evaluation_ref;
  const runs: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    const model = (await client.modelCreate({ ...PATH, name: `model-${r}`, source_code: `def predict(q): return ${r}` })).model_ref;
    const run = (await client.evaluationRunCreate({ ...PATH, evaluation, model })).evaluation_run_id;
    runs.push(run);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < ROWS) {
          const i = next++;
          const output = String(i % (r + 2) === 0 ? 2 * i : i);
          const { prediction_id } = await client.predictionCreate({ ...PATH, model, inputs: rows[i]!, output, evaluation_run_id: run });
          for (const [k, scorer] of scorers.entries()) {
            const value = k === 0 ? output === rows[i]!.expected : k === 1 ? (i % 10) / 10 : output.length;
            await client.scoreCreate({ ...PATH, prediction_id, scorer, value, evaluation_run_id: run });
          }
          await client.predictionFinish({ ...PATH, prediction_id });
        }
      }),
    );
    await client.evaluationRunFinish({ ...PATH, evaluation_run_id: run });
  }
  return runs;
}

/** Navigation → `ready` visible, in ms. */
async function time(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await page.goto(url);
  await ready(page);
  return Date.now() - started;
}

const firstRow = (table: string) => (page: Page) =>
  page.locator(`[role=table][aria-label="${table}"] [role=row][aria-rowindex="2"]:not([aria-busy])`).first().waitFor({ timeout: 60_000 });

/** What the pages need to find: the seeded runs and the queue. */
export interface PagesSeed {
  runs: string[];
  queue: string;
}

/**
 * Seeds the project (calls in threads, evaluation runs, a queue). With `dataDir` the ids are kept
 * in it, so a later run on the same directory (BENCH_DATA_DIR) skips seeding.
 */
export async function seedPages(url: string, dataDir?: string): Promise<PagesSeed> {
  const saved = dataDir && join(dataDir, 'bench-pages-seed.json');
  if (saved && existsSync(saved)) return JSON.parse(readFileSync(saved, 'utf8')) as PagesSeed;
  const client = createClient({ baseUrl: url, auth: E2E_ADMIN });
  const t0 = Date.now();
  const roots = await seedCalls(client);
  const seededCalls = Date.now();
  const runs = await seedRuns(client);
  const seededRuns = Date.now();
  const queue = await client.annotationQueueCreate({ project_id: PROJECT, name: 'review me', scorer_refs: [] });
  await client.annotationQueueAddCalls({
    project_id: PROJECT,
    queue_id: queue.id,
    call_ids: roots.slice(0, ROWS),
    display_fields: ['inputs.question'],
  });
  console.log(
    `\nSeeded ${CALLS.toLocaleString()} calls in ${THREADS.toLocaleString()} threads (${((seededCalls - t0) / 1000).toFixed(1)} s), ` +
      `${RUNS} runs × ${ROWS} rows through the v2 API (${((seededRuns - seededCalls) / 1000).toFixed(1)} s), a ${ROWS}-call queue`,
  );
  const seed = { runs, queue: queue.id };
  if (saved) writeFileSync(saved, JSON.stringify(seed));
  return seed;
}

/** One page's first-rows medians, in ms. */
export interface PageTiming {
  name: string;
  cold: number[];
  warm: number[];
}

const WARM_BUDGET = 300;
const COLD_BUDGET = 500;
const TRIES = Number(process.env.BENCH_PAGE_TRIES ?? 5);

/** The middle value (the upper one of the two for an even count). */
export const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The pages measured, with what shows their first rows. */
export function pageList({ runs, queue }: PagesSeed): { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] {
  return [
    { name: 'calls (trace roots)', path: `/${PROJECT}/calls`, ready: firstRow('Calls') },
    { name: 'threads', path: `/${PROJECT}/threads`, ready: firstRow('Threads') },
    { name: 'evaluation runs', path: `/${PROJECT}/evaluations`, ready: firstRow('Evaluation runs') },
    { name: 'one run (300 rows)', path: `/${PROJECT}/evaluations/runs/${runs[0]}`, ready: firstRow('Results') },
    { name: 'compare 2 runs', path: `/${PROJECT}/evaluations/compare?runs=${runs[0]},${runs[1]}`, ready: firstRow('Compared results') },
    {
      name: 'review, first item',
      path: `/${PROJECT}/annotation/${queue}/review`,
      ready: (p: Page) =>
        p
          .getByText(/^1 of \d+/)
          .first()
          .waitFor({ timeout: 60_000 }),
    },
  ];
}

/**
 * Times each page's first rows, TRIES times cold (a fresh browser context: empty cache, new
 * session cookie) and as often warm (the same page again in that context, cache filled).
 */
export async function measurePages(
  browser: Browser,
  url: string,
  signedInPage: (browser: Browser, url: string) => Promise<Page>,
  seed: PagesSeed,
): Promise<PageTiming[]> {
  const pages = pageList(seed);
  // One request first, so the figures are the pages', not a just-started server's.
  await createClient({ baseUrl: url, auth: E2E_ADMIN }).callsQueryStats({ project_id: PROJECT });
  const timings: PageTiming[] = [];
  for (const view of pages) {
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const page = await signedInPage(browser, url);
      cold.push(await time(page, url + view.path, view.ready));
      warm.push(await time(page, `${url + view.path}${view.path.includes('?') ? '&' : '?'}r=${i}`, view.ready));
      await page.context().close();
    }
    timings.push({ name: view.name, cold, warm });
  }
  return timings;
}

/** Prints each page's medians beside the budgets; with `baseline`, that checkout's figures beside them. */
export function printPages(timings: PageTiming[], baseline?: PageTiming[]): void {
  console.log(
    `\nFirst rows after navigation, median of ${TRIES} (goal ≤ ${WARM_BUDGET} ms warm, ≤ ${COLD_BUDGET} ms cold; cold = fresh context, empty cache):`,
  );
  for (const t of timings) {
    const ok = (ms: number, budget: number) => `${String(ms).padStart(5)} ms ${ms <= budget ? '✓' : '✗'}`;
    const before = baseline?.find((b) => b.name === t.name);
    const was = before ? `   (baseline: warm ${middle(before.warm)} ms, cold ${middle(before.cold)} ms)` : '';
    console.log(
      `  ${t.name.padEnd(22)} warm ${ok(middle(t.warm), WARM_BUDGET)} (max ${Math.max(...t.warm)})` +
        `   cold ${ok(middle(t.cold), COLD_BUDGET)} (max ${Math.max(...t.cold)})${was}`,
    );
  }
}
