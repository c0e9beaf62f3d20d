/**
 * A big agent trace through the real dashboard (`npm run bench:trace`); prints figures beside
 * their goals, asserts nothing (docs/performance.md "A trace of 10,000 spans").
 *
 * Seeds, through /call/upsert_batch of a real `weft serve` (SQLite):
 * - a trace of 10,000 spans (a root, 99 steps, 100 calls under each; every tenth an LLM call
 *   with usage, one in 97 raising) whose inputs and outputs hold ~200 MB in all;
 * - a trace whose one child carries a 20 MB input (a 10 MB string and 10,000 chunks of 1 KB).
 *
 * First the outline over HTTP: `/weft/trace/outline` whole, and `/weft/trace/outline_stream`'s
 * first screen (the head and 100 spans) and whole. Then in Chromium (/usr/bin/chromium or
 * CHROMIUM_PATH), BENCH_TRIES times (default 5), each in a fresh browser context (cold: empty
 * cache) and again in the same context (warm):
 * - first paint: navigation start → the first row of a real span painted (goal ≤ 300 ms): the
 *   rows drawn before the app's code is in (#weft-early, docs/trace-outline.md "Painted before
 *   the app's code") or the app's tree, whichever comes first; then the app's own tree row, and
 *   where the time went: the outline request's start, its first byte and its last byte, when the
 *   page's code was in (the last script to arrive before the app's tree painted) and when the
 *   session check answered;
 * - interactive: navigation start → the end of the last main-thread task of 50 ms or more
 *   before the page stays quiet for a second, and never before the app's tree painted (goal ≤ 1 s); then
 *   ↓ is pressed and the time until the selection has moved and painted is printed;
 * - the 20 MB payload: click on its span → its Inputs' first rows painted (goal ≤ 500 ms), and
 *   the longest main-thread task meanwhile (the page must never freeze).
 *
 * Environment: BENCH_SPANS (10000), BENCH_PAYLOAD_MB (200), BENCH_BIG_MB (20), BENCH_TRIES (5),
 * BENCH_DATA_DIR (keep the seeded data there and reuse it on the next run), BENCH_BASELINE
 * (another checkout, its dashboard built: measured in the same run on a copy of the same data,
 * its tries taking turns with this checkout's, and the ratios printed).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createClient, type WeftClient } from '../src/client/index.js';
import { readJsonLines } from '../src/client/readJsonLines.js';
import { E2E_ADMIN } from '../e2e/fixtures/credentials.js';
import { buildDashboardIfStale, startWeft, type WeftProcess } from '../e2e/fixtures/weftServer.js';
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

/**
 * Records, in the page, when the first row of a span is painted (the early paint's, drawn before
 * the app's code is in, or the app's tree's: docs/trace-outline.md "Painted before the app's
 * code"), when the app's own tree row is, and every long main-thread task.
 */
const PROBE = `(() => {
  window.__bench = { firstRow: null, appRow: null, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const app = () => document.querySelector('[aria-label="Call tree"] [role=treeitem]');
  const early = () => document.querySelector('#weft-early .tt-row');
  const asked = {};
  // The next frame has painted once a task queued from its requestAnimationFrame runs.
  const stamp = (key) => {
    if (asked[key]) return;
    asked[key] = true;
    requestAnimationFrame(() => setTimeout(() => { window.__bench[key] = performance.now(); }, 0));
  };
  const obs = new MutationObserver(() => {
    if (early() || app()) stamp('firstRow');
    if (app()) { stamp('appRow'); obs.disconnect(); }
  });
  obs.observe(document, { childList: true, subtree: true });
})();`;

interface Probe {
  firstRow: number | null;
  appRow: number | null;
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
    const last = probe.longTasks.reduce((end, [s, d]) => Math.max(end, s + d), probe.appRow ?? 0);
    const now = (await page.evaluate('performance.now()')) as number;
    if (probe.firstRow !== null && probe.appRow !== null && now - last >= quietMs) return probe;
    await page.waitForTimeout(200);
  }
}

/** One opening of the big trace, in ms from navigation start. */
interface TraceOpening {
  /** The first span row painted: the early paint's, or the app's where there is none. */
  firstPaint: number;
  /** The app's own tree row painted. */
  appPaint: number;
  interactive: number;
  /** ↓ pressed → the selection moved and painted. */
  key: number;
  /** The outline request (either endpoint): sent, first byte, last byte. */
  request: number;
  firstByte: number;
  lastByte: number;
  /** The last script that arrived before the app's tree painted (the code the page needed), its last byte. */
  code: number;
  /** The session check (/weft/whoami) answered: every page waits for it. */
  session: number;
}

