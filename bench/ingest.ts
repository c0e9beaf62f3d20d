/**
 * Ingest benchmark: how close does `/call/upsert_batch` over HTTP come to the physical limit,
 * a raw insert of the same rows into the same schema (SQLite: better-sqlite3 in this process;
 * ClickHouse: `@clickhouse/client` into a database migrated like Weft's, with the same batch
 * size and requests in flight, to the same engine)?
 *
 *   npm run bench:ingest [-- --store clickhouse --calls 50000 --batch 500 --concurrency 4]
 *
 * The server runs as a separate process (`weft serve` on a temporary data directory); this
 * process generates realistic ~1 KB calls (start + end of each), sends them (after a warm-up
 * of other calls, unmeasured: steady-state ingest is what is compared), and then
 * inserts the very same rows with a prepared statement in transactions of the same size.
 * It prints both rates and their ratio (the goal is at least 0.7 with one process on SQLite,
 * 0.5 on ClickHouse), and the CPU time per call of each side: wall-clock rates swing with the
 * machine's other load, CPU time hardly does, so the CPU ratio compares two runs (or two
 * checkouts: --server-dir) fairly. On ClickHouse the engine's CPU per call is printed too.
 */
import { createClient as createClickHouseClient } from '@clickhouse/client';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../src/client/index.js';
import type { CallUpsertBatchReq } from '../src/contract/calls.js';
import type { z } from 'zod';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { addRule } from '../src/server/domain/redaction/rules.js';
import { parseIsoToMicros } from '../src/server/core/datetime.js';
import { uuidv7 } from '../src/server/core/ids.js';
import { RESULT_SETTINGS } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import { migrations } from '../src/server/store/sqlite/migrations/index.js';
import { benchStoreKind, loadAverage, startBenchBackend, STORE_OPTION, type BenchBackend, type BenchDataset } from './backend.js';
import { bulkInsertCalls, sqlString, type CallsGenerator } from './bulkCalls.js';
import { serverCpu, spawnWeft } from './lib.js';

type BatchItem = z.input<typeof CallUpsertBatchReq>['batch'][number];

const { values } = parseArgs({
  options: {
    ...STORE_OPTION,
    calls: { type: 'string', default: '50000' },
    batch: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '4' },
    workers: { type: 'string', default: '1,2' },
    'server-dir': { type: 'string', default: '.' },
    // Redaction rules in force in the project (docs/security/redaction.md): the three built-ins
    // and three key names. The calls carry no secrets, so this measures the common case.
    redaction: { type: 'boolean', default: false },
    // ClickHouse: calls the engine makes in the project first (bulkCalls.ts), so the measured
    // calls land in a big project: --prefill 9900000 --calls 100000 is the 10M run.
    prefill: { type: 'string', default: '0' },
  },
});
const PREFILL = Number(values.prefill);
const CALLS = Number(values.calls);
const BATCH_CALLS = Number(values.batch);
const CONCURRENCY = Number(values.concurrency);
/** Server process counts to measure (`weft serve --workers N`), e.g. "1,2". */
const WORKER_COUNTS = values.workers.split(',').map(Number);
const PROJECT = 'bench/ingest';
/** Calls sent before the measured run (two batches per request in flight). */
const WARMUP_CALLS = 2 * CONCURRENCY * BATCH_CALLS;

/** One realistic LLM call of about 1 KB: chat messages in, a completion out, token usage. */
function makeCall(i: number, traceId: string, parentId: string | null): [BatchItem, BatchItem] {
  const id = uuidv7();
  const started = Date.UTC(2026, 0, 1) + i * 37;
  const startedAt = new Date(started).toISOString();
  const endedAt = new Date(started + 200 + (i % 900)).toISOString();
  return [
    {
      mode: 'start',
      req: {
        start: {
          project_id: PROJECT,
          id,
          trace_id: traceId,
          parent_id: parentId,
          op_name: `weave:///${PROJECT}/op/openai.chat.completions.create:9f8e7d6c5b4a39281706f5e4d3c2b1a0`,
          started_at: startedAt,
          attributes: { weave: { client_version: '0.51.0', source: 'python-sdk', os_name: 'Linux' }, env: 'prod' },
          inputs: {
            model: 'gpt-4o-mini',
            temperature: 0.2,
            messages: [
              { role: 'system', content: 'You are a helpful assistant that answers questions about orders.' },
              { role: 'user', content: `Where is my order #${100000 + i}? It was supposed to arrive yesterday and I still have nothing.` },
            ],
          },
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: PROJECT,
          id,
          ended_at: endedAt,
          output: {
            id: `chatcmpl-${i}`,
            model: 'gpt-4o-mini-2024-07-18',
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                message: {
                  role: 'assistant',
                  content: `Order #${100000 + i} shipped on Monday and is with the courier; it should arrive today before 6 pm.`,
                },
              },
            ],
          },
          summary: {
            usage: { 'gpt-4o-mini': { prompt_tokens: 52 + (i % 40), completion_tokens: 31, total_tokens: 83 + (i % 40), requests: 1 } },
          },
        },
      },
    },
  ];
}

