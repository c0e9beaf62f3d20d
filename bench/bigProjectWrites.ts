/**
 * Does a big project cost a write more than an empty one (docs/security/writer.md)? One batch
 * of 5,000 calls (starts and ends, as the SDK sends them) through `/call/upsert_batch` into an
 * empty project and into one already holding `--calls` calls, on a `weft serve` with request
 * threads on; `/health` is probed meanwhile, since the writer is the main thread.
 *
 * `--ids v7` (the default) makes ids as the Python SDK does, UUIDv7, whose time prefix puts a new
 * batch after every older call in the id indexes. `--ids random` (UUIDv4, as OTel span ids and
 * older clients send) lands the batch's rows all over the project's indexes: the case where a big
 * project has the most pages to touch (docs/security/writer.md says what that costs). The big
 * project is written straight into the SQLite file (one INSERT ... SELECT per 100,000 rows of
 * ~1 KB), not over HTTP, which would take many minutes at a million; the rows and indexes are
 * the same.
 *
 *   npm run bench:bigwrites -- [--calls 1000000] [--batch 5000] [--runs 3] [--ids v7|random] [--server-dir DIR]
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { uuidv7 } from '../src/server/core/ids.js';
import { openStore } from '../src/server/store/openStore.js';
import { median, percentile, probeHealth, spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
    ids: { type: 'string', default: 'v7' },
    'server-dir': { type: 'string', default: '.' },
  },
});
const BIG_CALLS = Number(values.calls);
const BATCH_CALLS = Number(values.batch);
const RUNS = Number(values.runs);
const BIG = 'bench/big';
const CHUNK = 100_000;
if (values.ids !== 'v7' && values.ids !== 'random') throw new Error('--ids is v7 or random');
const RANDOM_IDS = values.ids === 'random';
const newId = () => (RANDOM_IDS ? randomUUID() : uuidv7());

/** One SDK-like call of about 1 KB: start and end. */
function call(projectId: string, i: number, traceId: string, parentId: string | null) {
  const id = newId();
  const started = Date.UTC(2026, 1, 1) + i * 37;
  return [
    {
      mode: 'start',
      req: {
        start: {
          project_id: projectId,
          id,
          trace_id: traceId,
          parent_id: parentId,
          op_name: `weave:///${projectId}/op/step${i % 20}:9f8e7d6c5b4a39281706f5e4d3c2b1a0`,
          started_at: new Date(started).toISOString(),
          attributes: { weave: { client_version: '0.51.0', source: 'python-sdk' } },
          inputs: { messages: [{ role: 'user', content: `Where is my order #${100000 + i}? ${'It has not arrived. '.repeat(12)}` }] },
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: projectId,
          id,
          ended_at: new Date(started + 200 + (i % 900)).toISOString(),
          output: { content: `Order #${100000 + i} shipped on Monday. ${'It is with the courier. '.repeat(12)}` },
          summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 52, completion_tokens: 31, total_tokens: 83, requests: 1 } } },
        },
      },
    },
  ];
}

/** A batch of `n` calls in 5-call traces. */
function batchOf(projectId: string, n: number): unknown[] {
  const out: unknown[] = [];
  let traceId = '';
  let rootId: string | null = null;
  for (let i = 0; i < n; i++) {
    if (i % 5 === 0) [traceId, rootId] = [newId(), null];
    const [start, end] = call(projectId, i, traceId, rootId);
    rootId ??= (start!.req as { start: { id: string } }).start.id;
    out.push(start, end);
  }
  return out;
}

/**
 * BIG_CALLS rows of ~1 KB in 5-call traces, in chunked transactions, on a connection of its own:
 * the stats charts do not count them (the server's writer journals only its own writes).
 */
