/**
 * Call statistics benchmark: a project of 1,000,000 calls over 30 days (traces of an agent
 * root with tool and LLM children, 8 ops, 3 models, ~6 % errors), then `/calls/stats` over
 * HTTP for the dashboard's questions — count, error count and latency p50/p95/p99 per bucket,
 * tokens and cost by model — timed next to a plain better-sqlite3 scan of the same rows into
 * JS (what any exact answer has to pay) and the exact path of the same request.
 *
 *   npm run bench:stats [-- --calls 1000000 --days 30]
 *
 * Goal (issue "Call statistics"): the dashboard's request over 30 days of 1,000,000 calls
 * within 500 ms. The 5-minute case (8,640 buckets, ~6 MB of JSON) is shown for scale.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CallStatsReq } from '../src/contract/stats.js';
import { callStats } from '../src/server/domain/callStats.js';
import { createRng } from '../src/server/demo/seededRandom.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { startBenchServer, timeMedian } from './lib.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000000' }, days: { type: 'string', default: '30' } } });
const CALLS = Number(values.calls);
const DAYS = Number(values.days);
const PROJECT = 'bench/stats';
const END = Date.UTC(2026, 1, 1) * 1000;
const START = END - DAYS * 86_400_000_000;
const op = (name: string) => `weave:///${PROJECT}/op/${name}:0123456789abcdef`;
const TOOLS = ['search', 'fetch_page', 'run_sql', 'summarize'].map(op);
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet-20241022'];

/**
 * Traces of 4 calls: an agent root, a tool call, and two LLM calls (chat or embed), written in
 * the order they happen (spread evenly over the window, with jitter), as an SDK logs them.
 */
function* traces(): Generator<CallWrite> {
  const rng = createRng(42);
  const step = (END - START - 120_000_000) / CALLS;
  for (let n = 0; n < CALLS; n += 4) {
    const t = START + Math.floor((n + rng.next() * 4) * step);
    const root = `r${n}`;
    const calls = [
      { id: root, parent: null, op: op('agent'), at: t, ms: 0, model: null },
      { id: `${root}-t`, parent: root, op: rng.pick(TOOLS), at: t + 5_000, ms: Math.round(rng.logRange(5, 5_000)), model: null },
      {
        id: `${root}-l1`,
        parent: root,
        op: op('openai.chat.completions.create'),
        at: t + 9_000,
        ms: Math.round(rng.logRange(200, 30_000)),
        model: rng.pick(MODELS),
      },
      { id: `${root}-l2`, parent: root, op: op('embed'), at: t + 12_000, ms: Math.round(rng.logRange(20, 2_000)), model: 'gpt-4o-mini' },
    ].slice(0, Math.min(4, CALLS - n));
    calls[0]!.ms = calls.reduce((m, c) => Math.max(m, c.ms), 0) + 50;
    for (const c of calls) {
      yield {
        kind: 'start',
        projectId: PROJECT,
        id: c.id,
        traceId: root,
        parentId: c.parent,
        threadId: null,
        turnId: null,
        opName: c.op,
        displayName: null,
        startedAt: c.at,
        attributesJson: '{}',
        inputsJson: '{"q":"where is my order?"}',
        otelDumpJson: null,
        inputRefs: [],
        wbUserId: 'bench',
        wbRunId: null,
        wbRunStep: null,
      };
      const usage = c.model
        ? { [c.model]: { prompt_tokens: rng.int(50, 4_000), completion_tokens: rng.int(5, 800), requests: 1 } }
        : undefined;
      yield {
        kind: 'end',
        projectId: PROJECT,
        id: c.id,
        endedAt: c.at + c.ms * 1000,
        exception: rng.chance(0.06) ? 'RateLimitError' : null,
        outputJson: '"ok"',
        summaryJson: JSON.stringify(usage ? { usage } : {}),
        outputRefs: [],
        wbRunStepEnd: null,
      };
    }
  }
}

