/**
 * Ten million calls on one machine: seeds one project of N calls once (200,000 threads of 10
 * turns, each turn a trace of a chat turn and 4 nested LLM calls, spread over 16 days of a 30-day
 * window, plus one trace of 1,000 calls) through Weft's store writer, then times over HTTP, warm
 * (median of 5), each beside its 300 ms goal: the first calls page, the first threads page in
 * every sort, threads with a date filter, one thread's turns, `/calls/stats` over 30 days, a
 * substring search, and the 1,000-call trace (outline and `calls/stream_query`). Then the
 * database's size, bytes per call, and the ingest rate of a batch of new calls sent over HTTP
 * into the full database beside the same batch into an empty one.
 *
 *   nice -n 19 npm run bench:tenm [-- --calls 10000000 --store sqlite]
 *   nice -n 10 npm run bench:tenm -- --calls 2000000 --seed-batch 20000 --data-dir /tmp/tenm2m   # seed and keep
 *   nice -n 10 npm run bench:tenm -- --data-dir /tmp/tenm2m   # measure a seeded file again
 *
 * Seeding 10M calls through the writer (`writeCalls`, `--seed-batch` calls per transaction) took
 * 30 min on a busy 2-core machine, then indexing the substring index's queue about 10 min more
 * (`--index-search no` skips it and the searches); on ClickHouse the engine makes all but the
 * last `--weft-calls` (bulkCalls.ts). On SQLite a file seeded before migration 35 has its kept
 * thread costs priced before the reads (threadCostsKept.ts; ~8 µs of CPU per thread). Figures:
 * docs/performance.md "Ten million calls".
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { THREAD_SORT_FIELDS } from '../src/contract/threads.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import { indexQueuedDocs, queuedDocs } from '../src/server/store/sqlite/callSearch.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { repriceAll } from '../src/server/store/sqlite/threadCostsKept.js';
import {
  benchStoreKind,
  loadAverage,
  settleMerges,
  startBenchBackend,
  STORE_OPTION,
  type BenchBackend,
  type BenchDataset,
} from './backend.js';
import { bulkInsertCalls, sqlString, type CallsGenerator } from './bulkCalls.js';
import { cpuSeconds, startBenchServer, timeAndCpuMedian } from './lib.js';

const { values } = parseArgs({
  options: {
    ...STORE_OPTION,
    calls: { type: 'string', default: '10000000' },
    'weft-calls': { type: 'string', default: '100000' },
    'ingest-calls': { type: 'string', default: '20000' },
    // SQLite: measure the project a run left in this data directory (one stopped mid-seeding)
    // instead of seeding; a directory without a weft.sqlite is seeded and kept for later runs.
    'data-dir': { type: 'string' },
    // Calls per writer transaction while seeding (the store's own batch insert, writeCalls).
    'seed-batch': { type: 'string', default: '5000' },
    // 'no': leave the substring index's queue as seeding left it (indexing 10M calls takes ~15 min
    // of CPU) and skip the two searches, which would measure the queue.
    'index-search': { type: 'string', default: 'yes' },
  },
});
const TURNS = 10;
const NESTED = 4;
const PER_THREAD = TURNS * (1 + NESTED);
let THREADS = Math.round(Number(values.calls) / PER_THREAD);
let CALLS = THREADS * PER_THREAD + 1000;
const PROJECT = 'bench/tenm';
const DAY = 86_400_000_000;
const BASE = Date.UTC(2026, 0, 1) * 1000;
/** Thread starts are 7 s apart whatever N is scaled to, so 200,000 threads span 16 of 30 days. */
const THREAD_GAP = 7_000_000;
const TOPICS = ['refund', 'shipping', 'invoice', 'password', 'warranty', 'upgrade', 'cancel', 'discount', 'delivery', 'billing'];
/** One thread in 2,000 mentions this word: a rare substring search (`raquok`) finds 50 turns per 100k threads. */
const RARE = 'zebraquokka';
const BIG_TRACE = 'big-trace';
const USAGE = '{"usage":{"gpt-4o-mini":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52,"requests":1}}}';

const message = (thread: number, turn: number) =>
  `{"message":"turn ${turn} of thread ${thread} about ${TOPICS[thread % TOPICS.length]}${thread % 2000 === 7 ? ` ${RARE}` : ''}"}`;

