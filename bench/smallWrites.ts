/**
 * Small writes: clients that send one call part per request (a call start, then its end, each a
 * request of its own, as EvaluationLoggerV2, OTel exporters without batching and `/call/start`
 * users do), on SQLite and on ClickHouse in one run, so the ratio compares like with like on
 * the same machine at the same moment. Goal: ClickHouse at ≥ 0.8 of SQLite's requests/s.
 *
 *   npm run bench:smallwrites [-- --clients 16 --seconds 8 --warmup 2 --modes group,spool,async,direct]
 *
 * Each server is a separate `weft serve` process on a fresh dataset (bench/backend.ts); the
 * ClickHouse ones share one engine, a database each, and run once per way of writing small
 * requests (WEFT_CLICKHOUSE_SMALL_WRITES, docs/clickhouse.md "Small writes"): `group` (the
 * server's group commit), `spool` (acknowledged from a local file, flushed in batches),
 * `async` (ClickHouse's async_insert with wait_for_async_insert=1) and `direct` (each request
 * its own INSERTs, as before). Every answer is a 200: an acknowledged write is stored (in the
 * engine, or in the spool, which the final count's read flushes first), so the count at the
 * end must equal the starts acknowledged.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { uuidv7 } from '../src/server/core/ids.js';
import type { ClickHouseStore } from '../src/server/store/clickhouse/ClickHouseStore.js';
import { startBenchBackend, type BenchBackend } from './backend.js';
import { leanFetch } from './leanFetch.js';
import { percentile, serverCpu, spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    modes: { type: 'string', default: 'group,spool,async,direct' },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const MODES = values.modes.split(',').filter(Boolean);
const PROJECT = 'bench/small-writes';
const GOAL = 0.8;

interface Outcome {
  label: string;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  sample: string;
  /** Calls the server reads back as started, against the starts it acknowledged. */
  stored: number;
  acknowledgedStarts: number;
  serverCpuMs: number;
  engineCpuMs: number | null;
}