/** One opening of the big trace. */
async function openTrace(page: Page, url: string): Promise<TraceOpening> {
  await page.goto(url);
  await page.locator('[aria-label="Call tree"] [role=treeitem]').first().waitFor();
  const probe = await settle(page);
  const firstPaint = probe.firstRow!;
  const appPaint = probe.appRow!;
  // Nothing works before the app's tree is in: the early rows are a picture.
  const interactive = probe.longTasks.reduce((end, [s, d]) => (s + d > end ? s + d : end), appPaint);
  const timing = (await page.evaluate(`(() => {
    const all = performance.getEntriesByType('resource');
    const e = all.find((r) => r.name.includes('/weft/trace/outline'));
    const code = Math.max(0, ...all.filter((r) => /\\.js$/.test(r.name) && r.responseEnd <= ${appPaint}).map((r) => r.responseEnd));
    const who = all.find((r) => r.name.endsWith('/weft/whoami'));
    return [...(e ? [e.requestStart || e.startTime, e.responseStart, e.responseEnd] : [NaN, NaN, NaN]), code, who ? who.responseEnd : NaN];
  })()`)) as [number, number, number, number, number];
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
  return {
    firstPaint,
    appPaint,
    interactive,
    key,
    request: timing[0],
    firstByte: timing[1],
    lastByte: timing[2],
    code: timing[3],
    session: timing[4],
  };
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
const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const ratio = (now: number, before: number | undefined) => (before ? `, ${(now / before).toFixed(2)}× the baseline's ${ms(before)}` : '');

/** One server measured: this checkout or the baseline, on its own copy of the data. */
interface Variant {
  label: string;
  server: WeftProcess;
  http: { whole: number[]; streamFirst: number[]; streamWhole: number[] };
  cold: TraceOpening[];
  warm: TraceOpening[];
  big: Awaited<ReturnType<typeof openBigPayload>>[];
}

/** Time to the streamed outline's first screen (head and 100 spans) and to its end; null without the endpoint. */
async function streamTimes(url: string, traceId: string): Promise<{ first: number; whole: number } | null> {
  const t = performance.now();
  const res = await fetch(`${url}/weft/trace/outline_stream`, {
    method: 'POST',
    headers: { authorization: basicAuth(), 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: PROJECT, trace_id: traceId }),
  });
  if (res.status === 404) return null;
  if (!res.ok || !res.body) throw new Error(`outline_stream: ${res.status} ${await res.text()}`);
  let lines = 0;
  let first = 0;
  for await (const line of readJsonLines(res.body)) {
    void line;
    if (++lines === 101) first = performance.now() - t;
  }
  if (lines !== SPANS + 1) throw new Error(`The streamed outline answered ${lines - 1} spans, not ${SPANS}`);
  return { first, whole: performance.now() - t };
}

const basicAuth = () => `Basic ${Buffer.from(`${E2E_ADMIN.username}:${E2E_ADMIN.password}`).toString('base64')}`;

function printVariant(v: Variant, base: Variant | undefined): void {
  const med = <T>(xs: T[], pick: (x: T) => number) => median(xs.map(pick));
  const max = <T>(xs: T[], pick: (x: T) => number) => Math.round(Math.max(...xs.map(pick)));
  console.log(`\n${v.label}`);
  console.log(
    `  /weft/trace/outline, ${SPANS.toLocaleString()} spans over HTTP: ${ms(median(v.http.whole))}${ratio(median(v.http.whole), base && median(base.http.whole))}`,
  );
  if (v.http.streamFirst.length) {
    console.log(
      `  /weft/trace/outline_stream: first screen (head + 100 spans) ${ms(median(v.http.streamFirst))}, whole ${ms(median(v.http.streamWhole))}`,
    );
  }
  console.log(`  the trace page, median of ${TRIES} (cold: empty browser cache; warm: the same tab again):`);
  for (const name of ['cold', 'warm'] as const) {
    const runs = v[name];
    const before = base?.[name];
    const fp = med(runs, (r) => r.firstPaint);
    const ia = med(runs, (r) => r.interactive);
    console.log(
      `  ${name}  first paint     ${verdict(fp, GOALS.firstPaint)}, max ${max(runs, (r) => r.firstPaint)} ms${ratio(fp, before && med(before, (r) => r.firstPaint))}`,
    );
    const ahead = runs.filter((r) => r.appPaint - r.firstPaint >= 1).map((r) => r.appPaint - r.firstPaint);
    console.log(
      `        the early rows painted before the app's tree in ${ahead.length} of ${runs.length} tries${
        ahead.length ? ` (by ${ahead.map((d) => Math.round(d)).join(', ')} ms)` : ''
      }`,
    );
    console.log(
      `        the app's tree painted ${ms(med(runs, (r) => r.appPaint))}${ratio(
        med(runs, (r) => r.appPaint),
        before && med(before, (r) => r.appPaint),
      )}`,
    );
    console.log(
      `        interactive     ${verdict(ia, GOALS.interactive)}, max ${max(runs, (r) => r.interactive)} ms${ratio(ia, before && med(before, (r) => r.interactive))}`,
    );
    console.log(
      `        outline request sent ${ms(med(runs, (r) => r.request))}, first byte ${ms(med(runs, (r) => r.firstByte))}, last byte ${ms(med(runs, (r) => r.lastByte))}`,
    );
    console.log(
      `        the page's code in ${ms(med(runs, (r) => r.code))}${ratio(
        med(runs, (r) => r.code),
        before && med(before, (r) => r.code),
      )}; the session check answered ${ms(med(runs, (r) => r.session))}${ratio(
        med(runs, (r) => r.session),
        before && med(before, (r) => r.session),
      )}`,
    );
    console.log(`        ↓ answered in   ${Math.round(med(runs, (r) => r.key))} ms`);
  }
  console.log(`  the ${BIG_MB} MB payload, click on its span → first screen of its inputs, median of ${TRIES}:`);
  console.log(
    `  first screen    ${verdict(
      med(v.big, (r) => r.firstScreen),
      GOALS.bigPayload,
    )}, max ${max(v.big, (r) => r.firstScreen)} ms`,
  );
  console.log(`  longest task    ${Math.round(med(v.big, (r) => r.longestTask))} ms (max ${max(v.big, (r) => r.longestTask)} ms)`);
}

