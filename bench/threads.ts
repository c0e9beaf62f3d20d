/**
 * Threads benchmark: a project of 1,000,000 calls in 20,000 threads (10 turns each, every
 * turn with 4 nested calls), then `/threads/stream_query` over HTTP for every sort, timed
 * next to a plain better-sqlite3 SELECT of the same rows.
 *
 *   npm run bench:threads [-- --threads 20000 --turns 10 --nested 4]
 *
 * Goal (issue "Threads"): the first page of 50 by p99_turn_duration_ms desc within 300 ms,
 * any sort within 1 s.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { THREAD_SORT_FIELDS } from '../src/contract/threads.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { startBenchServer, timeMedian } from './lib.js';

const { values } = parseArgs({
  options: {
    threads: { type: 'string', default: '20000' },
    turns: { type: 'string', default: '10' },
    nested: { type: 'string', default: '4' },
  },
});
const THREADS = Number(values.threads);
const TURNS = Number(values.turns);
const NESTED = Number(values.nested);
const PROJECT = 'bench/threads';

function* turnCalls(thread: number): Generator<CallWrite> {
  const base = Date.UTC(2026, 0, 1) * 1000 + thread * 7_000_000;
  for (let turn = 0; turn < TURNS; turn++) {
    const turnId = `t${thread}-${turn}`;
    const start = base + turn * 60_000_000;
    // Durations vary per thread and turn so every percentile differs.
    const duration = 200_000 + ((thread * 7919 + turn * 104729) % 9_000) * 1000;
    const calls = [{ id: turnId, parent: null as string | null, start, end: start + duration }];
    for (let n = 0; n < NESTED; n++)
      calls.push({ id: `${turnId}-${n}`, parent: turnId, start: start + n * 1000, end: start + duration - 1000 });
    for (const c of calls) {
      yield {
        kind: 'start',
        projectId: PROJECT,
        id: c.id,
        traceId: turnId,
        parentId: c.parent,
        threadId: `thread-${thread}`,
        turnId,
        opName: c.parent ? 'llm' : 'chat_turn',
        displayName: null,
        startedAt: c.start,
        attributesJson: '{}',
        inputsJson: `{"message":"turn ${turn} of thread ${thread}"}`,
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
        exception: null,
        outputJson: '"ok"',
        summaryJson: '{"usage":{"gpt-4o-mini":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52}}}',
        outputRefs: [],
        wbRunStepEnd: null,
      };
    }
  }
}

async function build(store: SqliteStore): Promise<void> {
  const total = THREADS * TURNS * (1 + NESTED);
  let batch: CallWrite[] = [];
  let written = 0;
  const t0 = performance.now();
  for (let th = 0; th < THREADS; th++) {
    for (const w of turnCalls(th)) batch.push(w);
    if (batch.length >= 10_000 || th === THREADS - 1) {
      await store.calls.writeCalls(batch);
      written += batch.length / 2;
      batch = [];
      if (written % 100_000 === 0 || th === THREADS - 1)
        process.stdout.write(`\rBuilding: ${written.toLocaleString('en')} / ${total.toLocaleString('en')} calls`);
    }
  }
  console.log(` in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-threads-'));
try {
  const setup = new SqliteStore(join(dataDir, 'weft.sqlite'));
  await build(setup);
  await setup.close();

  const { server, post } = await startBenchServer(dataDir);
  const query = async (body: object) => {
    const res = await post('/threads/stream_query', { project_id: PROJECT, limit: 50, ...body });
    const text = await res.text();
    if (!res.ok || text.split('\n').length !== 51) throw new Error(`unexpected answer ${res.status}: ${text.slice(0, 200)}`);
  };
  await query({}); // warm up auth and statement caches

  const raw = new Database(join(dataDir, 'weft.sqlite'), { readonly: true });
  const plain = raw.prepare(
    'SELECT * FROM thread_stats WHERE project_id = ? AND thread_id IN (SELECT thread_id FROM thread_stats WHERE project_id = ? LIMIT 50)',
  );
  const plainMs = await timeMedian(() => plain.all(PROJECT, PROJECT));
  console.log(`plain SELECT of 50 thread rows: ${plainMs.toFixed(1)} ms\n`);
  console.log('sort (50 threads, median of 5)      HTTP ms   × plain');
  const p99 = await timeMedian(() => query({ sort_by: [{ field: 'p99_turn_duration_ms', direction: 'desc' }] }));
  console.log(`p99_turn_duration_ms desc (goal 300) ${p99.toFixed(1).padStart(8)} ${(p99 / plainMs).toFixed(1).padStart(8)}`);
  let worst = p99;
  for (const field of THREAD_SORT_FIELDS) {
    for (const direction of ['asc', 'desc']) {
      const ms = await timeMedian(() => query({ sort_by: [{ field, direction }] }));
      worst = Math.max(worst, ms);
      console.log(`${`${field} ${direction}`.padEnd(36)} ${ms.toFixed(1).padStart(8)} ${(ms / plainMs).toFixed(1).padStart(8)}`);
    }
  }
  const filtered = await timeMedian(
    () =>
      query({
        filter: { after_datetime: new Date(Date.UTC(2026, 0, 1) + THREADS * 3500).toISOString() },
        sort_by: [{ field: 'p99_turn_duration_ms', direction: 'desc' }],
      }),
    3,
  );
  console.log(`${'p99 desc with a date filter (on the fly)'.padEnd(36)} ${filtered.toFixed(1).padStart(8)}`);
  console.log(`\nslowest precomputed sort: ${worst.toFixed(1)} ms (goal: any sort within 1000 ms)`);
  raw.close();
  await server.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
