/**
 * Mixed-load benchmark: does any request wait behind another? 200 connections for 25 s
 * against a 150,000-call project, each connection looping on one kind of request:
 *
 *   call/start + call/end (one pair per iteration), calls/stream_query (the calls page's
 *   first 100 rows), threads/stream_query (the threads page's first 50), calls/stats
 *   (7 days of hourly counts, latency and tokens)
 *
 * while a probe (a thread of its own) asks `/health` every 50 ms, after 5 s of the same load
 * unmeasured (--warmup) so the server's thread pools have grown. Prints per-endpoint throughput, p50/p99/max and
 * errors, the probe's p99, and the goals (`/health` p99 ≤ 50 ms, every read p99 ≤ 500 ms,
 * 0 errors). The server is a separate `weft serve` process on a copy of a prepared database.
 *
 * Before the load, each read is timed alone (server CPU per request), which gives the floor the
 * reads' goal puts on the machine: the default 40 connections looping on a read wait 500 ms at
 * most only if it is served at least 80 times a second. The reads' rate under load trades
 * against the writes' (WEFT_READ_THREADS, the write threads' nice level): in the runs of docs/performance.md,
 * on two saturated cores, more read threads served more reads and fewer writes.
 *
 *   npm run bench:load [-- --calls 150000 --seconds 25 --warmup 5 --connections 200 --workers 1]
 *   npm run bench:load -- --server-dir /tmp/weft-main      # the same load against another checkout
 *   WEFT_THREADS=0 npm run bench:load                      # the same with every request on the main thread
 *   BENCH_SERVER_ENV="WEFT_READ_THREADS=4" npm run bench:load   # extra server environment
 *
 * The prepared database is kept in the temp directory (per call count) and copied per run, so
 * a before/after pair measures the same data.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { uuidv7 } from '../src/server/core/ids.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { leanFetch } from './leanFetch.js';
import { envFromString, percentile, probeHealth, spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '150000' },
    seconds: { type: 'string', default: '25' },
    connections: { type: 'string', default: '200' },
    workers: { type: 'string', default: '1' },
    'server-dir': { type: 'string', default: '.' },
    warmup: { type: 'string', default: '5' },
  },
});
const CALLS = Number(values.calls);
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const PROJECT = 'bench/load';
const THREADS = Math.max(1, Math.round(CALLS / 75));
/** Requests of each read timed alone before the load. */
const ALONE_RUNS = 50;
const DAY_US = 86_400_000_000;

/** A prepared data directory with CALLS calls over the last 7 days, a third of them thread turns. */
async function prepare(): Promise<{ file: string; key: string }> {
  const dir = join(tmpdir(), `weft-bench-load-${CALLS}`);
  const file = join(dir, 'weft.sqlite');
  const keyFile = join(dir, 'key');
  if (existsSync(keyFile)) return { file, key: (await import('node:fs')).readFileSync(keyFile, 'utf8') };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = new SqliteStore(file);
  await store.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
  const { key } = await createApiKey(store, 'bench');
  const now = Date.now() * 1000;
  const t0 = performance.now();
  let writes: CallWrite[] = [];
  for (let i = 0; i < CALLS; i++) {
    const id = uuidv7();
    const startedAt = now - 7 * DAY_US + Math.floor((i / CALLS) * 7 * DAY_US);
    const threadId = i % 3 === 0 ? `thread-${i % THREADS}` : null;
    writes.push(
      {
        kind: 'start',
        projectId: PROJECT,
        id,
        traceId: id,
        parentId: null,
        threadId,
        turnId: threadId ? id : null,
        opName: `weave:///${PROJECT}/op/${['chat', 'retrieve', 'answer', 'classify'][i % 4]}:abc`,
        displayName: null,
        startedAt,
        attributesJson: '{"env":"prod"}',
        inputsJson: JSON.stringify({ question: `Where is my order #${100000 + i}?`, model: 'gpt-4o-mini' }),
        otelDumpJson: null,
        inputRefs: [],
        wbUserId: null,
        wbRunId: null,
        wbRunStep: null,
      },
      {
        kind: 'end',
        projectId: PROJECT,
        id,
        endedAt: startedAt + 200_000 + (i % 900) * 1000,
        exception: i % 50 === 0 ? 'TimeoutError' : null,
        outputJson: JSON.stringify({ answer: `Order #${100000 + i} shipped on Monday.` }),
        summaryJson: JSON.stringify({
          usage: { 'gpt-4o-mini': { prompt_tokens: 52, completion_tokens: 31, total_tokens: 83, requests: 1 } },
        }),
        outputRefs: [],
        wbRunStepEnd: null,
      },
    );
    if (writes.length >= 10_000) {
      await store.calls.writeCalls(writes);
      writes = [];
    }
  }
  if (writes.length) await store.calls.writeCalls(writes);
  await store.close();
  (await import('node:fs')).writeFileSync(keyFile, key);
  console.log(`prepared ${CALLS} calls in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})`);
  return { file, key };
}

