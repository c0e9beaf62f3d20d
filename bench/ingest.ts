/**
 * Ingest benchmark: how close does `/call/upsert_batch` over HTTP come to the physical limit,
 * a raw better-sqlite3 insert of the same rows into the same schema?
 *
 *   npm run bench:ingest [-- --calls 50000 --batch 500 --concurrency 4]
 *
 * The server runs as a separate process (`weft serve` on a temporary data directory); this
 * process generates realistic ~1 KB calls (start + end of each), sends them, and then
 * inserts the very same rows with a prepared statement in transactions of the same size.
 * It prints both rates and their ratio (the goal is at least 0.7 with one process), and the CPU
 * time per call of each side: wall-clock rates swing with the machine's other load, CPU time
 * hardly does, so the CPU ratio compares two runs (or two checkouts: --server-dir) fairly.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../src/client/index.js';
import type { CallUpsertBatchReq } from '../src/contract/calls.js';
import type { z } from 'zod';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { parseIsoToMicros } from '../src/server/core/datetime.js';
import { uuidv7 } from '../src/server/core/ids.js';
import { migrations } from '../src/server/store/sqlite/migrations/index.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { spawnWeft } from './lib.js';

type BatchItem = z.input<typeof CallUpsertBatchReq>['batch'][number];

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '50000' },
    batch: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '4' },
    workers: { type: 'string', default: '1,2' },
    'server-dir': { type: 'string', default: '.' },
  },
});
const CALLS = Number(values.calls);
const BATCH_CALLS = Number(values.batch);
const CONCURRENCY = Number(values.concurrency);
/** Server process counts to measure (`weft serve --workers N`), e.g. "1,2". */
const WORKER_COUNTS = values.workers.split(',').map(Number);
const PROJECT = 'bench/ingest';

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

function makeBatches(): BatchItem[][] {
  const batches: BatchItem[][] = [];
  let current: BatchItem[] = [];
  let traceId = uuidv7();
  let rootId: string | null = null;
  for (let i = 0; i < CALLS; i++) {
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

async function benchServer(batches: BatchItem[][], workers: number): Promise<{ rate: number; cpuPerCall: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const setup = new SqliteStore(join(dataDir, 'weft.sqlite'));
  await setup.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
  const { key } = await createApiKey(setup, 'bench');
  await setup.close();
  const server = await spawnWeft(dataDir, { args: ['--workers', String(workers)], serverDir: values['server-dir'] });
  try {
    const client = createClient({ baseUrl: server.url, auth: { username: 'api', password: key } });
    await client.callUpsertBatch({ batch: batches[0]!.slice(0, 2) }); // warm up auth and statements
    const bodies = batches.map((batch) => JSON.stringify({ batch }));
    let next = 0;
    const cpu0 = server.cpu().process;
    const t0 = performance.now();
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
    const seconds = (performance.now() - t0) / 1000;
    // The cluster's worker processes are children of this one: with --workers > 1 only the primary is counted.
    const cpu = server.cpu().process - cpu0;
    const { count } = await client.callsQueryStats({ project_id: PROJECT });
    if (count < CALLS) throw new Error(`only ${count} of ${CALLS} calls stored`);
    return { rate: CALLS / seconds, cpuPerCall: workers === 1 ? cpu / CALLS : NaN };
  } finally {
    server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The physical limit: the same rows, one merged row per call, straight into SQLite. */
function benchRawInsert(batches: BatchItem[][]): { rate: number; cpuPerCall: number } {
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
        const s = (batch[i] as Extract<BatchItem, { mode: 'start' }>).req.start;
        const e = (batch[i + 1] as Extract<BatchItem, { mode: 'end' }>).req.end;
        insert.run(
          PROJECT,
          s.id,
          s.trace_id,
          s.parent_id,
          s.op_name,
          'openai.chat.completions.create',
          parseIsoToMicros(s.started_at),
          JSON.stringify(s.attributes),
          JSON.stringify(s.inputs),
          parseIsoToMicros(e.ended_at),
          JSON.stringify(e.output),
          JSON.stringify(e.summary),
          'bench',
        );
      }
    })();
  }
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const cpu = process.cpuUsage(cpu0);
  return { rate: CALLS / seconds, cpuPerCall: (cpu.user + cpu.system) / 1e6 / CALLS };
}

const batches = makeBatches();
const bytesPerCall = JSON.stringify(batches[0]).length / (batches[0]!.length / 2);
console.log(
  `Ingest: ${CALLS} calls of ~${Math.round(bytesPerCall)} bytes (start + end), ${BATCH_CALLS} calls per request, ${CONCURRENCY} requests in flight`,
);
const raw = benchRawInsert(batches);
const µs = (seconds: number) => `${(seconds * 1e6).toFixed(0)} µs CPU/call`;
console.log(`raw better-sqlite3 insert             : ${Math.round(raw.rate).toLocaleString('en')} calls/s   ${µs(raw.cpuPerCall)}`);
for (const workers of WORKER_COUNTS) {
  const { rate, cpuPerCall } = await benchServer(batches, workers);
  const label = `weft over HTTP, ${workers} process${workers > 1 ? 'es' : ''}`.padEnd(37);
  const goal = workers === 1 ? ` (goal ≥ 0.7${rate / raw.rate >= 0.7 ? ' ✓' : ' ✗'})` : '';
  const cpu = Number.isNaN(cpuPerCall) ? '' : `   ${µs(cpuPerCall)}, CPU ratio ${(raw.cpuPerCall / cpuPerCall).toFixed(2)}`;
  console.log(`${label} : ${Math.round(rate).toLocaleString('en')} calls/s   ratio ${(rate / raw.rate).toFixed(2)}${goal}${cpu}`);
}