/** Calls like makeCall's (the same payloads, an hour before them), as SQL over the row number n: the prefill. */
function prefillGenerator(): CallsGenerator {
  const [start, end] = makeCall(0, 'trace', null);
  const s = (start as Extract<BatchItem, { mode: 'start' }>).req.start;
  const e = (end as Extract<BatchItem, { mode: 'end' }>).req.end;
  return {
    aliases: [`concat('p', toString(intDiv(n, 5) * 5)) AS trace`, `toInt64(${(Date.UTC(2026, 0, 1) - 3_600_000) * 1000} + n * 37) AS t`],
    columns: {
      project_id: sqlString(PROJECT),
      id: "concat('p', toString(n))",
      trace_id: 'trace',
      parent_id: 'if(n % 5 = 0, NULL, trace)',
      thread_id: "CAST(NULL, 'Nullable(String)')",
      turn_id: "CAST(NULL, 'Nullable(String)')",
      op_name: sqlString(s.op_name),
      started_at: 't',
      attributes: sqlString(JSON.stringify(s.attributes)),
      inputs: sqlString(JSON.stringify(s.inputs)),
      ended_at: 't + 200000 + (n % 900) * 1000',
      exception: "CAST(NULL, 'Nullable(String)')",
      output: sqlString(JSON.stringify(e.output)),
      summary: sqlString(JSON.stringify(e.summary)),
    },
  };
}

/** Fills the dataset's project with PREFILL calls made by the engine (ClickHouse only). */
async function prefill(dataset: BenchDataset): Promise<void> {
  if (PREFILL <= 0) return;
  if (!dataset.clickhouse) throw new Error('--prefill needs --store clickhouse');
  await bulkInsertCalls(dataset, PROJECT, prefillGenerator(), 0, PREFILL);
}

function makeBatches(calls: number): BatchItem[][] {
  const batches: BatchItem[][] = [];
  let current: BatchItem[] = [];
  let traceId = uuidv7();
  let rootId: string | null = null;
  for (let i = 0; i < calls; i++) {
    if (i % 5 === 0) {
      traceId = uuidv7();
      rootId = null;
    }
    const [start, end] = makeCall(i, traceId, rootId);
    if (rootId === null && start.mode === 'start') rootId = start.req.start.id ?? null;
    current.push(start, end);
    if (current.length >= BATCH_CALLS * 2) {
      batches.push(current);
      current = [];
    }
  }
  if (current.length) batches.push(current);
  return batches;
}

interface IngestResult {
  rate: number;
  /** CPU seconds per call of Weft's process (or of the raw inserting process). */
  cpuPerCall: number;
  /** Of which on Weft's main thread (the writer; NaN for the raw insert). */
  mainCpuPerCall: number;
  /** CPU seconds per call of the ClickHouse engine (NaN on SQLite). */
  engineCpuPerCall: number;
}

/** CPU seconds the ClickHouse engine has used so far (NaN on SQLite). */
const engineCpu = (backend: BenchBackend) => (backend.enginePid ? serverCpu(backend.enginePid).process : NaN);