function* threadCalls(thread: number): Generator<CallWrite> {
  const base = BASE + thread * THREAD_GAP;
  for (let turn = 0; turn < TURNS; turn++) {
    const turnId = `t${thread}-${turn}`;
    const start = base + turn * 60_000_000;
    const duration = 200_000 + ((thread * 7919 + turn * 104729) % 9_000) * 1000;
    const calls = [{ id: turnId, parent: null as string | null, start, end: start + duration }];
    for (let n = 0; n < NESTED; n++)
      calls.push({ id: `${turnId}-${n}`, parent: turnId, start: start + n * 1000, end: start + duration - 1000 });
    for (const c of calls)
      yield* callPair(c, `thread-${thread}`, turnId, turnId, c.parent ? 'llm' : 'chat_turn', message(thread, turn), thread);
  }
}

function* callPair(
  c: { id: string; parent: string | null; start: number; end: number },
  threadId: string | null,
  turnId: string | null,
  traceId: string,
  opName: string,
  inputsJson: string,
  thread: number,
): Generator<CallWrite> {
  yield {
    kind: 'start',
    projectId: PROJECT,
    id: c.id,
    traceId,
    parentId: c.parent,
    threadId,
    turnId,
    opName,
    displayName: null,
    startedAt: c.start,
    attributesJson: `{"env":"${thread % 4 === 0 ? 'prod' : 'dev'}"}`,
    inputsJson,
    otelDumpJson: null,
    inputRefs: [],
    wbUserId: 'bench',
    wbRunId: null,
    wbRunStep: null,
  };
  yield {
    kind: 'end',
    projectId: PROJECT,
    id: c.id,
    endedAt: c.end,
    exception: !c.parent && thread % 50 === 0 && turnId?.endsWith('-3') ? 'boom' : null,
    outputJson: '"ok"',
    summaryJson: USAGE,
    outputRefs: [],
    wbRunStepEnd: null,
  };
}

/** One trace of 1,000 calls (a root and 999 children), in the middle of the window, no thread. */
function* bigTrace(): Generator<CallWrite> {
  const start = BASE + 10 * DAY;
  yield* callPair({ id: BIG_TRACE, parent: null, start, end: start + 60_000_000 }, null, null, BIG_TRACE, 'agent', '{"task":"big"}', 1);
  for (let i = 0; i < 999; i++) {
    const s = start + (i + 1) * 50_000;
    yield* callPair(
      { id: `${BIG_TRACE}-${i}`, parent: BIG_TRACE, start: s, end: s + 40_000 },
      null,
      null,
      BIG_TRACE,
      'tool',
      `{"i":${i}}`,
      1,
    );
  }
}

/** threadCalls as SQL over the row number n (bulkCalls.ts), for the ClickHouse engine. */
const GENERATOR: CallsGenerator = {
  aliases: [
    `intDiv(n, ${PER_THREAD}) AS th`,
    `intDiv(n % ${PER_THREAD}, ${1 + NESTED}) AS turn`,
    `n % ${1 + NESTED} AS k`,
    `concat('t', toString(th), '-', toString(turn)) AS tid`,
    `${BASE} + th * ${THREAD_GAP} + turn * 60000000 AS tstart`,
    `200000 + ((th * 7919 + turn * 104729) % 9000) * 1000 AS duration`,
  ],
  columns: {
    project_id: sqlString(PROJECT),
    id: `if(k = 0, tid, concat(tid, '-', toString(k - 1)))`,
    trace_id: 'tid',
    parent_id: `if(k = 0, NULL, tid)`,
    thread_id: `concat('thread-', toString(th))`,
    turn_id: 'tid',
    op_name: `if(k = 0, 'chat_turn', 'llm')`,
    started_at: `toInt64(if(k = 0, tstart, tstart + (k - 1) * 1000))`,
    attributes: `if(th % 4 = 0, '{"env":"prod"}', '{"env":"dev"}')`,
    inputs: `concat('{"message":"turn ', toString(turn), ' of thread ', toString(th), ' about ', [${TOPICS.map(sqlString).join(', ')}][th % ${TOPICS.length} + 1], if(th % 2000 = 7, ' ${RARE}', ''), '"}')`,
    ended_at: `toInt64(if(k = 0, tstart + duration, tstart + duration - 1000))`,
    exception: `if(k = 0 AND th % 50 = 0 AND turn = 3, 'boom', NULL)`,
    output: `'"ok"'`,
    summary: sqlString(USAGE),
  },
};

