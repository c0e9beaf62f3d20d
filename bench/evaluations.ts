/**
 * Evaluation logging through the v2 API: how many predictions per second, each with three
 * scores and the finish (5 requests: prediction, 3 × score, finish), at a modest client
 * concurrency, beside a raw better-sqlite3 insert of the same calls (per prediction: its
 * predict_and_score row, the prediction, three score calls) and the scores' feedback rows.
 * Goal: ≥ 1,000 predictions/s.
 *
 *   npm run bench:evaluations [-- --predictions 3000 --warmup 1000 --concurrency 8,20]
 *   npm run bench:evaluations -- --server-dir /tmp/weft-main   # the same against another checkout
 *
 * The server is a separate `weft serve` process on a fresh data directory, one per concurrency.
 * Two concurrencies by default: 8, and 20, the Python SDK's default parallelism for an
 * evaluation's work (weave/trace/env.py get_weave_parallelism, WEAVE_PARALLELISM). The client runs
 * on the same two cores as the server, so at 8 requests in flight each request mostly waits its
 * turn between threads rather than works (see "where a request's time goes").
 *
 * Besides the rates it prints where a request's time goes, since on a shared machine wall time
 * mostly measures the queue for a core: the server's CPU per request and its main thread's (at 8
 * in flight that thread is the bottleneck, so the rate is about one over its time per
 * prediction), how long its threads waited in the kernel's run queue for a core (/proc
 * schedstat), the client's own CPU, and so how many predictions per second a free core could
 * carry at these costs. A probe asks `/health`
 * every 50 ms meanwhile: the server serves an evaluation logger's small writes on its main
 * thread (threads/threadedApp.ts), which must still answer everyone else at once (the goal
 * for `/health` under load: p99 ≤ 50 ms).
 *
 * The request shape is the official SDK's: weave's EvaluationLoggerV2 (Python) sends one
 * prediction_create, one score_create per score and one prediction_finish per prediction, each
 * a blocking request of its own (no batching). Its newest version sends them from a pool of
 * `max_workers` background threads, 1 unless the caller asks for more (weave/evaluation/
 * eval_imperative_v2.py, _DEFAULT_MAX_WORKERS: "users on a remote HTTP backend who want more
 * parallelism can bump this"), a prediction's scores after its create and its finish after
 * its scores, as here. `--concurrency 1` measures that default.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../src/client/index.js';
import { uuidv7 } from '../src/server/core/ids.js';
import { publishEvaluation } from '../src/server/testing/evaluationFixture.js';
import { migrations } from '../src/server/store/sqlite/migrations/index.js';
import { leanFetch } from './leanFetch.js';
import { envFromString, percentile, probeHealth, spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    predictions: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8,20' },
    'server-dir': { type: 'string', default: '.' },
  },
});
const PREDICTIONS = Number(values.predictions);
const CONCURRENCIES = values.concurrency.split(',').map(Number);
const WARMUP_PREDICTIONS = Number(values.warmup);
const REQUESTS_PER_PREDICTION = 5;
/** weave/trace/env.py: get_weave_parallelism() defaults to 20. */
const WEAVE_PARALLELISM = 20;

/**
 * Seconds the process's threads ran, and waited runnable for a core, so far (Linux
 * /proc/<pid>/task/<tid>/schedstat: on-CPU ns, run-queue ns). Threads that ended are not counted.
 */
function schedSeconds(pid: number): { running: number; waiting: number } {
  let running = 0;
  let waiting = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        running += run! / 1e9;
        waiting += wait! / 1e9;
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return { running: NaN, waiting: NaN };
  }
  return { running, waiting };
}

interface ServerFigures {
  perSecond: number;
  requests: number;
  cpuPerPrediction: number;
  /** Of it, the main thread's (HTTP, the group commit, the evaluation writes it serves itself). */
  mainCpuPerPrediction: number;
  /** Server threads' time runnable but waiting for a core, per prediction (seconds). */
  runQueuePerPrediction: number;
  /** Mean wall time of one request as the client saw it (seconds). */
  latency: number;
  /** This process's CPU (the client: fetch, JSON) per prediction (seconds). */
  clientCpuPerPrediction: number;
  /** This process's threads' run-queue wait per prediction (seconds). */
  clientRunQueuePerPrediction: number;
  /** A `/health` probe's answers during the measured run, every 50 ms (ms, ascending). */
  health: number[];
}