async function build(store: SqliteStore): Promise<void> {
  let batch: CallWrite[] = [];
  let written = 0;
  const t0 = performance.now();
  for (const w of traces()) {
    batch.push(w);
    if (batch.length < 10_000) continue;
    await store.calls.writeCalls(batch);
    written += batch.length / 2;
    batch = [];
    if (written % 50_000 === 0) process.stdout.write(`\rBuilding: ${written.toLocaleString('en')} / ${CALLS.toLocaleString('en')} calls`);
  }
  await store.calls.writeCalls(batch);
  written += batch.length / 2;
  const s = (performance.now() - t0) / 1000;
  console.log(
    `\rBuilding: ${written.toLocaleString('en')} calls in ${s.toFixed(1)} s (${Math.round(written / s).toLocaleString('en')} calls/s, rollup included)`,
  );
}

/** The dashboard's request; the window is not aligned to 5 minutes, as `now − 30 days` is not. */
const request = (over: Partial<CallStatsReq> = {}): CallStatsReq => ({
  project_id: PROJECT,
  start: new Date(START / 1000 + 37_123).toISOString(),
  end: new Date(END / 1000 - 61_877).toISOString(),
  call_metrics: [{ metric: 'call_count' }, { metric: 'error_count' }, { metric: 'latency_ms', percentiles: [50, 95, 99] }],
  usage_metrics: [{ metric: 'input_tokens' }, { metric: 'output_tokens' }, { metric: 'total_tokens' }, { metric: 'total_cost' }],
  ...over,
});

const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-stats-'));
try {
  const setup = new SqliteStore(join(dataDir, 'weft.sqlite'));
  await build(setup);
  await setup.close();

  const { server, post } = await startBenchServer(dataDir);
  const stats = async (body: CallStatsReq) => {
    const res = await post('/calls/stats', body);
    if (!res.ok) throw new Error(`/calls/stats answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { call_buckets: { count: number }[] };
  };
  const first = await stats(request());
  const counted = first.call_buckets.reduce((n, b) => n + b.count, 0);

  const raw = new Database(join(dataDir, 'weft.sqlite'), { readonly: true });
  const scan = raw.prepare(`SELECT started_at, (ended_at - started_at) / 1000 AS latency_ms, exception IS NOT NULL AS failed,
    json_extract(summary, '$.usage') AS usage FROM calls
    WHERE project_id = ? AND started_at >= ? AND started_at < ? AND started_at IS NOT NULL AND deleted_at IS NULL`);
  const plainMs = await timeMedian(() => scan.all(PROJECT, START, END), 3);
  console.log(`plain scan of the ${counted.toLocaleString('en')} calls into JS: ${plainMs.toFixed(0)} ms\n`);

  console.log('/calls/stats over HTTP (median of 5)           ms    × plain scan');
  const timings: number[] = [];
  const cases: [string, Partial<CallStatsReq>][] = [
    ['30 days, auto (1 day buckets), UTC', {}],
    ['30 days, hourly, Europe/Berlin', { granularity: 3_600, timezone: 'Europe/Berlin' }],
    ['30 days, 5 minutes, Asia/Kolkata', { granularity: 300, timezone: 'Asia/Kolkata' }],
    ['30 days, LLM op only, 6 hours', { granularity: 21_600, filter: { op_names: [op('openai.chat.completions.create')] } }],
  ];
  for (const [label, over] of cases) {
    const ms = await timeMedian(() => stats(request(over)));
    timings.push(ms);
    console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ${(ms / plainMs).toFixed(2).padStart(9)}`);
  }
  const exactMs = await timeMedian(() => callStats(server.store, request(), { mode: 'exact' }), 3);
  console.log(
    `${'same request, exact scan path (in process)'.padEnd(44)} ${exactMs.toFixed(0).padStart(6)} ${(exactMs / plainMs).toFixed(2).padStart(9)}`,
  );
  console.log(`\ndashboard request (30 days, auto buckets): ${timings[0]!.toFixed(0)} ms (goal: within 500 ms)`);
  raw.close();
  await server.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