/** Seeds the project; the writer's rate over the first and the last million calls. */
async function build(dataset: BenchDataset): Promise<void> {
  const store = dataset.store;
  const bulkThreads = dataset.clickhouse ? Math.max(0, THREADS - Math.ceil(Number(values['weft-calls']) / PER_THREAD)) : 0;
  if (bulkThreads > 0) await bulkInsertCalls(dataset, PROJECT, GENERATOR, 0, bulkThreads * PER_THREAD);
  let batch: CallWrite[] = [];
  let written = bulkThreads * PER_THREAD;
  const t0 = performance.now();
  let mark = { at: t0, calls: written };
  const write = async () => {
    await store.calls.writeCalls(batch);
    written += batch.length / 2;
    batch = [];
    if (written - mark.calls >= 1_000_000) {
      const now = performance.now();
      const rate = ((written - mark.calls) / (now - mark.at)) * 1000;
      console.log(
        `writer: ${written.toLocaleString('en')} calls, last million at ${Math.round(rate).toLocaleString('en')} calls/s; load ${loadAverage()}`,
      );
      mark = { at: now, calls: written };
    }
  };
  for (const w of bigTrace()) batch.push(w);
  for (let th = bulkThreads; th < THREADS; th++) {
    for (const w of threadCalls(th)) batch.push(w);
    if (batch.length >= 2 * Number(values['seed-batch'])) await write();
  }
  if (batch.length) await write();
  const s = (performance.now() - t0) / 1000;
  console.log(
    `seeded ${CALLS.toLocaleString('en')} calls (${(written - bulkThreads * PER_THREAD).toLocaleString('en')} through the writer) in ${s.toFixed(0)} s`,
  );
}

/** Calls of the project in a kept ClickHouse engine's `bench_tenm` database (0 when none). */
async function seededCalls(backend: BenchBackend): Promise<number> {
  const probe = await backend.dataset('bench_tenm_probe');
  await probe.store.close();
  const db = new ClickHouseDatabase({ ...probe.clickhouse!, database: 'system' });
  try {
    const row = await db.get<{ n: string }>(
      "SELECT sum(rows) AS n FROM system.parts WHERE database = 'bench_tenm' AND table = 'calls' AND active",
    );
    return Number(row?.n ?? 0);
  } finally {
    await db.close();
  }
}

/** Calls left queued for the substring index (`--index-search no`): the searches are skipped. */
let searchQueued = 0;

/**
 * Indexes every call the seeding queued for the substring index, as a server does in the
 * background once the writer is idle (docs/search.md "At scale"): until then each queued call
 * is a candidate of every search, and the search figures would measure the queue.
 */
function indexSearchQueue(store: SqliteStore): void {
  const queued = queuedDocs(store.db);
  searchQueued = values['index-search'] === 'no' ? queued : 0;
  if (queued === 0 || searchQueued > 0) return;
  const t0 = performance.now();
  const c0 = cpuSeconds(null);
  while (indexQueuedDocs(store.db, 1000, 20_000) > 0);
  console.log(
    `search index: ${queued.toLocaleString('en')} queued calls indexed in ${((performance.now() - t0) / 1000).toFixed(0)} s (${(((cpuSeconds(null) - c0) * 1e6) / queued).toFixed(0)} µs of CPU per call)`,
  );
}

/**
 * Prices the threads of projects whose kept costs are stale (a file seeded before migration 35,
 * or after a price change), as a server does in the background (threadCostsKept.ts): until then
 * the cost sorts price every thread per request, and their figures would measure that.
 */
function priceKeptCosts(store: SqliteStore): void {
  const t0 = performance.now();
  const c0 = cpuSeconds(null);
  const projects = repriceAll(store.db);
  if (projects === 0) return;
  console.log(
    `thread costs: ${projects} project(s) priced in ${((performance.now() - t0) / 1000).toFixed(1)} s (${(cpuSeconds(null) - c0).toFixed(1)} s of CPU)`,
  );
}

/** Bytes the dataset holds: the SQLite file and its WAL, or the engine's parts of the database. */
async function databaseBytes(dataset: BenchDataset): Promise<{ bytes: number; detail: string }> {
  if (dataset.sqliteFile) {
    const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
    const main = size(dataset.sqliteFile);
    const wal = size(`${dataset.sqliteFile}-wal`);
    return { bytes: main + wal, detail: `file ${(main / 1e9).toFixed(2)} GB + WAL ${(wal / 1e6).toFixed(0)} MB` };
  }
  const db = new ClickHouseDatabase(dataset.clickhouse!);
  try {
    const rows = await db.all<{ table: string; bytes: string }>(
      `SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {d:String} AND active GROUP BY table ORDER BY bytes DESC`,
      { d: dataset.clickhouse!.database },
    );
    const total = rows.reduce((n, r) => n + Number(r.bytes), 0);
    return {
      bytes: total,
      detail: rows
        .slice(0, 5)
        .map((r) => `${r.table} ${(Number(r.bytes) / 1e6).toFixed(0)} MB`)
        .join(', '),
    };
  } finally {
    await db.close();
  }
}