async function benchServer(concurrency: number): Promise<ServerFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-evals-'));
  const server = await spawnWeft(dataDir, { serverDir: values['server-dir'], env: envFromString(process.env.BENCH_SERVER_ENV) });
  try {
    const client = createClient({ baseUrl: server.url, auth: { username: 'admin', password: 'bench' }, fetch: leanFetch(concurrency) });
    const f = await publishEvaluation(client, 'bench', 'evals');
    const third = (await client.scorerCreate({ ...f.path, name: 'length', op_source_code: 'def score(output): return len(output)' }))
      .scorer;
    const scorers = [f.scorers.exact, f.scorers.closeness, third];
    const run = (await client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
    const one = async (i: number) => {
      const { prediction_id } = await client.predictionCreate({
        ...f.path,
        model: f.models.a,
        inputs: { question: `Question ${i}?`, expected: String(i) },
        output: String(i % 7),
        evaluation_run_id: run,
      });
      for (const [k, scorer] of scorers.entries()) {
        await client.scoreCreate({ ...f.path, prediction_id, scorer, value: k === 2 ? i % 13 : i % 2 === 0, evaluation_run_id: run });
      }
      await client.predictionFinish({ ...f.path, prediction_id });
    };
    // Warm-up at full concurrency, unmeasured: credentials, statements, the extra request threads
    // the server starts under concurrent writes, and the JIT's optimised code for the write path
    // are ready before the measured run. With 16 predictions of warm-up instead of 1,000, the
    // default 1,200 measured ones read 289-294 predictions/s at 0.78-0.81 ms of server CPU per
    // request; 6,000 read 425-457/s at 0.52-0.55 ms: the short run measured V8 warming up.
    let warm = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (warm < WARMUP_PREDICTIONS) await one(-1 - warm++);
      }),
    );
    let next = 0;
    const { process: cpu0, main: main0 } = server.cpu();
    const sched0 = schedSeconds(server.pid);
    const client0 = process.cpuUsage();
    const clientSched0 = schedSeconds(process.pid);
    const t0 = performance.now();
    const probe = probeHealth(`${server.url}/health`);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < PREDICTIONS) await one(next++);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const health = await probe.stop();
    if (health.errors) throw new Error(`${health.errors} /health probes failed during the run`);
    const { process: cpu1, main: main1 } = server.cpu();
    const cpu = cpu1 - cpu0;
    const sched = schedSeconds(server.pid);
    const clientCpu = process.cpuUsage(client0);
    const clientSched = schedSeconds(process.pid);
    await client.evaluationRunFinish({ ...f.path, evaluation_run_id: run });
    return {
      perSecond: PREDICTIONS / seconds,
      requests: (PREDICTIONS * REQUESTS_PER_PREDICTION) / seconds,
      cpuPerPrediction: cpu / PREDICTIONS,
      mainCpuPerPrediction: (main1 - main0) / PREDICTIONS,
      runQueuePerPrediction: (sched.waiting - sched0.waiting) / PREDICTIONS,
      latency: (seconds * concurrency) / (PREDICTIONS * REQUESTS_PER_PREDICTION),
      clientCpuPerPrediction: (clientCpu.user + clientCpu.system) / 1e6 / PREDICTIONS,
      clientRunQueuePerPrediction: (clientSched.waiting - clientSched0.waiting) / PREDICTIONS,
      health: health.ok,
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same rows straight into the schema: 5 calls and 3 feedback rows per prediction. */
function benchRaw(): { perSecond: number; cpuPerPrediction: number } {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-evals-raw-'));
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const m of migrations) db.exec(m.sql);
  const project = 'bench/evals';
  const call = db.prepare(`INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at,
    attributes, inputs, ended_at, output, summary, wb_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const feedback = db.prepare(`INSERT INTO feedback (project_id, id, weave_ref, feedback_type, payload, created_at, wb_user_id)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const trace = uuidv7();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // Transactions of 100 predictions: the physical limit, not one commit per request.
  for (let from = 0; from < PREDICTIONS; from += 100) {
    db.transaction(() => {
      for (let i = from; i < Math.min(PREDICTIONS, from + 100); i++) {
        const now = Date.now() * 1000;
        const row = uuidv7();
        const prediction = uuidv7();
        const op = (name: string) => `weave:///${project}/op/${name}:${'A'.repeat(43)}`;
        call.run(
          project,
          row,
          trace,
          trace,
          op('Evaluation.predict_and_score'),
          'Evaluation.predict_and_score',
          now,
          '{"weave":{}}',
          JSON.stringify({ example: { question: `Question ${i}?` } }),
          now,
          '{"scores":{}}',
          '{}',
          'admin',
        );
        call.run(
          project,
          prediction,
          trace,
          row,
          op('model-a.predict'),
          'model-a.predict',
          now,
          '{"weave":{"prediction":"true"}}',
          JSON.stringify({ inputs: { question: `Question ${i}?` } }),
          now,
          JSON.stringify(String(i % 7)),
          '{}',
          'admin',
        );
        for (let k = 0; k < 3; k++) {
          const score = uuidv7();
          call.run(
            project,
            score,
            trace,
            row,
            op(`scorer-${k}.score`),
            `scorer-${k}.score`,
            now,
            '{"weave":{"score":"true"}}',
            JSON.stringify({ output: String(i % 7) }),
            now,
            String(i % 2),
            '{}',
            'admin',
          );
          feedback.run(
            project,
            uuidv7(),
            `weave:///${project}/call/${prediction}`,
            `wandb.runnable.scorer-${k}`,
            JSON.stringify({ output: i % 2 }),
            now,
            'admin',
          );
        }
      }
    })();
  }
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: PREDICTIONS / seconds, cpuPerPrediction: (cpu.user + cpu.system) / 1e6 / PREDICTIONS };
}

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const runs: { concurrency: number; figures: ServerFigures }[] = [];
for (const concurrency of CONCURRENCIES) runs.push({ concurrency, figures: await benchServer(concurrency) });
const raw = benchRaw();
console.log(`\nbench:evaluations  ${PREDICTIONS} predictions × (prediction + 3 scores + finish), server ${resolve(values['server-dir'])}`);
console.log(`load average before the run: ${load}\n`);
// CPU time per prediction hardly depends on the machine's other load (wall-clock rates do).
const ms = (seconds: number) => `${(seconds * 1000).toFixed(2)} ms CPU/prediction`;
const inFlight = (concurrency: number) =>
  `${concurrency} in flight${concurrency === WEAVE_PARALLELISM ? ' (WEAVE_PARALLELISM default)' : ''}`.padEnd(39);
