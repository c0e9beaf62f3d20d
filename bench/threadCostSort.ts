/**
 * The threads page sorted by total cost, from the kept costs (threadCostsKept.ts) beside the
 * per-request pricing a stale project falls back to (the only way before migration 35), in one
 * process on one seeded file: the store's own reads, without HTTP. Also the background pass
 * that prices every thread after a price change, and the write-time price per thread.
 *
 *   nice -n 10 npm run bench:costsort -- --data-dir /tmp/tenm2m   # a directory bench:tenm seeded
 *   nice -n 10 npm run bench:costsort -- --threads 200000           # a new file of threads only
 *
 * The file is migrated if it is older; the project's kept costs are left fresh at the end.
 * `--threads N` writes N threads as bench:tenm's (10 turns of gpt-4o-mini usage each, 7 s
 * apart) straight into `thread_stats` and `thread_usage` of a temporary file, stale as after an
 * upgrade: the cost sort reads only those two tables, so this stands for a project of N × 50
 * calls in seconds instead of the half hour bench:tenm's writer takes at 10M.
 * Figures: docs/performance.md "SQLite cost sort at 10M".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ThreadsQuery } from '../src/server/store/Store.js';
import { SqliteCostsStore } from '../src/server/store/sqlite/costs.js';
import { SqliteDatabase } from '../src/server/store/sqlite/SqliteDatabase.js';
import { SqliteStatsStore } from '../src/server/store/sqlite/stats.js';
import { keptCostsFresh, priceRefreshedThreads, repriceStep, type RepricePass } from '../src/server/store/sqlite/threadCostsKept.js';
import { SqliteThreadsStore } from '../src/server/store/sqlite/threads.js';
import { loadAverage } from './backend.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    threads: { type: 'string' },
    project: { type: 'string', default: 'bench/tenm' },
    runs: { type: 'string', default: '5' },
  },
});
if (!values['data-dir'] && !values.threads) throw new Error('--data-dir <a directory bench:tenm seeded> or --threads N is required');
const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'weft-costsort-'));
const P = values.project;
const RUNS = Number(values.runs);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall and CPU ms of `fn`, medians of RUNS after one warm-up. */
async function time(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  await fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [t0, c0] = [performance.now(), cpuMs()];
    await fn();
    walls.push(performance.now() - t0);
    cpus.push(cpuMs() - c0);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

const t0 = performance.now();
const db = new SqliteDatabase(join(dataDir, 'weft.sqlite'));
new SqliteStatsStore(db);
new SqliteCostsStore(db);
if (values.threads) {
  const base = Date.UTC(2026, 0, 1) * 1000;
  db.transaction(() => {
    const stats = db.prepare(`INSERT INTO thread_stats (project_id, thread_id, turn_count, finished_turn_count, start_time, last_updated,
      first_turn_id, last_turn_id, p50_turn_duration_ms, p99_turn_duration_ms, error_count, total_tokens, last_turn_start)
      VALUES (?, ?, 10, 10, ?, ?, ?, ?, 2000, 9000, 0, 520, ?)`);
    const usage = db.prepare("INSERT INTO thread_usage VALUES (?, ?, 'gpt-4o-mini', 400, 120)");
    for (let i = 0; i < Number(values.threads); i++) {
      const start = base + i * 7_000_000;
      stats.run(P, `thread-${i}`, start, start + 549_000_000, `t${i}-0`, `t${i}-9`, start + 540_000_000);
      usage.run(P, `thread-${i}`);
    }
    db.run('INSERT OR REPLACE INTO thread_cost_epochs VALUES (?, -1, -1)', [P]);
  });
}
const threads = new SqliteThreadsStore(db);
const count = db.get<{ n: number }>('SELECT count(*) AS n FROM thread_stats WHERE project_id = ?', [P])!.n;
console.log(
  `${count.toLocaleString('en')} threads in ${P}; opened (and migrated) in ${(performance.now() - t0).toFixed(0)} ms; load ${loadAverage()}`,
);

// The background pass, as after an upgrade or a price change: every thread priced again.
if (!keptCostsFresh(db, P)) {
  const [w0, c0] = [performance.now(), cpuMs()];
  // Step by step, waiting out another process's long write (the search indexing of bench:tenm).
  let pass: RepricePass | null = null;
  for (;;) {
    let next: ReturnType<typeof repriceStep>;
    try {
      next = repriceStep(db, pass);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') continue;
      throw err;
    }
    if (next === null) break;
    pass = next === 'done' ? null : next;
  }
  const [wall, cpu] = [performance.now() - w0, cpuMs() - c0];
  console.log(
    `pass: ${count.toLocaleString('en')} threads priced in ${wall.toFixed(0)} ms (${cpu.toFixed(0)} ms of CPU, ${((cpu * 1000) / count).toFixed(2)} µs per thread)`,
  );
}

const page = (direction: 'asc' | 'desc') => async () => {
  let n = 0;
  const q: ThreadsQuery = { projectId: P, sortBy: [{ field: 'total_cost', direction }], limit: 50 };
  for await (const _ of threads.queryThreads(q)) n++;
  if (n !== Math.min(50, count)) throw new Error(`a page of ${n} threads`);
};
const bounded = async () => threads.countThreads({ projectId: P, sortBy: [], min: { total_cost: 0.0001 } });

const rows: [string, { wall: number; cpu: number }, { wall: number; cpu: number }][] = [];
const kept = { asc: await time(page('asc')), desc: await time(page('desc')), count: await time(bounded) };
// Stale on purpose (as right after a price change), measured, then fresh again as it was.
const epochs = db.get<{ default_epoch: number; project_epoch: number }>('SELECT * FROM thread_cost_epochs WHERE project_id = ?', [P])!;
db.run('UPDATE thread_cost_epochs SET default_epoch = -1 WHERE project_id = ?', [P]);
const perRequest = { asc: await time(page('asc')), desc: await time(page('desc')), count: await time(bounded) };
db.run('UPDATE thread_cost_epochs SET default_epoch = ? WHERE project_id = ?', [epochs.default_epoch, P]);
if (!keptCostsFresh(db, P)) throw new Error('the kept costs were not left fresh');
rows.push(['first page by total cost, asc', perRequest.asc, kept.asc]);
rows.push(['first page by total cost, desc', perRequest.desc, kept.desc]);
rows.push(['count of threads costing >= 0.0001', perRequest.count, kept.count]);

console.log(`\n${'request (store, no HTTP)'.padEnd(38)} ${'per request'.padStart(16)} ${'kept'.padStart(14)}  CPU ratio  goal`);
for (const [name, before, after] of rows) {
  const f = (x: { wall: number; cpu: number }) => `${x.wall.toFixed(1)} / ${x.cpu.toFixed(1)}`;
  console.log(
    `${name.padEnd(38)} ${f(before).padStart(16)} ${f(after).padStart(14)}  ${(before.cpu / Math.max(after.cpu, 0.01)).toFixed(0).padStart(6)}×  300 ms`,
  );
}
console.log('(wall ms / CPU ms, medians of 5 warm)');

// What a write adds: a thread priced where its statistics are refreshed (here 2,000 threads again).
const some = db.all<{ project_id: string; thread_id: string }>(
  'SELECT project_id, thread_id FROM thread_stats WHERE project_id = ? LIMIT 2000',
  [P],
);
const [w0, c0] = [performance.now(), cpuMs()];
db.transaction(() => priceRefreshedThreads(db, some));
console.log(
  `write-time price: ${(((cpuMs() - c0) * 1000) / some.length).toFixed(1)} µs of CPU per refreshed thread (${(performance.now() - w0).toFixed(0)} ms for ${some.length})`,
);
console.log(`load average ${loadAverage()}`);
db.close();
if (!values['data-dir']) rmSync(dataDir, { recursive: true, force: true });