/** `n` new calls (traces of 5) as `/call/upsert_batch` bodies of 500 calls, after the seeded window. */
function ingestBodies(n: number, tag: string): string[] {
  const bodies: string[] = [];
  let items: object[] = [];
  for (let i = 0; i < n; i++) {
    const root = `${tag}-${i - (i % 5)}`;
    const id = i % 5 === 0 ? root : `${tag}-${i}`;
    const at = BASE + 31 * DAY + i * 1000;
    items.push({
      mode: 'start',
      req: {
        start: {
          project_id: PROJECT,
          id,
          trace_id: root,
          parent_id: id === root ? null : root,
          op_name: 'llm',
          started_at: new Date(at / 1000).toISOString(),
          attributes: { env: 'prod' },
          inputs: { messages: [{ role: 'user', content: `Where is my order #${i}? It has not arrived yet.` }] },
        },
      },
    });
    items.push({
      mode: 'end',
      req: {
        end: {
          project_id: PROJECT,
          id,
          ended_at: new Date(at / 1000 + 300).toISOString(),
          output: { role: 'assistant', content: `Order #${i} shipped on Monday.` },
          summary: JSON.parse(USAGE),
        },
      },
    });
    if (items.length === 1000) {
      bodies.push(JSON.stringify({ batch: items }));
      items = [];
    }
  }
  if (items.length) bodies.push(JSON.stringify({ batch: items }));
  return bodies;
}

