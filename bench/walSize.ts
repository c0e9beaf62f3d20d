/**
 * WAL size under ingest: how large the SQLite `-wal` file grows while `weft serve` takes a
 * stream of calls, and what it is left at once the writes stop (docs/performance.md "WAL size").
 *
 *   npm run bench:wal [-- --calls 100000 --batch 100 --concurrency 4 --readers 1 --server-dir .]
 *
 * The server runs as a separate process on a temporary data directory. Clients send
 * `/call/upsert_batch` requests (start + end of each ~1 KB call) while `--readers` clients keep
 * querying the calls, as a dashboard does (a reader holds a snapshot, which keeps a checkpoint
 * from reaching the WAL's end). The WAL file's size is sampled every 50 ms; printed are its peak,
 * its size when the last write is acknowledged, 5 s later (idle), and the database's size.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/server/auth/apiKeys.js';
import { uuidv7 } from '../src/server/core/ids.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
    readers: { type: 'string', default: '1' },
    'server-dir': { type: 'string', default: '.' },
  },
});
const CALLS = Number(values.calls);
const BATCH = Number(values.batch);
const CONCURRENCY = Number(values.concurrency);
const READERS = Number(values.readers);
const PROJECT = 'bench/wal';

function batchBody(first: number, count: number): string {
  const batch = [];
  const traceId = uuidv7();
  for (let i = first; i < first + count; i++) {
    const id = uuidv7();
    const started = Date.UTC(2026, 0, 1) + i * 37;
    batch.push(
      {
        mode: 'start',
        req: {
          start: {
            project_id: PROJECT,
            id,
            trace_id: traceId,
            op_name: `weave:///${PROJECT}/op/openai.chat.completions.create:9f8e7d6c5b4a39281706f5e4d3c2b1a0`,
            started_at: new Date(started).toISOString(),
            attributes: { weave: { client_version: '0.51.0', source: 'python-sdk' } },
            inputs: {
              model: 'gpt-4o-mini',
              messages: [
                { role: 'system', content: 'You are a helpful assistant that answers questions about orders.' },
                {
                  role: 'user',
                  content: `Where is my order #${100000 + i}? It was supposed to arrive yesterday and I still have nothing.`,
                },
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
            ended_at: new Date(started + 200 + (i % 900)).toISOString(),
            output: { choices: [{ message: { role: 'assistant', content: `Order #${100000 + i} shipped on Monday; it arrives today.` } }] },
            summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 52, completion_tokens: 31, total_tokens: 83, requests: 1 } } },
          },
        },
      },
    );
  }
  return JSON.stringify({ batch });
}

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-wal-'));
const file = join(dataDir, 'weft.sqlite');
const seed = new SqliteStore(file);
await seed.accounts.upsertUser({ username: 'bench', entities: ['bench'] });
const { key } = await createApiKey(seed, 'bench');
await seed.close();
const server = await spawnWeft(dataDir, { serverDir: values['server-dir'] });
const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
try {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, size(`${file}-wal`))), 50);
  let writing = true;
  const readers = Array.from({ length: READERS }, async () => {
    while (writing) {
      const res = await fetch(`${server.url}/calls/stream_query`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: PROJECT, limit: 2000, sort_by: [{ field: 'started_at', direction: 'desc' }] }),
      });
      await res.arrayBuffer();
    }
  });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) {
        const first = next;
        next += BATCH;
        const res = await fetch(`${server.url}/call/upsert_batch`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: batchBody(first, Math.min(BATCH, CALLS - first)),
        });
        if (!res.ok) throw new Error(`upsert_batch answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  writing = false;
  await Promise.all(readers);
  const atEnd = size(`${file}-wal`);
  await new Promise((r) => setTimeout(r, 5000));
  clearInterval(sampler);
  const idle = size(`${file}-wal`);
  console.log(
    `${CALLS.toLocaleString('en')} calls in ${seconds.toFixed(1)} s (${BATCH} per request, ${CONCURRENCY} writers, ${READERS} readers): ` +
      `WAL peak ${mb(peak)}, at the last write ${mb(atEnd)}, idle 5 s later ${mb(idle)}; database ${mb(size(file))}`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
