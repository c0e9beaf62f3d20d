/**
 * A big agent trace through the real dashboard (`npm run bench:trace`); prints figures beside
 * their goals, asserts nothing (docs/performance.md "A trace of 10,000 spans").
 *
 * Seeds, through /call/upsert_batch of a real `weft serve` (SQLite):
 * - a trace of 10,000 spans (a root, 99 steps, 100 calls under each; every tenth an LLM call
 *   with usage, one in 97 raising) whose inputs and outputs hold ~200 MB in all;
 * - a trace whose one child carries a 20 MB input (a 10 MB string and 10,000 chunks of 1 KB).
 *
 * Then in Chromium (/usr/bin/chromium or CHROMIUM_PATH), BENCH_TRIES times (default 5), each in a
 * fresh browser context (cold: empty cache) and again in the same context (warm):
 * - first paint: navigation start → the first row of the call tree painted (goal ≤ 300 ms);
 * - interactive: navigation start → the end of the last main-thread task of 50 ms or more
 *   before the page stays quiet for a second, and never before first paint (goal ≤ 1 s); then
 *   ↓ is pressed and the time until the selection has moved and painted is printed;
 * - the 20 MB payload: click on its span → its Inputs' first rows painted (goal ≤ 500 ms), and
 *   the longest main-thread task meanwhile (the page must never freeze).
 *
 * Environment: BENCH_SPANS (10000), BENCH_PAYLOAD_MB (200), BENCH_BIG_MB (20), BENCH_TRIES (5),
 * BENCH_DATA_DIR (keep the seeded data there and reuse it on the next run).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createClient, type WeftClient } from '../src/client/index.js';
import { E2E_ADMIN } from '../e2e/fixtures/credentials.js';
import { buildDashboardIfStale, startWeft } from '../e2e/fixtures/weftServer.js';
import { median } from './lib.js';

const SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
const PAYLOAD_MB = Number(process.env.BENCH_PAYLOAD_MB ?? 200);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 20);
const TRIES = Number(process.env.BENCH_TRIES ?? 5);
const PROJECT = 'bench/trace';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const GOALS = { firstPaint: 300, interactive: 1000, bigPayload: 500 };

type Batch = Parameters<WeftClient['callUpsertBatch']>[0]['batch'];
interface Seeded {
  traceId: string;
  bigTraceId: string;
  bigCallId: string;
  payloadBytes: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const FILLER = 'The agent read the page, weighed the evidence and wrote down what it found. ';

/** Text of about `bytes` characters, different for each `seed`. */
const text = (seed: string, bytes: number) => `${seed}: ${FILLER.repeat(Math.ceil(bytes / FILLER.length))}`.slice(0, bytes);

function span(o: {
  id: string;
  traceId: string;
  parentId: string | null;
  op: string;
  start: number;
  end: number;
  inputs: Record<string, unknown>;
  output: unknown;
  usage?: Record<string, Record<string, number>>;
  exception?: string;
}): Batch {
  return [
    {
      mode: 'start',
      req: {
        start: {
          project_id: PROJECT,
          id: o.id,
          trace_id: o.traceId,
          parent_id: o.parentId,
          op_name: o.op,
          started_at: iso(o.start),
          attributes: {},
          inputs: o.inputs,
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: PROJECT,
          id: o.id,
          ended_at: iso(o.end),
          output: o.output,
          exception: o.exception ?? null,
          summary: o.usage ? { usage: o.usage } : {},
        },
      },
    },
  ];
}