/** Calls per second for `bodies` sent 4 at a time to `post`. */
async function ingestRate(post: (path: string, body: unknown) => Promise<Response>, bodies: string[], calls: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < bodies.length) {
        const res = await post('/call/upsert_batch', JSON.parse(bodies[next++]!));
        if (!res.ok) throw new Error(`upsert_batch answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
        await res.arrayBuffer();
      }
    }),
  );
  return (calls / (performance.now() - t0)) * 1000;
}

const storeKind = benchStoreKind(values.store);
// On ClickHouse, `--data-dir` keeps the engine's data there: seeded once, measured again later.
const backend = await startBenchBackend(storeKind, { keepDir: storeKind === 'clickhouse' ? values['data-dir'] : undefined });
try {
  console.log(`Ten million calls on ${backend.kind}: ${CALLS.toLocaleString('en')} calls; load average ${loadAverage()}`);
  // The empty dataset's ingest rate first, for the ratio (the same bodies, another project file).
  const ingestCalls = Number(values['ingest-calls']);
  const empty = await backend.dataset('bench_tenm_empty');
  await empty.store.close();
  let emptyRate = NaN;
  {
    const { server, post } = await startBenchServer(empty.dataDir, empty.env);
    await ingestRate(post, ingestBodies(1000, `warm${Date.now()}`), 1000);
    emptyRate = await ingestRate(post, ingestBodies(ingestCalls, `new${Date.now()}`), ingestCalls);
    await server.close();
  }

  let dataset: BenchDataset;
  const existing = storeKind === 'sqlite' ? values['data-dir'] : undefined;
  if (storeKind === 'clickhouse' && values['data-dir'] && (await seededCalls(backend)) > 0) {
    dataset = await backend.dataset('bench_tenm');
    await dataset.store.close();
    console.log(`measuring the calls seeded earlier in ${values['data-dir']}`);
  } else if (existing && !existsSync(join(existing, 'weft.sqlite'))) {
    // Seed into a directory of the caller's, kept after the run for later `--data-dir` runs.
    mkdirSync(existing, { recursive: true });
    const sqliteFile = join(existing, 'weft.sqlite');
    dataset = { dataDir: existing, store: new SqliteStore(sqliteFile), env: { WEFT_DATA_DIR: existing }, clickhouse: null, sqliteFile };
    await build(dataset);
    indexSearchQueue(dataset.store as SqliteStore);
    priceKeptCosts(dataset.store as SqliteStore);
    await dataset.store.close();
  } else if (existing) {
    // The seeder writes the big trace, then threads in order: the threads present are 0..THREADS-1.
    const sqliteFile = join(existing, 'weft.sqlite');
    const raw = new Database(sqliteFile, { readonly: true });
    CALLS = (raw.prepare('SELECT count(*) AS n FROM calls WHERE project_id = ?').get(PROJECT) as { n: number }).n;
    // Threads' calls only: an earlier measurement's ingested calls are in the project too.
    const inThreads = raw.prepare('SELECT count(*) AS n FROM calls WHERE project_id = ? AND thread_id IS NOT NULL').get(PROJECT) as {
      n: number;
    };
    raw.close();
    THREADS = Math.floor(inThreads.n / PER_THREAD);
    console.log(`measuring the ${CALLS.toLocaleString('en')} calls (${THREADS.toLocaleString('en')} threads) in ${existing}`);
    dataset = { dataDir: existing, store: null as never, env: { WEFT_DATA_DIR: existing }, clickhouse: null, sqliteFile };
    const store = new SqliteStore(sqliteFile);
    indexSearchQueue(store);
    priceKeptCosts(store);
    await store.close();
  } else {
    dataset = await backend.dataset('bench_tenm');
    await build(dataset);
    if (dataset.store instanceof SqliteStore) {
      indexSearchQueue(dataset.store);
      priceKeptCosts(dataset.store);
    }
    await dataset.store.close();
    await settleMerges(dataset);
  }
  const size = await databaseBytes(dataset);

  // The ClickHouse figures are the thread snapshots' (the default; docs/clickhouse.md).
  const { server, post } = await startBenchServer(dataset.dataDir, { ...dataset.env, WEFT_CLICKHOUSE_THREAD_SNAPSHOTS: '1' });
  const lines = async (path: string, body: object, min = 1): Promise<number> => {
    const res = await post(path, { project_id: PROJECT, ...body });
    const text = await res.text();
    const n = text.split('\n').filter(Boolean).length;
    if (!res.ok || n < min) throw new Error(`${path} answered ${res.status} with ${n} lines: ${text.slice(0, 200)}`);
    return n;
  };
  const json = async (path: string, body: object) => {
    const res = await post(path, { project_id: PROJECT, ...body });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return res.json();
  };
  const end = BASE + 30 * DAY;
  const afterHalf = new Date((BASE + (THREADS * THREAD_GAP) / 2) / 1000).toISOString();
  const firstCallsPage = {
    filter: { trace_roots_only: true },
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    columns: ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception', 'summary', 'inputs'],
    limit: 50,
  };
  const statsReq = (granularity?: number) => ({
    start: new Date(BASE / 1000 + 37_123).toISOString(),
    end: new Date(end / 1000 - 61_877).toISOString(),
    ...(granularity ? { granularity } : {}),
    call_metrics: [{ metric: 'call_count' }, { metric: 'error_count' }, { metric: 'latency_ms', percentiles: [50, 95, 99] }],
    usage_metrics: [{ metric: 'input_tokens' }, { metric: 'output_tokens' }, { metric: 'total_tokens' }, { metric: 'total_cost' }],
  });
  const p99desc = [{ field: 'p99_turn_duration_ms', direction: 'desc' }];
  const cases: [string, () => Promise<unknown>][] = [
    ['first calls page (50 trace roots, newest first)', () => lines('/calls/stream_query', firstCallsPage, 50)],
  ];
  for (const field of THREAD_SORT_FIELDS)
    for (const direction of ['asc', 'desc'])
      cases.push([
        `threads page, ${field} ${direction}`,
        () => lines('/threads/stream_query', { limit: 50, sort_by: [{ field, direction }] }, 50),
      ]);
  cases.push(
    [
      'threads page, date filter (second half)',
      () => lines('/threads/stream_query', { limit: 50, filter: { after_datetime: afterHalf }, sort_by: p99desc }, 50),
    ],
    [
      'one thread with a date filter (its turns)',
      () =>
        lines(
          '/calls/stream_query',
          {
            filter: { thread_ids: [`thread-${THREADS - 3}`], trace_roots_only: true },
            query: { $expr: { $gte: [{ $getField: 'started_at' }, { $literal: afterHalf }] } },
            limit: 50,
          },
          10,
        ),
    ],
    [
      "one thread's turns as the thread view asks (by start)",
      () =>
        lines(
          '/calls/stream_query',
          {
            filter: { thread_ids: [`thread-${THREADS - 3}`] },
            query: { $expr: { $eq: [{ $getField: 'turn_id' }, { $getField: 'id' }] } },
            sort_by: [{ field: 'started_at', direction: 'asc' }],
            limit: 50,
          },
          10,
        ),
    ],
    ['/calls/stats, 30 days, auto buckets', () => json('/calls/stats', statsReq())],
    ['/calls/stats, 30 days, hourly', () => json('/calls/stats', statsReq(3600))],
    [
      'substring search "raquok", calls, newest first',
      () =>
        lines(
          '/calls/stream_query',
          { filter: { search: 'raquok' }, sort_by: [{ field: 'started_at', direction: 'desc' }], columns: ['id', 'inputs'], limit: 50 },
          50,
        ),
    ],
    ['substring search "raquok", threads', () => lines('/threads/stream_query', { limit: 50, filter: { search: 'raquok' } }, 1)],
  );
  if (searchQueued > 0) {
    console.log(`searches skipped: ${searchQueued.toLocaleString('en')} calls wait for the substring index (--index-search no)`);
    cases.splice(-2, 2);
  }
  cases.push(
    ['trace of 1,000 calls: outline', () => json('/weft/trace/outline', { trace_id: BIG_TRACE, limit: 10_000 })],
    ['trace of 1,000 calls: calls/stream_query', () => lines('/calls/stream_query', { filter: { trace_ids: [BIG_TRACE] } }, 1000)],
  );
  // The first threads request of the project, cold: on ClickHouse it starts the thread
  // snapshot's build in the background (docs/clickhouse.md "Thread snapshots"), timed to its end.
  const threadsStore = server.store.threads as { snapshotsSettled?: () => Promise<void> };
  // Apart, what any first request would wait for (docs/performance.md "SQLite at 10M calls"):
  // the request threads' boot, and the bench's password checked once (scrypt, once per client;
  // a dashboard session or an SDK's API key skips it).
  let t0 = performance.now();
  await server.threads?.whenReady();
  if (server.threads) console.log(`request threads ready ${(performance.now() - t0).toFixed(0)} ms after the server started`);
  t0 = performance.now();
  await lines('/calls/stream_query', { filter: { call_ids: ['none'] } }, 0);
  console.log(`first request, a read of no call (the password's one scrypt check): ${(performance.now() - t0).toFixed(0)} ms`);
  t0 = performance.now();
  await lines('/threads/stream_query', { limit: 50, sort_by: p99desc }, 50);
  console.log(`first threads request, cold: ${(performance.now() - t0).toFixed(0)} ms`);
  if (threadsStore.snapshotsSettled) {
    t0 = performance.now();
    await threadsStore.snapshotsSettled();
    console.log(`thread snapshot built in the background in ${((performance.now() - t0) / 1000).toFixed(1)} s more`);
  }
  // Warm up (read threads, statement caches), then median of 5 for each.
  for (const [, fn] of cases) await fn().catch(() => undefined);
  console.log(`\n${'request (median of 5, warm)'.padEnd(52)} HTTP ms  CPU ms  goal`);
  for (const [label, fn] of cases) {
    try {
      const t = await timeAndCpuMedian(fn, () => cpuSeconds(backend.enginePid), 5);
      console.log(
        `${label.padEnd(52)} ${t.ms.toFixed(0).padStart(7)} ${t.cpuMs.toFixed(0).padStart(7)}   300${t.ms > 300 ? '  MISSED' : ''}`,
      );
    } catch (err) {
      console.log(`${label.padEnd(52)} failed: ${(err as Error).message.slice(0, 200).replace(/\s+/g, ' ')}`);
    }
  }
  console.log(`\ndatabase: ${(size.bytes / 1e9).toFixed(2)} GB (${size.detail}), ${Math.round(size.bytes / CALLS)} bytes per call`);
  try {
    await ingestRate(post, ingestBodies(1000, `warm${Date.now()}`), 1000);
    const fullRate = await ingestRate(post, ingestBodies(ingestCalls, `new${Date.now()}`), ingestCalls);
    console.log(
      `ingest over HTTP, ${ingestCalls.toLocaleString('en')} calls in batches of 500, 4 in flight: ${Math.round(fullRate).toLocaleString('en')} calls/s into ${CALLS.toLocaleString('en')} calls, ${Math.round(emptyRate).toLocaleString('en')} into an empty project: ratio ${(fullRate / emptyRate).toFixed(2)}`,
    );
  } catch (err) {
    console.log(`ingest failed: ${(err as Error).message}`);
  }
  console.log(`load average ${loadAverage()}`);
  await server.close();
} finally {
  await backend.close();
}