function fillBigProject(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const run = (sql: string, params: unknown[]) => db.prepare(sql).run(...params);
  run("INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, 'bench', 0)", [BIG]);
  const t0 = Date.UTC(2025, 0, 1) * 1000;
  // Random ids: scattered through the key space (a multiplicative hash of the row number).
  // UUIDv7: the row's start in milliseconds first, all before the batch's (written now).
  const id = (expr: string) =>
    RANDOM_IDS
      ? `printf('%08x-0000-4000-8000-%012x', ((${expr}) * 2654435761) % 4294967296, ${expr})`
      : `printf('%08x-%04x-7000-8000-%012x', (${t0 / 1000} + (${expr}) * 37) / 65536, (${t0 / 1000} + (${expr}) * 37) % 65536, ${expr})`;
  for (let from = 0; from < BIG_CALLS; from += CHUNK) {
    db.transaction(() => {
      run(
        `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at, ended_at,
           attributes, inputs, output, summary, wb_user_id)
         SELECT ?, ${id('i')}, ${id('i - i % 5')}, CASE WHEN i % 5 = 0 THEN NULL ELSE ${id('i - i % 5')} END,
           'weave:///bench/big/op/step' || (i % 20) || ':9f8e7d6c5b4a39281706f5e4d3c2b1a0', 'step' || (i % 20),
           ? + i * 37000, ? + i * 37000 + 200000 + (i % 900) * 1000,
           '{"weave":{"client_version":"0.51.0","source":"python-sdk"}}',
           json_object('messages', json_array(json_object('role', 'user', 'content', 'Where is my order #' || i || '? ' || ?))),
           json_object('content', 'Order #' || i || ' shipped on Monday. ' || ?),
           '{"usage":{"gpt-4o-mini":{"prompt_tokens":52,"completion_tokens":31,"total_tokens":83,"requests":1}}}', 'bench'
         FROM n`,
        [from, Math.min(from + CHUNK, BIG_CALLS), BIG, t0, t0, 'It has not arrived. '.repeat(12), 'It is with the courier. '.repeat(12)],
      );
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-bigwrites-'));
  try {
    const store = await openStore({ kind: 'sqlite', dataDir });
    await store.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
    const { key } = await createApiKey(store, 'bench');
    await store.close();
    const built = performance.now();
    fillBigProject(join(dataDir, 'weft.sqlite'));
    console.log(`big project: ${BIG_CALLS.toLocaleString('en')} calls written in ${((performance.now() - built) / 1000).toFixed(1)} s`);

    const server = await spawnWeft(dataDir, { serverDir: values['server-dir'] });
    const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
    const send = async (projectId: string) => {
      const body = JSON.stringify({ batch: batchOf(projectId, BATCH_CALLS) });
      const probe = probeHealth(`${server.url}/health`);
      const t0 = performance.now();
      const res = await fetch(`${server.url}/call/upsert_batch`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      });
      if (!res.ok) throw new Error(`upsert_batch answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      const health = await probe.stop();
      return { ms, healthMax: health.ok.length ? health.ok.at(-1)! : NaN, healthP50: percentile(health.ok, 0.5) };
    };
    try {
      // Warm-up, unmeasured: the request threads start and the write path compiles.
      await send('bench/warmup');
      const rows: Record<string, { ms: number; healthMax: number }[]> = { empty: [], big: [] };
      // Alternating, each run into a fresh empty project and the (growing) big one.
      for (let r = 0; r < RUNS; r++) {
        rows.empty!.push(await send(`bench/empty-${r}`));
        rows.big!.push(await send(BIG));
      }
      const med = (k: string, f: 'ms' | 'healthMax') => median(rows[k]!.map((x) => x[f]));
      console.log(`${BATCH_CALLS.toLocaleString('en')}-call batch, median of ${RUNS}:`);
      for (const k of ['empty', 'big'])
        console.log(
          `  into ${k.padEnd(5)}: ${med(k, 'ms').toFixed(0)} ms (runs ${rows[k]!.map((x) => x.ms.toFixed(0)).join(', ')}), /health worst ${med(k, 'healthMax').toFixed(0)} ms`,
        );
      console.log(`  ratio big / empty: ${(med('big', 'ms') / med('empty', 'ms')).toFixed(2)}`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
