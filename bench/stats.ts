/**
 * Call statistics benchmark: a project of 1,000,000 calls over 30 days (traces of an agent
 * root with tool and LLM children, 8 ops, 3 models, ~6 % errors), then `/calls/stats` over
 * HTTP for the dashboard's questions — count, error count and latency p50/p95/p99 per bucket,
 * tokens and cost by model — timed next to a plain scan (SQLite: better-sqlite3 reading the
 * same rows into JS, what any exact answer has to pay; ClickHouse: one GROUP BY per day of
 * count, errors and latency percentiles straight to the engine) and the exact path of the same
 * request. Then the calls page's first 50 trace roots (`/calls/stream_query`), goal 100 ms, the
 * same page sorted by latency (rows spread over the project) and one `/call/read`, for scale.
 *
 *   npm run bench:stats [-- --store clickhouse --calls 1000000 --days 30]
 *
 * Goal (issue "Call statistics"): the dashboard's request over 30 days of 1,000,000 calls
 * within 500 ms. The 5-minute case (8,640 buckets, ~6 MB of JSON) is shown for scale.
 */
import Database from 'better-sqlite3';
import { parseArgs } from 'node:util';
import type { CallStatsReq } from '../src/contract/stats.js';
import { callStats } from '../src/server/domain/calls/callStats.js';
import { createRng } from '../src/server/demo/seededRandom.js';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import { ClickHouseStatsStore } from '../src/server/store/clickhouse/stats.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { benchStoreKind, loadAverage, settleMerges, startBenchBackend, STORE_OPTION, type BenchDataset } from './backend.js';
import { bulkInsertCalls, sqlString, type CallsGenerator } from './bulkCalls.js';
import { serverCpu, startBenchServer, timeAndCpuMedian, timeMedian } from './lib.js';