/** Seeds both traces; ~10 MB per request. */
async function seed(url: string): Promise<Seeded> {
  const client = createClient({ baseUrl: url, auth: E2E_ADMIN });
  const t0 = Date.now() - 3_600_000;
  const traceId = `big-trace-${t0}`;
  const perSpan = Math.round((PAYLOAD_MB * 1e6) / SPANS);
  const steps = Math.max(1, Math.round(Math.sqrt(SPANS)) - 1);
  const perStep = Math.ceil((SPANS - 1 - steps) / steps);
  let batch: Batch = [];
  let payloadBytes = 0;
  let n = 0;
  const flush = async (force = false) => {
    if (batch.length && (force || batch.length >= 2 * Math.max(50, Math.floor(10e6 / perSpan)))) {
      await client.callUpsertBatch({ batch });
      batch = [];
    }
  };
  const add = async (o: Parameters<typeof span>[0]) => {
    payloadBytes += JSON.stringify(o.inputs).length + JSON.stringify(o.output).length;
    batch.push(...span(o));
    n++;
    await flush();
  };
  const rootId = `${traceId}-root`;
  const stepMs = 1000;
  await add({
    id: rootId,
    traceId,
    parentId: null,
    op: 'agent_run',
    start: t0,
    end: t0 + steps * stepMs + 50,
    inputs: { task: text('task', perSpan / 2) },
    output: text('answer', perSpan / 2),
  });
  for (let s = 0; s < steps && n < SPANS; s++) {
    const stepId = `${traceId}-s${s}`;
    const stepStart = t0 + s * stepMs + 10;
    // Step 42 runs long: the slowest path goes through it.
    const stepEnd = stepStart + (s === 42 ? 980 : 900 - (s % 13) * 20);
    await add({
      id: stepId,
      traceId,
      parentId: rootId,
      op: 'agent_step',
      start: stepStart,
      end: stepEnd,
      inputs: { step: s, plan: text(`plan ${s}`, perSpan / 2) },
      output: { thought: text(`thought ${s}`, perSpan / 2) },
    });
    for (let c = 0; c < perStep && n < SPANS; c++) {
      const id = `${stepId}-c${c}`;
      const start = stepStart + c * 8;
      const llm = c % 10 === 0;
      const failed = n % 97 === 0;
      await add({
        id,
        traceId,
        parentId: stepId,
        op: llm ? 'openai.chat.completions.create' : `tool_${c % 7}`,
        start,
        end: start + 5 + (c % 3),
        inputs: llm
          ? {
              model: 'gpt-4o',
              messages: [
                { role: 'system', content: 'You are a careful research agent.' },
                { role: 'user', content: text(`question ${s}.${c}`, perSpan * 0.7) },
              ],
            }
          : { query: `lookup ${s}.${c}`, context: text(`context ${s}.${c}`, perSpan * 0.7) },
        output: llm
          ? { choices: [{ message: { role: 'assistant', content: text(`reply ${s}.${c}`, perSpan * 0.3) } }] }
          : text(`result ${s}.${c}`, perSpan * 0.3),
        ...(llm ? { usage: { 'gpt-4o': { prompt_tokens: 800 + c, completion_tokens: 120, requests: 1 } } } : {}),
        ...(failed ? { exception: `ToolError: lookup ${s}.${c} timed out` } : {}),
      });
    }
  }
  await flush(true);

  // The 20 MB payload: half one long string, half 1 KB chunks.
  const bigTraceId = `big-payload-${t0}`;
  const bigCallId = `${bigTraceId}-parse`;
  const chunks = Math.round((BIG_MB * 1e6) / 2 / 1000);
  const inputs = {
    query: 'summarize the report',
    document: text('document', (BIG_MB * 1e6) / 2),
    chunks: Array.from({ length: chunks }, (_, i) => ({ id: i, text: text(`chunk ${i}`, 960) })),
  };
  await client.callUpsertBatch({
    batch: [
      ...span({
        id: `${bigTraceId}-root`,
        traceId: bigTraceId,
        parentId: null,
        op: 'ingest',
        start: t0,
        end: t0 + 3000,
        inputs: {},
        output: 'ok',
      }),
    ],
  });
  await client.callUpsertBatch({
    batch: span({
      id: bigCallId,
      traceId: bigTraceId,
      parentId: `${bigTraceId}-root`,
      op: 'parse_report',
      start: t0 + 10,
      end: t0 + 2900,
      inputs,
      output: { pages: chunks },
    }),
  });
  return { traceId, bigTraceId, bigCallId, payloadBytes };
}