type Kind = 'call/start' | 'call/end' | 'calls/stream_query' | 'threads/stream_query' | 'calls/stats' | '/health';
const READS: Kind[] = ['calls/stream_query', 'threads/stream_query', 'calls/stats'];

async function run(): Promise<void> {
  const { file, key } = await prepare();
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-load-run-'));
  copyFileSync(file, join(dataDir, 'weft.sqlite'));
  const server = await spawnWeft(dataDir, {
    serverDir: values['server-dir'],
    args: ['--workers', values.workers],
    env: envFromString(process.env.BENCH_SERVER_ENV),
  });
  const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  // One keep-alive connection per looping client, as fetch would hold, at a fraction of its CPU.
  const send = leanFetch(CONNECTIONS);
  const latencies = new Map<Kind, number[]>();
  const errors = new Map<Kind, number>();
  const samples: string[] = [];
  // Only requests sent once the warm-up is over count.
  let measureFrom = Infinity;
  const record = (kind: Kind, ms: number) => (latencies.get(kind) ?? latencies.set(kind, []).get(kind)!).push(ms);
  const fail = (kind: Kind, sample: string) => {
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
    if (samples.length < 5) samples.push(`${kind} ${sample}`);
  };
  const post = async (kind: Kind, body: unknown): Promise<void> => {
    const t = performance.now();
    const counted = t >= measureFrom;
    try {
      const res = await send(`${server.url}/${kind}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (!counted) return;
      if (!res.ok) fail(kind, `${res.status} ${text.slice(0, 200)}`);
      else record(kind, performance.now() - t);
    } catch (err) {
      if (counted) fail(kind, `${(err as Error).message} ${((err as Error).cause as Error | undefined)?.message ?? ''}`);
    }
  };
  const now = () => new Date().toISOString();
  const loops: Record<string, () => Promise<void>> = {
    write: async () => {
      const id = uuidv7();
      await post('call/start', {
        start: { project_id: PROJECT, id, trace_id: id, op_name: 'load.op', started_at: now(), attributes: {}, inputs: { q: 'load' } },
      });
      await post('call/end', { end: { project_id: PROJECT, id, ended_at: now(), output: { a: 'ok' }, summary: {} } });
    },
    calls: () =>
      post('calls/stream_query', {
        project_id: PROJECT,
        filter: { trace_roots_only: true },
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit: 100,
        columns: ['id', 'op_name', 'started_at', 'ended_at', 'exception', 'summary', 'display_name'],
      }),
    threads: () =>
      post('threads/stream_query', { project_id: PROJECT, limit: 50, sort_by: [{ field: 'last_updated', direction: 'desc' }] }),
    stats: () =>
      post('calls/stats', {
        project_id: PROJECT,
        start: new Date(Date.now() - 7 * 86_400_000).toISOString(),
        granularity: 3600,
        call_metrics: [
          { metric: 'latency_ms', aggregations: ['avg'], percentiles: [50, 99] },
          { metric: 'error_count', aggregations: ['sum'] },
        ],
        usage_metrics: [{ metric: 'total_tokens', aggregations: ['sum'] }],
      }),
  };
  // Two of five connections write (a start then an end); the rest read, evenly.
  const roles = Array.from({ length: CONNECTIONS }, (_, i) => (['write', 'write', 'calls', 'threads', 'stats'] as const)[i % 5]!);
  // Each read alone first (not counted): its server CPU bounds what the reads' goal can ask of
  // this machine (printed at the end).
  const readRoles = { 'calls/stream_query': 'calls', 'threads/stream_query': 'threads', 'calls/stats': 'stats' } as const;
  const aloneCpu = new Map<Kind, number>();
  for (const kind of READS) {
    const loop = loops[readRoles[kind as keyof typeof readRoles]]!;
    // Warmed up first: a fresh server's first reads also compile its code.
    for (let i = 0; i < ALONE_RUNS; i++) await loop();
    const before = server.cpu().process;
    for (let i = 0; i < ALONE_RUNS; i++) await loop();
    aloneCpu.set(kind, (server.cpu().process - before) / ALONE_RUNS);
  }
  // Warm-up, not counted: one of each (the first threads start), then the full load for a few
  // seconds, so the server's thread pools grow to their size before the measured seconds (a
  // thread's start-up is seconds of CPU: it belongs to the first burst after a restart, not to
  // the steady state measured here). The load runs on into the measured seconds without a break:
  // a pause would let the server close idle keep-alive connections under the clients.
  for (const role of new Set(roles)) await loops[role]!();
  const warmedUp = performance.now() + WARMUP_SECONDS * 1000;
  const deadline = warmedUp + SECONDS * 1000;
  const running = Promise.all(
    roles.map(async (role) => {
      while (performance.now() < deadline) await loops[role]!();
    }),
  );
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  const load = [1, 5, 15].map((_, i) => loadavg()[i]!.toFixed(2)).join(' ');
  const cpuBefore = server.cpu();
  const t0 = performance.now();
  measureFrom = t0;
  const probe = probeHealth(`${server.url}/health`);
  await running;
  const probed = await probe.stop();
  latencies.set('/health', probed.ok);
  if (probed.errors) errors.set('/health', probed.errors);
  const elapsed = (performance.now() - t0) / 1000;
  const cpuAfter = server.cpu();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });

  console.log(
    `\nbench:load  ${CALLS} calls, ${CONNECTIONS} connections, ${SECONDS} s, --workers ${values.workers}, server ${resolve(values['server-dir'])} ${process.env.BENCH_SERVER_ENV ?? ''}`,
  );
  console.log(`load average before the run: ${load}\n`);
  console.log('endpoint               req/s    p50 ms    p99 ms    max ms   >10 s  errors   goal');
  let totalErrors = 0;
  for (const kind of ['call/start', 'call/end', 'calls/stream_query', 'threads/stream_query', 'calls/stats', '/health'] as Kind[]) {
    const xs = (latencies.get(kind) ?? []).sort((a, b) => a - b);
    const errs = errors.get(kind) ?? 0;
    totalErrors += errs;
    const goal = kind === '/health' ? 'p99 ≤ 50 ms' : READS.includes(kind) ? 'p99 ≤ 500 ms' : '';
    const p99 = percentile(xs, 0.99);
    const met = goal ? (p99 <= (kind === '/health' ? 50 : 500) ? ' ✓' : ' ✗') : '';
    console.log(
      `${kind.padEnd(22)} ${(xs.length / elapsed).toFixed(1).padStart(6)} ${percentile(xs, 0.5).toFixed(0).padStart(9)} ${p99.toFixed(0).padStart(9)} ${(xs.at(-1) ?? NaN).toFixed(0).padStart(9)} ${String(xs.filter((x) => x > 10_000).length).padStart(7)} ${String(errs).padStart(7)}   ${goal}${met}`,
    );
  }
  const total = [...latencies.entries()].filter(([k]) => k !== '/health').reduce((n, [, xs]) => n + xs.length, 0);
  console.log(`\nall API requests: ${(total / elapsed).toFixed(1)} req/s; errors: ${totalErrors} (goal 0)${totalErrors ? ' ✗' : ' ✓'}`);
  // CPU per request hardly depends on the machine's other load, so it compares servers run at different moments.
  const cpuMs = (seconds: number) => ((seconds * 1000) / Math.max(1, total)).toFixed(2);
  const mainCpu = cpuAfter.main - cpuBefore.main;
  console.log(
    `server CPU per API request: ${cpuMs(cpuAfter.process - cpuBefore.process)} ms (all threads), ${cpuMs(mainCpu)} ms on the main thread (busy ${((100 * mainCpu) / elapsed).toFixed(0)}% of the run)`,
  );
  for (const s of samples) console.log(`  e.g. ${s}`);
  // A closed loop's mean wait is its connections over its rate (Little's law), and the p99 is at
  // least the mean: the reads' goal needs this many reads per second, whatever the server does.
  const perKind = roles.filter((r) => r === 'calls').length;
  const needed = perKind / 0.5;
  const cores = READS.reduce((n, kind) => n + needed * aloneCpu.get(kind)!, 0);
  console.log(
    `\neach read alone (${ALONE_RUNS} in a row after as many unmeasured, before the load): ${READS.map((k) => `${k} ${(aloneCpu.get(k)! * 1000).toFixed(1)} ms`).join(', ')} of server CPU`,
  );
  console.log(
    `p99 ≤ 500 ms with ${perKind} connections looping on each read needs ≥ ${needed} reads/s of each: ${cores.toFixed(1)} cores of server CPU for the reads alone (this machine has ${availableParallelism()})`,
  );
}

await run();