async function main(): Promise<void> {
  await buildDashboardIfStale();
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'weft-bench-trace-'));
  mkdirSync(dataDir, { recursive: true });
  const seedFile = join(dataDir, 'bench-trace-seed.json');
  const baselineRoot = process.env.BENCH_BASELINE;
  const baselineDir = `${dataDir}-baseline`;
  const variants: Variant[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const variant = (label: string, server: WeftProcess): Variant => ({
    label,
    server,
    http: { whole: [], streamFirst: [], streamWhole: [] },
    cold: [],
    warm: [],
    big: [],
  });
  try {
    const current = await startWeft({ dataDir });
    variants.push(variant('This checkout', current));
    let seeded: Seeded;
    if (existsSync(seedFile)) {
      seeded = JSON.parse(readFileSync(seedFile, 'utf8')) as Seeded;
      console.log(`Reusing the seeded traces in ${dataDir}`);
    } else {
      const t = Date.now();
      seeded = await seed(current.url);
      writeFileSync(seedFile, JSON.stringify(seeded));
      console.log(
        `Seeded ${SPANS.toLocaleString()} spans (${(seeded.payloadBytes / 1e6).toFixed(0)} MB of payloads) and a ${BIG_MB} MB payload in ${((Date.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    if (baselineRoot) {
      // Its own copy: a server may migrate its file, and the two must not share one.
      rmSync(baselineDir, { recursive: true, force: true });
      cpSync(dataDir, baselineDir, { recursive: true });
      variants.unshift(variant(`Baseline (${baselineRoot})`, await startWeft({ dataDir: baselineDir, root: baselineRoot })));
    }

    // Every measurement takes turns between the servers (in turn first), so a change in the
    // machine's load falls on both.
    const turn = (i: number) => (i % 2 ? [...variants].reverse() : variants);
    for (let i = 0; i < TRIES; i++) {
      for (const v of turn(i)) {
        const client = createClient({ baseUrl: v.server.url, auth: E2E_ADMIN });
        const t = performance.now();
        const res = await client.traceOutline({ project_id: PROJECT, trace_id: seeded.traceId });
        v.http.whole.push(performance.now() - t);
        if (res.spans.length !== SPANS) throw new Error(`The outline answered ${res.spans.length} spans, not ${SPANS}`);
        const stream = await streamTimes(v.server.url, seeded.traceId);
        if (stream) {
          v.http.streamFirst.push(stream.first);
          v.http.streamWhole.push(stream.whole);
        }
      }
    }
    for (let i = 0; i < TRIES; i++) {
      for (const v of turn(i)) {
        const traceUrl = `${v.server.url}/${PROJECT}/traces/${encodeURIComponent(seeded.traceId)}`;
        const context = await signedInContext(browser, v.server.url);
        const page = await context.newPage();
        v.cold.push(await openTrace(page, traceUrl));
        v.warm.push(await openTrace(page, `${traceUrl}?r=${i}`));
        v.big.push(
          await openBigPayload(page, `${v.server.url}/${PROJECT}/traces/${encodeURIComponent(seeded.bigTraceId)}?r=${i}`, seeded.bigCallId),
        );
        await context.close();
      }
    }
    const base = baselineRoot ? variants[0] : undefined;
    for (const v of variants) printVariant(v, v === base ? undefined : base);
  } finally {
    await browser.close();
    for (const v of variants) await v.server.stop();
    if (baselineRoot) rmSync(baselineDir, { recursive: true, force: true });
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