const { values } = parseArgs({
  options: {
    ...STORE_OPTION,
    calls: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '30' },
    // On ClickHouse, how many of the calls (the last ones) Weft's writer writes; the engine makes
    // the others (bulkCalls.ts) with the same shapes. All of them through Weft on SQLite.
    'weft-calls': { type: 'string', default: '100000' },
  },
});
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
function* traces(from: number): Generator<CallWrite> {
  const rng = createRng(42);
  const step = (END - START - 120_000_000) / CALLS;
  for (let n = from; n < CALLS; n += 4) {
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

/**
 * traces() as SQL over the row number n (bulkCalls.ts): the same traces with the same
 * distributions, each draw a hash of the trace's number instead of the seeded stream.
 */
function generator(): CallsGenerator {
  const step = (END - START - 120_000_000) / CALLS;
  const u = (salt: number, of = 'i') => `(sipHash64(${of}, ${salt}) % 4294967296) / 4294967296`;
  const pick = (items: string[], salt: number) => `[${items.map(sqlString).join(', ')}][toUInt32(floor(${u(salt)} * ${items.length})) + 1]`;
  const logRange = (min: number, max: number, salt: number) =>
    `toInt64(round(exp(log(${min}) + ${u(salt)} * (log(${max}) - log(${min})))))`;
  const int = (min: number, max: number, salt: number) => `toInt64(${min} + floor(${u(salt)} * ${max - min + 1}))`;
  const usage = (model: string, salt: number) =>
    `concat('{"usage":{"', ${model}, '":{"prompt_tokens":', toString(${int(50, 4_000, salt)}), ',"completion_tokens":', toString(${int(5, 800, salt + 1)}), ',"requests":1}}}')`;
  return {
    aliases: [
      'intDiv(n, 4) AS i',
      'n % 4 AS k',
      `toInt64(${START} + floor((4 * i + ${u(1)} * 4) * ${step})) AS t`,
      `${logRange(5, 5_000, 2)} AS tool_ms`,
      `${logRange(200, 30_000, 3)} AS chat_ms`,
      `${logRange(20, 2_000, 4)} AS embed_ms`,
      `${pick(MODELS, 5)} AS chat_model`,
      `[greatest(tool_ms, chat_ms, embed_ms) + 50, tool_ms, chat_ms, embed_ms][k + 1] AS ms`,
      `[0, 5000, 9000, 12000][k + 1] AS off`,
    ],
    columns: {
      project_id: sqlString(PROJECT),
      id: `concat('r', toString(4 * i), ['', '-t', '-l1', '-l2'][k + 1])`,
      trace_id: `concat('r', toString(4 * i))`,
      parent_id: `if(k = 0, NULL, concat('r', toString(4 * i)))`,
      thread_id: "CAST(NULL, 'Nullable(String)')",
      turn_id: "CAST(NULL, 'Nullable(String)')",
      op_name: `[${sqlString(op('agent'))}, ${pick(TOOLS, 6)}, ${sqlString(op('openai.chat.completions.create'))}, ${sqlString(op('embed'))}][k + 1]`,
      started_at: 't + off',
      attributes: "'{}'",
      inputs: sqlString('{"q":"where is my order?"}'),
      ended_at: 't + off + ms * 1000',
      exception: `if(${u(7, 'n')} < 0.06, 'RateLimitError', NULL)`,
      output: `'"ok"'`,
      summary: `multiIf(k = 2, ${usage('chat_model', 8)}, k = 3, ${usage("'gpt-4o-mini'", 10)}, '{}')`,
    },
  };
}

async function build(dataset: BenchDataset): Promise<void> {
  const store = dataset.store;
  // On ClickHouse the engine makes every trace but the last ones (bulkCalls.ts).
  const bulk = dataset.clickhouse ? Math.max(0, CALLS - Number(values['weft-calls'])) & ~3 : 0;
  if (bulk > 0) await bulkInsertCalls(dataset, PROJECT, generator(), 0, bulk);
  let batch: CallWrite[] = [];
  let written = bulk;
  const t0 = performance.now();
  for (const w of traces(bulk)) {
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
    `\rBuilding through Weft's writer: ${(written - bulk).toLocaleString('en')} calls in ${s.toFixed(1)} s (${Math.round((written - bulk) / s).toLocaleString('en')} calls/s, rollup included)`,
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

/** The plain scan the HTTP answers are compared with: the physical limit on each backend. */
function plainScan(dataset: BenchDataset): { label: string; run: () => Promise<unknown> | unknown; close: () => Promise<void> } {
  if (dataset.sqliteFile) {
    const raw = new Database(dataset.sqliteFile, { readonly: true });
    const scan = raw.prepare(`SELECT started_at, (ended_at - started_at) / 1000 AS latency_ms, exception IS NOT NULL AS failed,
      json_extract(summary, '$.usage') AS usage FROM calls
      WHERE project_id = ? AND started_at >= ? AND started_at < ? AND started_at IS NOT NULL AND deleted_at IS NULL`);
    return { label: 'plain scan of the calls into JS', run: () => scan.all(PROJECT, START, END), close: async () => void raw.close() };
  }
  const db = new ClickHouseDatabase(dataset.clickhouse!);
  const sql = `SELECT intDiv(started_at, 86400000000) AS day, count() AS n, countIf(exception IS NOT NULL) AS failed,
      quantilesExactInclusive(0.5, 0.95, 0.99)((ended_at - started_at) / 1000) AS latency
    FROM calls FINAL WHERE project_id = {p:String} AND started_at >= {s:Int64} AND started_at < {e:Int64} AND deleted_at IS NULL
    GROUP BY day ORDER BY day`;
  return {
    label: 'plain GROUP BY day (count, errors, latency percentiles)',
    run: () => db.all(sql, { p: PROJECT, s: START, e: END }),
    close: () => db.close(),
  };
}

/** The calls page's first request (src/web/entities/calls/listRequest.ts): trace roots, newest first unless `sort` says, list columns. */
const firstCallsPage = (query: object | null, sort = { field: 'started_at', direction: 'desc' }) => ({
  project_id: PROJECT,
  filter: { trace_roots_only: true },
  query,
  sort_by: [sort],
  columns: ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception', 'summary', 'inputs'],
  limit: 50,
  offset: 0,
});

const backend = await startBenchBackend(benchStoreKind(values.store));
try {
  console.log(`Call statistics on ${backend.kind}: ${CALLS.toLocaleString('en')} calls over ${DAYS} days; load average ${loadAverage()}`);
  const dataset = await backend.dataset('bench_stats');
  await build(dataset);
  await dataset.store.close();
  await settleMerges(dataset);
  const builtAt = Date.now();

  const { server, post } = await startBenchServer(dataset.dataDir, dataset.env);
  const stats = async (body: CallStatsReq) => {
    const res = await post('/calls/stats', body);
    if (!res.ok) throw new Error(`/calls/stats answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { call_buckets: { count: number }[] };
  };
  const firstAt = performance.now();
  const first = await stats(request());
  const counted = first.call_buckets.reduce((n, b) => n + b.count, 0);
  if (dataset.clickhouse) {
    // The first read after the load checks every hour's ids for a second start; a check is kept
    // once its hour has been quiet for a minute (docs/clickhouse.md "Stats rollup"), so the
    // timed reads below start a minute after the load, as on a project not being bulk-loaded.
    console.log(`first /calls/stats after the load (checks every hour's ids): ${(performance.now() - firstAt).toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, Math.max(0, builtAt + 61_000 - Date.now())));
    await stats(request());
  }

  const plain = plainScan(dataset);
  const plainMs = await timeMedian(plain.run, 3);
  console.log(`${plain.label}, ${counted.toLocaleString('en')} calls: ${plainMs.toFixed(0)} ms\n`);

  // The engine's CPU per request (ClickHouse) is the figure the machine's load moves least.
  const engineCpu = () => (backend.enginePid ? serverCpu(backend.enginePid).process : NaN);
  console.log('/calls/stats over HTTP (median of 5)           ms    × plain scan   engine CPU ms');
  const timings: number[] = [];
  const cases: [string, Partial<CallStatsReq>][] = [
    ['30 days, auto (1 day buckets), UTC', {}],
    ['30 days, hourly, Europe/Berlin', { granularity: 3_600, timezone: 'Europe/Berlin' }],
    ['30 days, 5 minutes, Asia/Kolkata', { granularity: 300, timezone: 'Asia/Kolkata' }],
    ['30 days, LLM op only, 6 hours', { granularity: 21_600, filter: { op_names: [op('openai.chat.completions.create')] } }],
  ];
  for (const [label, over] of cases) {
    const { ms, cpuMs } = await timeAndCpuMedian(() => stats(request(over)), engineCpu);
    timings.push(ms);
    console.log(
      `${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ${(ms / plainMs).toFixed(2).padStart(9)} ${cpuMs.toFixed(0).padStart(15)}`,
    );
  }
  // On ClickHouse the exact path streams every call's facts over HTTP: once is enough to show its
  // scale, and past 2M calls (minutes) it is left out.
  if (backend.kind === 'sqlite' || CALLS <= 2_000_000) {
    const exactMs = await timeMedian(() => callStats(server.store, request(), { mode: 'exact' }), backend.kind === 'sqlite' ? 3 : 1);
    console.log(
      `${'same request, exact scan path (in process)'.padEnd(44)} ${exactMs.toFixed(0).padStart(6)} ${(exactMs / plainMs).toFixed(2).padStart(9)}`,
    );
  }
  if (dataset.clickhouse) {
    // The per-hour cells against the plain scan of calls FINAL they replace (docs/clickhouse.md
    // "Stats rollup"), the same request in process, one after the other.
    const db = new ClickHouseDatabase(dataset.clickhouse);
    const cells = new ClickHouseStatsStore(db);
    const scanOnly = new ClickHouseStatsStore(db, { stored: false });
    for (const [label, over] of cases.slice(0, 2)) {
      const withCells = await timeMedian(() => callStats({ ...server.store, stats: cells }, request(over)), 5);
      const read = cells.lastRead;
      const without = await timeMedian(() => callStats({ ...server.store, stats: scanOnly }, request(over)), 3);
      console.log(
        `${label}, in process: cells ${withCells.toFixed(0)} ms (${read?.storedHours} hours stored, ${read?.rowHours} from rows, ${read?.scanned === 'all' ? 'all' : read?.scanned.length} ranges merged), plain ${without.toFixed(0)} ms: ${(without / withCells).toFixed(1)}×`,
      );
    }
    // Where the time goes: the cells alone (a window of whole hours, nothing to scan), and the
    // scan of the two partial edge hours alone (the plain query restricted to them).
    const H = 3_600_000_000;
    const whole = Array.from({ length: DAYS + 1 }, (_, d) => Math.ceil(START / H) * H + d * 86_400_000_000);
    const cellsOnly = await timeMedian(() => cells.spanCells({ projectId: PROJECT, bounds: whole, withUsage: true }), 5);
    console.log(`  spans of whole hours only (${cells.lastRead?.storedHours} hours stored, nothing scanned): ${cellsOnly.toFixed(0)} ms`);
    const s0 = START + 37_123_000;
    const e0 = END - 61_877_000;
    // The parts of a read of the cells, each alone.
    const h0 = Math.ceil(START / H);
    const h1 = Math.floor(END / H);
    const parts: [string, string][] = [
      ['loose parts counted', 'SELECT count() AS n FROM call_stats_loose WHERE project_id = {p:String}'],
      [
        'loose parts resolved to hours',
        `SELECT DISTINCT intDiv(started_at, ${H}) AS hour FROM calls FINAL PREWHERE project_id = {p:String}
           AND id IN (SELECT id FROM call_stats_loose WHERE project_id = {p:String}) WHERE started_at >= {s:Int64}`,
      ],
      [
        'hour counts and sums, every hour of the project',
        `SELECT hour, sumIf(starts, every = 1), sumIf(complete, every = 1), max(written), sumIf(complete, every = 1),
           sumIf(latency_sum, every = 1) FROM call_stats_hours WHERE project_id = {p:String} GROUP BY hour`,
      ],
      [
        'histograms merged per day (every op)',
        `SELECT intDiv(hour, 24) AS d, sumMap(hist.1, hist.2) FROM call_stats_hours
           WHERE project_id = {p:String} AND hour >= {h0:Int64} AND hour < {h1:Int64} AND every = 1 GROUP BY d`,
      ],
      [
        'histograms merged per day (per op, as before every = 1)',
        `SELECT intDiv(hour, 24) AS d, sumMap(hist.1, hist.2) FROM call_stats_hours
           WHERE project_id = {p:String} AND hour >= {h0:Int64} AND hour < {h1:Int64} AND every = 0 GROUP BY d`,
      ],
      [
        'ids checked for a second start, every hour at once',
        'SELECT count(), uniqExact(id_hash) FROM call_stats_starts WHERE project_id = {p:String}',
      ],
      [
        'ids checked for a second start, one hour',
        `SELECT id_hash FROM call_stats_starts WHERE project_id = {p:String} AND id_hash GLOBAL IN (
           SELECT sipHash64(id) FROM calls_by_start WHERE project_id = {p:String} AND intDiv(started_at, ${H}) = {h0:Int64} + 100)
         GROUP BY id_hash HAVING count() > 1`,
      ],
      [
        'one cut hour from the start-ordered rows',
        `SELECT count(), sum(lat), sumMap([lat], [toUInt64(1)]) FROM call_stats_rows
           WHERE project_id = {p:String} AND started_at >= ({h0:Int64} + 100) * ${H} AND started_at < ({h0:Int64} + 100) * ${H} + 1800000000`,
      ],
    ];
    for (const [label, sql] of parts) {
      const ms = await timeMedian(() => db.all(sql, { p: PROJECT, s: START, h0, h1 }), 5);
      const n = label === 'loose parts counted' ? ` (${JSON.stringify(await db.all(sql, { p: PROJECT }))})` : '';
      console.log(`  ${label}: ${ms.toFixed(0)} ms${n}`);
    }
    // A partial hour beside a whole one: the whole hour from the cells, the partial one from the rows.
    for (const bounds of [
      [s0, Math.ceil(s0 / H) * H + H],
      [Math.floor(e0 / H) * H - H, e0],
    ]) {
      const edge = await timeMedian(() => cells.spanCells({ projectId: PROJECT, bounds, withUsage: true }), 5);
      const read = cells.lastRead;
      console.log(
        `  a stored hour and a partial one (${read?.scanned === 'all' ? 'plain scan' : `${read?.rowHours} from rows, ${read?.scanned.length} ranges merged`}): ${edge.toFixed(0)} ms`,
      );
    }
    await db.close();
  }
  console.log(`\ndashboard request (30 days, auto buckets): ${timings[0]!.toFixed(0)} ms (goal: within 500 ms)`);

  console.log('\n/calls/stream_query, first page of 50 trace roots (median of 5)   ms   goal');
  const since = new Date(END / 1000 - 86_400_000).toISOString();
  const pages: [string, object | null, { field: string; direction: string }?][] = [
    ['newest first, no filter', null],
    // The page's "since" range is a $expr query (filterModel.ts compileQuery).
    ['newest first, since 24 hours ($expr)', { $expr: { $gte: [{ $getField: 'started_at' }, { $literal: since }] } }],
    // Rows whose ids are spread over the whole project (ClickHouse reads them by id, calls.ts).
    ['slowest first (latency desc)', null, { field: 'summary.weave.latency_ms', direction: 'desc' }],
  ];
  for (const [label, query, sort] of pages) {
    try {
      const ms = await timeMedian(async () => {
        const res = await post('/calls/stream_query', firstCallsPage(query, sort));
        const text = await res.text();
        if (!res.ok || text.trim().split('\n').length !== 50) throw new Error(`answered ${res.status}: ${text.slice(0, 160)}`);
      });
      console.log(`${label.padEnd(60)} ${ms.toFixed(0).padStart(6)}${sort ? '' : '   100'}`);
    } catch (err) {
      console.log(`${label.padEnd(60)} failed: ${(err as Error).message.replace(/\s+/g, ' ')}`);
    }
  }
  const oneCall = await timeMedian(async () => {
    const res = await post('/call/read', { project_id: PROJECT, id: `r${4 * Math.floor(CALLS / 8)}` });
    if (!res.ok) throw new Error(`call/read answered ${res.status}`);
    await res.arrayBuffer();
  });
  console.log(`${'/call/read, one call'.padEnd(60)} ${oneCall.toFixed(0).padStart(6)}`);
  console.log(`load average ${loadAverage()}`);
  await plain.close();
  await server.close();
} finally {
  await backend.close();
}