/** Records, in the page, when the first tree row is painted and every long main-thread task. */
const PROBE = `(() => {
  window.__bench = { firstRow: null, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const seen = () => document.querySelector('[aria-label="Call tree"] [role=treeitem]');
  const obs = new MutationObserver(() => {
    if (window.__bench.firstRow !== null || !seen()) return;
    obs.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__bench.firstRow = performance.now(); }, 0));
  });
  obs.observe(document, { childList: true, subtree: true });
})();`;

interface Probe {
  firstRow: number | null;
  longTasks: [number, number][];
}

async function signedInContext(browser: Browser, url: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(PROBE);
  const res = await context.request.post(`${url}/weft/session`, { data: E2E_ADMIN });
  if (!res.ok()) throw new Error(`Signing in failed: ${res.status()} ${await res.text()}`);
  return context;
}

/** Waits until no long task has started for `quietMs`; answers the probe. */
async function settle(page: Page, quietMs = 1000): Promise<Probe> {
  for (;;) {
    const probe = (await page.evaluate('window.__bench')) as Probe;
    const last = probe.longTasks.reduce((end, [s, d]) => Math.max(end, s + d), probe.firstRow ?? 0);
    const now = (await page.evaluate('performance.now()')) as number;
    if (probe.firstRow !== null && now - last >= quietMs) return probe;
    await page.waitForTimeout(200);
  }
}

/** One opening of the big trace: first paint, interactive, and ↓'s answer, in ms. */
async function openTrace(page: Page, url: string): Promise<{ firstPaint: number; interactive: number; key: number }> {
  await page.goto(url);
  await page.locator('[aria-label="Call tree"] [role=treeitem]').first().waitFor();
  const probe = await settle(page);
  const firstPaint = probe.firstRow!;
  const interactive = probe.longTasks.reduce((end, [s, d]) => (s + d > end ? s + d : end), firstPaint);
  // ↓ with nothing focused moves the selection (the tree listens on the page).
  const key = (await page.evaluate(`new Promise((resolve) => {
    const tree = document.querySelector('[aria-label="Call tree"]');
    const before = tree.querySelector('[aria-selected=true]')?.id;
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      const now = tree.querySelector('[aria-selected=true]')?.id;
      if (now && now !== before) { obs.disconnect(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)); }
    });
    obs.observe(tree, { subtree: true, attributes: true, attributeFilter: ['aria-selected'] });
    document.activeElement?.blur?.();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
  })`)) as number;
  return { firstPaint, interactive, key };
}

/** Click on the 20 MB span → its Inputs' first rows painted; and the longest task meanwhile. */
async function openBigPayload(page: Page, url: string, callId: string): Promise<{ firstScreen: number; longestTask: number }> {
  await page.goto(url);
  const row = page.locator(`#tt-${callId}`);
  await row.waitFor();
  await settle(page, 500);
  const started = (await page.evaluate(`(() => {
    window.__bench.longTasks = [];
    window.__bench.inputs = null;
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      const inputs = document.querySelector('[aria-label="Call details"] [role=tree][aria-label=Inputs] [role=treeitem]');
      if (!inputs) return;
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => { window.__bench.inputs = performance.now(); }, 0));
    });
    obs.observe(document, { childList: true, subtree: true });
    document.getElementById(${JSON.stringify(`tt-${callId}`)}).click();
    return t0;
  })()`)) as number;
  await page.locator('[aria-label="Call details"] [role=tree][aria-label=Inputs] [role=treeitem]').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction('window.__bench.inputs !== null');
  const done = (await page.evaluate('window.__bench.inputs')) as number;
  const probe = await settle(page, 500);
  const longestTask = probe.longTasks.reduce((m, [, d]) => Math.max(m, d), 0);
  return { firstScreen: done - started, longestTask };
}