async function measure(backend: BenchBackend, label: string, name: string, env: Record<string, string>): Promise<Outcome> {
  const dataset = await backend.dataset(name);
  await dataset.store.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
  const { key } = await createApiKey(dataset.store, 'bench');
  await dataset.store.close();
  const server = await spawnWeft(dataset.dataDir, { env: { ...dataset.env, ...env } });
  const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  const send = leanFetch(CLIENTS);
  const latencies: number[] = [];
  let errors = 0;
  let sample = '';
  let acknowledgedStarts = 0;
  let measureFrom = Infinity;
  const post = async (path: string, body: unknown): Promise<boolean> => {
    const t = performance.now();
    const res = await send(`${server.url}/${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch((err: Error) => err);
    const text = res instanceof Error ? res.message : await res.text();
    const ok = !(res instanceof Error) && res.ok;
    if (t >= measureFrom) {
      if (ok) latencies.push(performance.now() - t);
      else {
        errors++;
        sample ||= `${path}: ${res instanceof Error ? '' : res.status} ${text.slice(0, 200)}`;
      }
    }
    return ok;
  };
  const now = () => new Date().toISOString();
  const deadline = performance.now() + (WARMUP + SECONDS) * 1000;
  const loops = Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < deadline) {
      const id = uuidv7();
      const start = {
        project_id: PROJECT,
        id,
        trace_id: id,
        op_name: 'bench.op',
        started_at: now(),
        attributes: {},
        inputs: { q: 'one part' },
      };
      if (await post('call/start', { start })) acknowledgedStarts++;
      await post('call/end', { end: { project_id: PROJECT, id, ended_at: now(), output: { a: 'ok' }, summary: {} } });
    }
  });
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  const cpu0 = server.cpu().process;
  const engine0 = backend.enginePid ? serverCpu(backend.enginePid).process : null;
  const t0 = performance.now();
  measureFrom = t0;
  await Promise.all(loops);
  const elapsed = (performance.now() - t0) / 1000;
  const serverCpuMs = ((server.cpu().process - cpu0) * 1000) / Math.max(1, latencies.length);
  const engineCpuMs = engine0 === null ? null : ((serverCpu(backend.enginePid!).process - engine0) * 1000) / Math.max(1, latencies.length);
  const count = await send(`${server.url}/calls/query_stats`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: PROJECT }),
  });
  const stored = ((await count.json()) as { count: number }).count;
  await server.stop();
  latencies.sort((a, b) => a - b);
  return {
    label,
    rate: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
    sample,
    stored,
    acknowledgedStarts,
    serverCpuMs,
    engineCpuMs,
  };
}

async function run(): Promise<void> {
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const outcomes: Outcome[] = [];
  const sqlite = await startBenchBackend('sqlite');
  try {
    outcomes.push(await measure(sqlite, 'sqlite', 'sqlite', {}));
  } finally {
    await sqlite.close();
  }
  const clickhouse = await startBenchBackend('clickhouse');
  let insertCost: string[];
  try {
    for (const mode of MODES) {
      outcomes.push(await measure(clickhouse, `clickhouse ${mode}`, `small_${mode}`, { WEFT_CLICKHOUSE_SMALL_WRITES: mode }));
    }
    insertCost = await engineCostPerInsert(clickhouse);
  } finally {
    await clickhouse.close();
  }
  const base = outcomes[0]!.rate;
  console.log(`\nbench:smallwrites  ${CLIENTS} clients, one call part per request, ${SECONDS} s after ${WARMUP} s warm-up`);
  console.log(`load average before the run: ${load}\n`);
  console.log(
    'store                 req/s   p50 ms   p99 ms  errors  server CPU ms/req  engine CPU ms/req  stored/acked  × SQLite (goal ≥ 0.8)',
  );
  for (const o of outcomes) {
    const ratio = o.rate / base;
    const verdict = o.label === 'sqlite' ? '' : `${ratio.toFixed(2)} ${ratio >= GOAL ? '✓' : '✗'}`;
    console.log(
      `${o.label.padEnd(20)} ${o.rate.toFixed(0).padStart(6)} ${o.p50.toFixed(1).padStart(8)} ${o.p99.toFixed(1).padStart(8)} ${String(o.errors).padStart(7)} ${o.serverCpuMs.toFixed(2).padStart(18)} ${(o.engineCpuMs === null ? '' : o.engineCpuMs.toFixed(2)).padStart(18)} ${`${o.stored}/${o.acknowledgedStarts}`.padStart(13)}  ${verdict}`,
    );
    if (o.sample) console.log(`  first error: ${o.sample}`);
  }
  console.log(`\nthe engine's CPU per INSERT into calls, 20 in a row each (what a group commit spreads over its requests):`);
  for (const line of insertCost) console.log(`  ${line}`);
}

/** Engine CPU per INSERT of 1 and of 16 call starts, straight through the store's connection. */
async function engineCostPerInsert(backend: BenchBackend): Promise<string[]> {
  const dataset = await backend.dataset('small_insert_cost');
  const db = (dataset.store as ClickHouseStore).db;
  const row = () => {
    const id = uuidv7();
    return {
      project_id: PROJECT,
      id,
      trace_id: id,
      op_name: 'bench.op',
      started_at: Date.now() * 1000,
      inputs: '{}',
      attributes: '{}',
      part_ts: 0,
    };
  };
  const lines: string[] = [];
  try {
    for (const rows of [1, 16]) {
      const cpu0 = serverCpu(backend.enginePid!).process;
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) await db.insert('calls', Array.from({ length: rows }, row));
      const cpuMs = ((serverCpu(backend.enginePid!).process - cpu0) * 1000) / 20;
      lines.push(
        `${String(rows).padStart(2)} row(s): ${cpuMs.toFixed(1)} ms of engine CPU, ${((performance.now() - t0) / 20).toFixed(1)} ms wall`,
      );
    }
  } finally {
    await dataset.store.close();
  }
  return lines;
}

await run();