console.log(
  `raw better-sqlite3 insert of the same calls and feedback      : ${raw.perSecond.toFixed(0).padStart(6)} predictions/s   ${ms(raw.cpuPerPrediction)}`,
);
for (const { concurrency, figures } of runs) {
  console.log(
    `weft v2 API over HTTP, ${inFlight(concurrency)}: ${figures.perSecond.toFixed(0).padStart(6)} predictions/s (${figures.requests.toFixed(0)} requests/s)   goal ≥ 1,000 ${figures.perSecond >= 1000 ? '✓' : '✗'}   ${ms(figures.cpuPerPrediction)} (server, all threads)`,
  );
}
const row = (label: string, value: (f: ServerFigures) => number) =>
  `  ${label.padEnd(55)}: ${runs.map(({ figures }) => `${(value(figures) * 1000).toFixed(2)} ms`.padStart(13)).join('')}`;
console.log(`
${`where a request's time goes (${REQUESTS_PER_PREDICTION} requests per prediction)`.padEnd(59)}${runs.map(({ concurrency }) => `${concurrency} in flight`.padStart(13)).join('')}
${row('wall time per request, as the client saw it', (f) => f.latency)}
${row('server CPU per request', (f) => f.cpuPerPrediction / REQUESTS_PER_PREDICTION)}
${row('  of it on the main thread', (f) => f.mainCpuPerPrediction / REQUESTS_PER_PREDICTION)}
${row('server threads waiting for a core (run queue), per req.', (f) => f.runQueuePerPrediction / REQUESTS_PER_PREDICTION)}
${row('client CPU per request (this process: HTTP, JSON)', (f) => f.clientCpuPerPrediction / REQUESTS_PER_PREDICTION)}
${row('client threads waiting for a core, per request', (f) => f.clientRunQueuePerPrediction / REQUESTS_PER_PREDICTION)}
${row('/health meanwhile (every 50 ms), p99; goal ≤ 50 ms', (f) => percentile(f.health, 0.99) / 1000)}
${row('/health meanwhile, max', (f) => (f.health.at(-1) ?? NaN) / 1000)}`);
for (const { concurrency, figures } of runs) {
  const perCore = figures.cpuPerPrediction + figures.clientCpuPerPrediction;
  console.log(
    `  ${concurrency} in flight: one prediction costs ${(perCore * 1000).toFixed(2)} ms of CPU, server and client together: at most ${(1 / perCore).toFixed(0)} predictions/s per free core (the server alone: ${(1 / figures.cpuPerPrediction).toFixed(0)}/s)`,
  );
}