const verdict = (value: number, goal: number) => `${Math.round(value)} ms (goal ≤ ${goal} ms: ${value <= goal ? 'met' : 'missed'})`;

async function main(): Promise<void> {
  await buildDashboardIfStale();
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'weft-bench-trace-'));
  mkdirSync(dataDir, { recursive: true });
  const seedFile = join(dataDir, 'bench-trace-seed.json');
  const server = await startWeft({ dataDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    let seeded: Seeded;
    if (existsSync(seedFile)) {
      seeded = JSON.parse(readFileSync(seedFile, 'utf8')) as Seeded;
      console.log(`Reusing the seeded traces in ${dataDir}`);
    } else {
      const t = Date.now();
      seeded = await seed(server.url);
      writeFileSync(seedFile, JSON.stringify(seeded));
      console.log(
        `Seeded ${SPANS.toLocaleString()} spans (${(seeded.payloadBytes / 1e6).toFixed(0)} MB of payloads) and a ${BIG_MB} MB payload in ${((Date.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    const client = createClient({ baseUrl: server.url, auth: E2E_ADMIN });
    const outlineMs: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const t = performance.now();
      const res = await client.traceOutline({ project_id: PROJECT, trace_id: seeded.traceId });
      outlineMs.push(performance.now() - t);
      if (res.spans.length !== SPANS) throw new Error(`The outline answered ${res.spans.length} spans, not ${SPANS}`);
    }
    console.log(`\n/weft/trace/outline of ${SPANS.toLocaleString()} spans: median ${Math.round(median(outlineMs))} ms over HTTP`);

    const traceUrl = `${server.url}/${PROJECT}/traces/${encodeURIComponent(seeded.traceId)}`;
    const cold: Awaited<ReturnType<typeof openTrace>>[] = [];
    const warm: Awaited<ReturnType<typeof openTrace>>[] = [];
    const big: Awaited<ReturnType<typeof openBigPayload>>[] = [];
    for (let i = 0; i < TRIES; i++) {
      const context = await signedInContext(browser, server.url);
      const page = await context.newPage();
      cold.push(await openTrace(page, traceUrl));
      warm.push(await openTrace(page, `${traceUrl}?r=${i}`));
      big.push(
        await openBigPayload(page, `${server.url}/${PROJECT}/traces/${encodeURIComponent(seeded.bigTraceId)}?r=${i}`, seeded.bigCallId),
      );
      await context.close();
    }
    const med = <T>(xs: T[], pick: (x: T) => number) => median(xs.map(pick));
    const max = <T>(xs: T[], pick: (x: T) => number) => Math.round(Math.max(...xs.map(pick)));
    console.log(
      `\nThe ${SPANS.toLocaleString()}-span trace page, median of ${TRIES} (cold: empty browser cache; warm: the same tab again):`,
    );
    for (const [name, runs] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      console.log(
        `  ${name}  first paint     ${verdict(
          med(runs, (r) => r.firstPaint),
          GOALS.firstPaint,
        )}, max ${max(runs, (r) => r.firstPaint)} ms`,
      );
      console.log(
        `        interactive     ${verdict(
          med(runs, (r) => r.interactive),
          GOALS.interactive,
        )}, max ${max(runs, (r) => r.interactive)} ms`,
      );
      console.log(`        ↓ answered in   ${Math.round(med(runs, (r) => r.key))} ms`);
    }
    console.log(`\nThe ${BIG_MB} MB payload, click on its span → first screen of its inputs, median of ${TRIES}:`);
    console.log(
      `  first screen    ${verdict(
        med(big, (r) => r.firstScreen),
        GOALS.bigPayload,
      )}, max ${max(big, (r) => r.firstScreen)} ms`,
    );
    console.log(`  longest task    ${Math.round(med(big, (r) => r.longestTask))} ms (max ${max(big, (r) => r.longestTask)} ms)`);
  } finally {
    await browser.close();
    await server.stop();
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
