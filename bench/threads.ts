/**
 * Threads benchmark: a project of 1,000,000 calls in 20,000 threads (10 turns each, every
 * turn with 4 nested calls), then `/threads/stream_query` over HTTP for every sort, timed
 * next to a plain better-sqlite3 SELECT of the same rows.
 *
 *   npm run bench:threads [-- --threads 20000 --turns 10 --nested 4]
 *
 * Goal (issue "Threads"): the first page of 50 by p99_turn_duration_ms desc within 300 ms,
 * any sort within 1 s. Then the triage cases (issue 17/18): content search, statistic bounds,
 * attributes, a date filter alone and with search, and the exact count — each goal 300 ms.
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
/** One topic word per thread, so a content search matches 1 in TOPICS.length threads. */
const TOPICS = ['refund', 'shipping', 'invoice', 'password', 'warranty', 'upgrade', 'cancel', 'discount', 'delivery', 'billing'];

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
        attributesJson: `{"env":"${thread % 4 === 0 ? 'prod' : 'dev'}"}`,
        inputsJson: `{"message":"turn ${turn} of thread ${thread} about ${TOPICS[thread % TOPICS.length]}"}`,
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
        // One thread in 50 has a failing turn.
        exception: !c.parent && thread % 50 === 0 && turn === 3 ? 'boom' : null,
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
  console.log(`\nslowest precomputed sort: ${worst.toFixed(1)} ms (goal: any sort within 1000 ms)`);

  // Triage: filters (first page of 50, p99 desc unless said), each goal 300 ms.
  const after = new Date(Date.UTC(2026, 0, 1) + THREADS * 3500).toISOString();
  const p99desc = [{ field: 'p99_turn_duration_ms', direction: 'desc' }];
  const count = async (filter: object) => {
    const res = await post('/threads/query_stats', { project_id: PROJECT, filter });
    if (!res.ok) throw new Error(`count answered ${res.status}`);
    return ((await res.json()) as { count: number }).count;
  };
  const cases: [string, () => Promise<unknown>][] = [
    ['search one topic (1 in 10 threads)', () => query({ filter: { search: 'refund' }, sort_by: p99desc })],
    ['search two words', () => query({ filter: { search: 'refund turn' }, sort_by: p99desc })],
    ['search a prefix matching all', () => query({ filter: { search: 'thre' }, sort_by: p99desc })],
    ['has errors (min.error_count 1)', () => query({ filter: { min: { error_count: 1 } }, sort_by: p99desc })],
    [
      'p99 ≥ 8 s and tokens ≤ 600',
      () => query({ filter: { min: { p99_turn_duration_ms: 8000 }, max: { total_tokens: 600 } }, sort_by: p99desc }),
    ],
    ['attributes env=prod', () => query({ filter: { attributes: { env: 'prod' } }, sort_by: p99desc })],
    ['sort by total_cost desc', () => query({ sort_by: [{ field: 'total_cost', direction: 'desc' }] })],
    ['sort by error_count desc', () => query({ sort_by: [{ field: 'error_count', direction: 'desc' }] })],
    ['date filter (second half)', () => query({ filter: { after_datetime: after }, sort_by: p99desc })],
    ['date filter + search', () => query({ filter: { after_datetime: after, search: 'refund' }, sort_by: p99desc })],
    [
      'date filter, sort by total_cost',
      () => query({ filter: { after_datetime: after }, sort_by: [{ field: 'total_cost', direction: 'desc' }] }),
    ],
    ['count, no filter', () => count({})],
    ['count, search', () => count({ search: 'refund' })],
    ['count, date filter', () => count({ after_datetime: after })],
  ];
  console.log('\nfilter (50 threads, median of 3)            HTTP ms   goal');
  let slowest = 0;
  for (const [label, fn] of cases) {
    const ms = await timeMedian(fn, 3);
    slowest = Math.max(slowest, ms);
    console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)}    300`);
  }
  console.log(`\nslowest filtered case: ${slowest.toFixed(1)} ms (goal: 300 ms)`);
  raw.close();
  await server.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