async function benchServer(backend: BenchBackend, batches: BatchItem[][], workers: number): Promise<IngestResult> {
  const warmup = makeBatches(WARMUP_CALLS);
  const dataset = await backend.dataset(`bench_ingest_${workers}`);
  await prefill(dataset);
  await dataset.store.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
  const { key } = await createApiKey(dataset.store, 'bench');
  if (values.redaction) {
    for (const rule of [
      { pattern: 'email' },
      { pattern: 'credit_card' },
      { pattern: 'api_key' },
      { key: 'authorization' },
      { key: 'api_key' },
      { key: 'password' },
    ])
      await addRule(dataset.store, { scope: PROJECT, ...rule, createdBy: 'bench', now: Date.now() * 1000 });
  }
  await dataset.store.close();
  const server = await spawnWeft(dataset.dataDir, {
    args: ['--workers', String(workers)],
    serverDir: values['server-dir'],
    env: dataset.env,
  });
  try {
    const client = createClient({ baseUrl: server.url, auth: { username: 'api', password: key } });
    const send = async (bodies: string[]) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++]!;
            const res = await fetch(`${server.url}/call/upsert_batch`, {
              method: 'POST',
              headers: { authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`, 'content-type': 'application/json' },
              body,
            });
            if (!res.ok) throw new Error(`upsert_batch answered ${res.status}: ${await res.text()}`);
            await res.arrayBuffer();
          }
        }),
      );
    };
    // Warm-up, unmeasured: other calls, two batches per request in flight, so the server's
    // request threads have started and its write path is compiled before the clock starts.
    await send(warmup.map((batch) => JSON.stringify({ batch })));
    const bodies = batches.map((batch) => JSON.stringify({ batch }));
    const cpu0 = server.cpu();
    const engine0 = engineCpu(backend);
    const t0 = performance.now();
    await send(bodies);
    const seconds = (performance.now() - t0) / 1000;
    // The cluster's worker processes are children of this one: with --workers > 1 only the primary is counted.
    const cpu1 = server.cpu();
    const cpu = cpu1.process - cpu0.process;
    const engineCpuPerCall = (engineCpu(backend) - engine0) / CALLS;
    const { count } = await client.callsQueryStats({ project_id: PROJECT });
    if (count < PREFILL + CALLS + WARMUP_CALLS) throw new Error(`only ${count} of ${PREFILL + CALLS + WARMUP_CALLS} calls stored`);
    return {
      rate: CALLS / seconds,
      cpuPerCall: workers === 1 ? cpu / CALLS : NaN,
      mainCpuPerCall: workers === 1 ? (cpu1.main - cpu0.main) / CALLS : NaN,
      engineCpuPerCall,
    };
  } finally {
    await server.stop();
  }
}

/** The columns of one call's merged row, as a raw insert writes them. */
function mergedRow(batch: BatchItem[], i: number) {
  const s = (batch[i] as Extract<BatchItem, { mode: 'start' }>).req.start;
  const e = (batch[i + 1] as Extract<BatchItem, { mode: 'end' }>).req.end;
  return {
    project_id: PROJECT,
    id: s.id!,
    trace_id: s.trace_id!,
    parent_id: s.parent_id ?? null,
    op_name: s.op_name,
    op_base_name: 'openai.chat.completions.create',
    started_at: parseIsoToMicros(s.started_at),
    attributes: JSON.stringify(s.attributes),
    inputs: JSON.stringify(s.inputs),
    ended_at: parseIsoToMicros(e.ended_at),
    output: JSON.stringify(e.output),
    summary: JSON.stringify(e.summary),
    wb_user_id: 'bench',
  };
}

/** The physical limit: the same rows, one merged row per call, straight into SQLite. */
function benchRawSqliteInsert(batches: BatchItem[][]): IngestResult {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-raw-'));
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const m of migrations) db.exec(m.sql);
  const insert = db.prepare(`INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at,
    attributes, inputs, ended_at, output, summary, wb_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const batch of batches) {
    db.transaction(() => {
      for (let i = 0; i < batch.length; i += 2) {
        const r = mergedRow(batch, i);
        insert.run(
          r.project_id,
          r.id,
          r.trace_id,
          r.parent_id,
          r.op_name,
          r.op_base_name,
          r.started_at,
          r.attributes,
          r.inputs,
          r.ended_at,
          r.output,
          r.summary,
          r.wb_user_id,
        );
      }
    })();
  }
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const cpu = process.cpuUsage(cpu0);
  return { rate: CALLS / seconds, cpuPerCall: (cpu.user + cpu.system) / 1e6 / CALLS, mainCpuPerCall: NaN, engineCpuPerCall: NaN };
}

/**
 * The physical limit on ClickHouse: the same merged rows (with the stamps Weft adds) inserted
 * with @clickhouse/client, as many calls per insert and as many inserts in flight as the HTTP
 * run, with Weft's insert settings (synchronous, deduplicated).
 */
async function benchRawClickHouseInsert(backend: BenchBackend, batches: BatchItem[][]): Promise<IngestResult> {
  const dataset: BenchDataset = await backend.dataset('bench_ingest_raw');
  await prefill(dataset);
  await dataset.store.close();
  const client = createClickHouseClient({ url: dataset.clickhouse!.url, database: dataset.clickhouse!.database });
  const cpu0 = process.cpuUsage();
  const engine0 = engineCpu(backend);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const values = [];
        const now = Date.now() * 1000;
        for (let i = 0; i < batch.length; i += 2) {
          const row = mergedRow(batch, i);
          // Weft's row also carries when each part arrived (the monitor sweeper's stamps).
          values.push({ ...row, part_ts: row.started_at, start_seen_at: now, end_seen_at: now });
        }
        await client.insert({ table: 'calls', values, format: 'JSONEachRow', clickhouse_settings: RESULT_SETTINGS });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const engineCpuPerCall = (engineCpu(backend) - engine0) / CALLS;
  await client.close();
  return { rate: CALLS / seconds, cpuPerCall: (cpu.user + cpu.system) / 1e6 / CALLS, mainCpuPerCall: NaN, engineCpuPerCall };
}

const backend = await startBenchBackend(benchStoreKind(values.store));
try {
  const batches = makeBatches(CALLS);
  const bytesPerCall = JSON.stringify(batches[0]).length / (batches[0]!.length / 2);
  console.log(
    `Ingest on ${backend.kind}: ${CALLS} calls of ~${Math.round(bytesPerCall)} bytes (start + end), ${BATCH_CALLS} calls per request, ` +
      `${CONCURRENCY} requests in flight${PREFILL > 0 ? `, into a project of ${PREFILL.toLocaleString('en')} calls` : ''}; load average ${loadAverage()}`,
  );
  const raw = backend.kind === 'sqlite' ? benchRawSqliteInsert(batches) : await benchRawClickHouseInsert(backend, batches);
  const goalRatio = backend.kind === 'sqlite' ? 0.7 : 0.5;
  const µs = (seconds: number) => `${(seconds * 1e6).toFixed(0)} µs CPU/call`;
  const engine = (r: IngestResult) => (Number.isNaN(r.engineCpuPerCall) ? '' : `, engine ${µs(r.engineCpuPerCall)}`);
  const rawLabel = backend.kind === 'sqlite' ? 'raw better-sqlite3 insert' : 'raw @clickhouse/client insert';
  console.log(`${rawLabel.padEnd(37)} : ${Math.round(raw.rate).toLocaleString('en')} calls/s   ${µs(raw.cpuPerCall)}${engine(raw)}`);
  for (const workers of WORKER_COUNTS) {
    const result = await benchServer(backend, batches, workers);
    const { rate, cpuPerCall, mainCpuPerCall } = result;
    const label = `weft over HTTP, ${workers} process${workers > 1 ? 'es' : ''}`.padEnd(37);
    const goal = workers === 1 ? ` (goal ≥ ${goalRatio}${rate / raw.rate >= goalRatio ? ' ✓' : ' ✗'})` : '';
    // The main thread is the writer (group commit); the others are the request threads (parsing, validation), GC and the loader.
    const split = ` (main thread ${(mainCpuPerCall * 1e6).toFixed(0)}, other threads ${((cpuPerCall - mainCpuPerCall) * 1e6).toFixed(0)})`;
    const cpu = Number.isNaN(cpuPerCall) ? '' : `   ${µs(cpuPerCall)}${split}, CPU ratio ${(raw.cpuPerCall / cpuPerCall).toFixed(2)}`;
    console.log(
      `${label} : ${Math.round(rate).toLocaleString('en')} calls/s   ratio ${(rate / raw.rate).toFixed(2)}${goal}${cpu}${engine(result)}`,
    );
  }
  console.log(`load average ${loadAverage()}`);
} finally {
  await backend.close();
}
