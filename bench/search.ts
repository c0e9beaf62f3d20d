/**
 * Search benchmark: a project of 1,000,000 calls whose inputs and outputs are sentences in six
 * scripts (Latin, Chinese, Japanese, Arabic, Hindi, emoji), then `calls/stream_query` with the
 * `search` filter over HTTP, timed beside the goal: a substring search answers within 300 ms
 * (docs/search.md). On SQLite it also times the trigram index's backfill (migration 30) over
 * the same calls; on ClickHouse, the indexer's drain of its queue (the posting lists of the
 * calls seeded), with the engine's CPU per call part.
 *
 *   npm run bench:search [-- --store clickhouse --calls 1000000]
 *   npm run bench:search -- --store clickhouse --data-dir /tmp/search1m   # seed once, keep, measure again
 *   npm run bench:search -- --store clickhouse --ids random   # OTel's random span ids
 *
 * Call ids are by default as Weave's SDKs make them, UUIDv7 (time first, so the newest calls'
 * ids are neighbours); `--ids random` gives each call a random 16-hex id, as OTel spans have.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { CallWrite, Store } from '../src/server/store/Store.js';
import { indexQueuedDocs } from '../src/server/store/sqlite/callSearch.js';
import { v30CallSearch } from '../src/server/store/sqlite/migrations/v30CallSearch.js';
import { v33CallSearchWithoutPositions } from '../src/server/store/sqlite/migrations/v33CallSearchWithoutPositions.js';
import { SqliteDatabase } from '../src/server/store/sqlite/SqliteDatabase.js';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import {
  benchStoreKind,
  drainSearchQueue,
  loadAverage,
  settleMerges,
  startBenchBackend,
  STORE_OPTION,
  type BenchDataset,
} from './backend.js';
import { cpuSeconds, startBenchServer, timeAndCpuMedian } from './lib.js';

const { values } = parseArgs({
  options: {
    ...STORE_OPTION,
    calls: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    ids: { type: 'string', default: 'sdk' },
  },
});
const CALLS = Number(values.calls);
const PROJECT = 'bench/search';
const GOAL_MS = 300;

/** A deterministic stream of numbers (so every run stores the same text). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'to', 'sha', 'vel', 'qui', 'dor', 'pan', 'es', 'tu', 'bri', 'gon', 'ax', 'li'];
const next = random(42);
/** 3,000 made-up Latin words of 2 to 4 syllables, and words of the other scripts. */
const LATIN = Array.from({ length: 3000 }, () =>
  Array.from({ length: 2 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''),
);
const OTHER = [
  ...'我们 今天 讨论 政策 客户 订单 发货 问题 系统 价格 数据 模型'.split(' '),
  ...'東京 タワー 注文 確認 配送 返品 ありがとう お客様 システム'.split(' '),
  ...'مرحبا العالم الطلب الشحن العميل النظام السعر'.split(' '),
  ...'नमस्ते दुनिया आदेश ग्राहक प्रणाली मूल्य'.split(' '),
  ...'🎉 🚀 🔥 ✅ 📦'.split(' '),
];
const VOCABULARY = [...LATIN, ...OTHER];

/** A sentence of 12 to 24 words; one call in 10,000 also holds a rare phrase in Latin and in Chinese. */
function sentence(rand: () => number, rare: boolean): string {
  const words = Array.from({ length: 12 + Math.floor(rand() * 12) }, () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!);
  if (rare) words.splice(3, 0, 'zebraquokka', '退款政策');
  return words.join(' ');
}

if (values.ids !== 'sdk' && values.ids !== 'random') throw new Error(`--ids must be sdk or random, not "${values.ids}"`);
/** Call `i`'s id: a UUIDv7 of its start (µs) with a random tail, or (`--ids random`) 16 random hex digits. */
function callId(i: number, start: number): string {
  const r = createHash('sha1').update(String(i)).digest('hex');
  if (values.ids === 'random') return r.slice(0, 16);
  const ms = Math.floor(start / 1000)
    .toString(16)
    .padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${r.slice(0, 3)}-8${r.slice(3, 6)}-${r.slice(6, 18)}`;
}

function* callWrites(from: number, to: number): Generator<CallWrite> {
  const base = Date.UTC(2026, 0, 1) * 1000;
  for (let i = from; i < to; i++) {
    const rand = random(i + 1);
    const start = base + i * 1_000_000;
    const id = callId(i, start);
    yield {
      kind: 'start',
      projectId: PROJECT,
      id,
      traceId: id,
      parentId: null,
      threadId: null,
      turnId: null,
      opName: 'chat',
      displayName: null,
      startedAt: start,
      attributesJson: `{"env":"${i % 4 === 0 ? 'prod' : 'dev'}"}`,
      inputsJson: JSON.stringify({ messages: [{ role: 'user', content: sentence(rand, i % 10_000 === 7) }] }),
      otelDumpJson: null,
      inputRefs: [],
      wbUserId: 'bench',
      wbRunId: null,
      wbRunStep: null,
    };
    yield {
      kind: 'end',
      projectId: PROJECT,
      id,
      endedAt: start + 500_000,
      exception: null,
      outputJson: JSON.stringify({ content: sentence(rand, false) }),
      summaryJson: '{}',
      outputRefs: [],
      wbRunStepEnd: null,
    };
  }
}

async function build(store: Store): Promise<void> {
  const t0 = performance.now();
  for (let from = 0; from < CALLS; from += 10_000) {
    await store.calls.writeCalls([...callWrites(from, Math.min(CALLS, from + 10_000))]);
    if ((from + 10_000) % 100_000 === 0 || from + 10_000 >= CALLS)
      process.stdout.write(`\rBuilding: ${Math.min(CALLS, from + 10_000).toLocaleString('en')} calls`);
  }
  const s = (performance.now() - t0) / 1000;
  console.log(` in ${s.toFixed(1)} s (${Math.round(CALLS / s).toLocaleString('en')} calls/s through the store)`);
}

/**
 * Times the trigram index's build from the calls as an upgrade does it: migrations 30 and 33 queue
 * every call (timed alone), then the indexer works through the queue (timed to the end).
 */
function timeBackfill(file: string): void {
  const raw = new Database(file);
  raw.exec('DROP TABLE call_search; DROP TABLE call_search_queue');
  let t0 = performance.now();
  // Migration 33 makes the index anew as it is now (without positions) and queues every call again.
  raw.transaction(() => raw.exec(v30CallSearch.sql + v33CallSearchWithoutPositions.sql))();
  console.log(`Migrations 30 and 33 (queue every call): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  raw.close();
  const db = new SqliteDatabase(file);
  t0 = performance.now();
  while (indexQueuedDocs(db, 1000) > 0);
  const s = (performance.now() - t0) / 1000;
  console.log(`Indexing the queue (the backfill): ${s.toFixed(1)} s, ${((s * 1e6) / CALLS).toFixed(0)} µs per call`);
  db.close();
}

/** Calls already in a kept engine's dataset (`--data-dir`, ClickHouse only): 0 when it is new. */
async function seededCalls(dataset: BenchDataset): Promise<number> {
  if (!dataset.clickhouse || !values['data-dir']) return 0;
  const db = new ClickHouseDatabase(dataset.clickhouse);
  try {
    return Number((await db.get<{ n: string }>('SELECT count() AS n FROM calls FINAL'))?.n ?? 0);
  } finally {
    await db.close();
  }
}

const kind = benchStoreKind(values.store);
// On ClickHouse, `--data-dir` keeps the engine's data there: seeded once, measured again later.
const backend = await startBenchBackend(kind, { keepDir: kind === 'clickhouse' ? values['data-dir'] : undefined });
try {
  console.log(`Search on ${backend.kind}: ${CALLS.toLocaleString('en')} calls; load average ${loadAverage()}`);
  const dataset = await backend.dataset('bench_search');
  const seeded = await seededCalls(dataset);
  if (seeded > 0) {
    await dataset.store.close();
    if (seeded !== CALLS) throw new Error(`${values['data-dir']} holds ${seeded} calls, not --calls ${CALLS}`);
    console.log(`measuring the calls seeded earlier in ${values['data-dir']}`);
  } else {
    await build(dataset.store);
    await dataset.store.close();
    // What a server's indexer does in the background after a bulk load, timed (docs/search.md).
    await drainSearchQueue(dataset, backend.enginePid);
  }
  await settleMerges(dataset);
  if (dataset.sqliteFile) timeBackfill(dataset.sqliteFile);

  const { server, post } = await startBenchServer(dataset.dataDir, dataset.env);
  const rows = async (body: object): Promise<number> => {
    const res = await post('/calls/stream_query', { project_id: PROJECT, limit: 50, columns: ['id', 'inputs', 'output'], ...body });
    const text = await res.text();
    if (!res.ok) throw new Error(`answered ${res.status}: ${text.slice(0, 200)}`);
    return text.split('\n').filter(Boolean).length;
  };
  const newest = [{ field: 'started_at', direction: 'desc' }];
  const rare = Math.ceil(CALLS / 10_000);
  const cases: [string, object, number | null][] = [
    ['rare Latin substring (1 in 10,000), newest first', { filter: { search: 'raquok' }, sort_by: newest }, Math.min(50, rare)],
    ['rare Chinese phrase (1 in 10,000), newest first', { filter: { search: '退款政' }, sort_by: newest }, Math.min(50, rare)],
    ['rare substring, whole words first (no sort)', { filter: { search: 'zebraquokka' } }, Math.min(50, rare)],
    ['nowhere', { filter: { search: 'absentword' }, sort_by: newest }, 0],
    ['common Japanese word, newest first', { filter: { search: 'タワー' }, sort_by: newest }, 50],
    ['common Arabic word, newest first', { filter: { search: 'الشحن' }, sort_by: newest }, 50],
    ['common Hindi word, whole words first', { filter: { search: 'ग्राहक' } }, 50],
    [
      '$contains on inputs (narrowed by the index), newest first',
      {
        query: { $expr: { $contains: { input: { $getField: 'inputs.messages' }, substr: { $literal: 'zebraquokka' } } } },
        sort_by: newest,
      },
      null,
    ],
  ];
  // Warm up; on a loaded machine the read threads may take a while to start (503 meanwhile).
  for (let tries = 0; ; tries++) {
    try {
      await rows({ sort_by: newest });
      break;
    } catch (err) {
      if (tries >= 10) throw err;
    }
  }
  // The first search after start reads the indexes' marks and runs the search code cold: timed
  // apart (a word no case searches), so that no case pays for it.
  const t0 = performance.now();
  await rows({ filter: { search: 'お客様' }, sort_by: newest });
  console.log(`first search after start (a common Japanese word): ${(performance.now() - t0).toFixed(1)} ms`);
  console.log('\ncase (page of 50, median of 3)                        HTTP ms  CPU ms  rows  goal');
  let slowest = 0;
  for (const [label, body, expected] of cases) {
    try {
      let n = 0;
      const t = await timeAndCpuMedian(
        async () => (n = await rows(body)),
        () => cpuSeconds(backend.enginePid),
        3,
      );
      if (expected !== null && n !== expected) throw new Error(`${n} rows, expected ${expected}`);
      if (expected !== null) slowest = Math.max(slowest, t.ms);
      console.log(
        `${label.padEnd(52)} ${t.ms.toFixed(1).padStart(8)} ${t.cpuMs.toFixed(0).padStart(7)} ${String(n).padStart(5)}  ${expected === null ? '   -' : GOAL_MS}`,
      );
    } catch (err) {
      console.log(`${label.padEnd(52)} failed: ${(err as Error).message.slice(0, 120)}`);
    }
  }
  const count = await post('/calls/query_stats', { project_id: PROJECT, filter: { search: 'zebraquokka' } });
  console.log(`\ncount of the rare substring: ${JSON.stringify(await count.json())} (expected ${rare})`);
  console.log(`slowest search: ${slowest.toFixed(1)} ms (goal: ${GOAL_MS} ms); load average ${loadAverage()}`);
  await server.close();
} finally {
  await backend.close();
}
