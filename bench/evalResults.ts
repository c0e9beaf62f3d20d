/**
 * eval_results/query over one large run: the wall time, server CPU and peak memory (the
 * server's VmHWM) of its first page in the default order (limit 50), as the run page asks it.
 * The run is an API-style evaluation seeded through the Store: per dataset row a
 * predict_and_score call (inline example, a ~200-character output, two scores), its
 * prediction and two score calls.
 *
 *   npm run bench:evalresults -- [--rows 20000] [--store sqlite|clickhouse] [--baseline /work/main]
 *
 * --baseline serves the same dataset from another checkout first, for before/after figures in
 * one run. Each server is a separate `weft serve` process, started fresh, so its peak memory is
 * what the first page cost it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CallWrite, Store } from '../src/server/store/Store.js';
import { benchStoreKind, loadAverage, startBenchBackend, STORE_OPTION } from './backend.js';
import { spawnWeft } from './lib.js';

const { values } = parseArgs({
  options: {
    ...STORE_OPTION,
    rows: { type: 'string', default: '20000' },
    baseline: { type: 'string' },
    tries: { type: 'string', default: '3' },
  },
});
const ROWS = Number(values.rows);
const TRIES = Number(values.tries);
const PROJECT = 'bench/evalresults';
const ROOT = 'eval-root';
const op = (name: string) => `weave:///${PROJECT}/op/${name}:${'D'.repeat(43)}`;
const EVALUATION = `weave:///${PROJECT}/object/evaluation:${'E'.repeat(43)}`;
const MODEL = `weave:///${PROJECT}/object/model:${'M'.repeat(43)}`;
const SCORERS = ['exact', 'closeness'];

/** A call's start and end writes. */
function call(c: {
  id: string;
  parent: string | null;
  op: string;
  at: number;
  attributes: unknown;
  inputs: unknown;
  output: unknown;
}): CallWrite[] {
  const base = { projectId: PROJECT, id: c.id };
  return [
    {
      kind: 'start',
      ...base,
      traceId: ROOT,
      parentId: c.parent,
      threadId: null,
      turnId: null,
      opName: op(c.op),
      displayName: null,
      startedAt: c.at,
      attributesJson: JSON.stringify(c.attributes),
      inputsJson: JSON.stringify(c.inputs),
      otelDumpJson: null,
      inputRefs: [],
      wbUserId: 'bench',
      wbRunId: null,
      wbRunStep: null,
    },
    {
      kind: 'end',
      ...base,
      endedAt: c.at + 900_000,
      exception: null,
      outputJson: JSON.stringify(c.output),
      summaryJson: '{}',
      outputRefs: [],
      wbRunStepEnd: null,
    },
  ];
}

function rowCalls(i: number): CallWrite[] {
  const at = Date.UTC(2026, 0, 1) * 1000 + i * 1000;
  const example = { question: `What is ${i} + ${i}?`, answer: String(2 * i) };
  const output = `The answer is ${2 * i}. ${'Because adding a number to itself doubles it. '.repeat(4)}`;
  const scores = { exact: i % 3 !== 0, closeness: (i % 10) / 10 };
  const pas = `pas-${i}`;
  return [
    ...call({
      id: pas,
      parent: ROOT,
      op: 'Evaluation.predict_and_score',
      at,
      attributes: {},
      inputs: { self: EVALUATION, model: MODEL, example },
      output: { output, scores, model_latency: { mean: 0.4 } },
    }),
    ...call({
      id: `pred-${i}`,
      parent: pas,
      op: 'Model.predict',
      at: at + 1,
      attributes: { weave: { prediction: 'true' } },
      inputs: { self: MODEL, ...example },
      output,
    }),
    ...SCORERS.flatMap((s) =>
      call({
        id: `${s}-${i}`,
        parent: pas,
        op: `${s}.score`,
        at: at + 2,
        attributes: { weave: { score: 'true' } },
        inputs: { output },
        output: scores[s as keyof typeof scores],
      }),
    ),
  ];
}

async function seed(store: Store): Promise<void> {
  const t0 = performance.now();
  await store.calls.writeCalls(
    call({
      id: ROOT,
      parent: null,
      op: 'Evaluation.evaluate',
      at: 0,
      attributes: {},
      inputs: { self: EVALUATION, model: MODEL },
      output: {},
    }),
  );
  let batch: CallWrite[] = [];
  for (let i = 0; i < ROWS; i++) {
    batch.push(...rowCalls(i));
    if (batch.length >= 8000 || i === ROWS - 1) {
      await store.calls.writeCalls(batch);
      batch = [];
    }
  }
  console.log(
    `Seeded ${ROWS.toLocaleString('en')} rows (${(ROWS * 4 + 1).toLocaleString('en')} calls) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** Peak resident memory of a process, MB (Linux /proc). */
const peakMb = (pid: number): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function measure(label: string, dataDir: string, env: Record<string, string>, serverDir?: string): Promise<void> {
  const server = await spawnWeft(dataDir, { serverDir, env });
  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/v2/${PROJECT}/eval_results/query`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('admin:bench').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    return (await res.json()) as { rows: unknown[]; total_rows: number };
  };
  try {
    await post({ evaluation_call_ids: [] }); // the route and its modules loaded: not counted
    const before = peakMb(server.pid);
    const times: string[] = [];
    const cpus: string[] = [];
    let answer = { rows: [] as unknown[], total_rows: 0 };
    for (let i = 0; i < TRIES; i++) {
      const cpu0 = server.cpu().process;
      const t0 = performance.now();
      answer = await post({ evaluation_call_ids: [ROOT], limit: 50, offset: 0, include_raw_data_rows: true });
      times.push((performance.now() - t0).toFixed(0));
      cpus.push((server.cpu().process - cpu0).toFixed(2));
    }
    console.log(
      `${label.padEnd(10)} first page (${answer.rows.length} of ${answer.total_rows.toLocaleString('en')} rows): ` +
        `${times.join(' / ')} ms, server CPU ${cpus.join(' / ')} s, peak RSS ${before.toFixed(0)} -> ${peakMb(server.pid).toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
  }
}

const backend = await startBenchBackend(benchStoreKind(values.store));
try {
  const dataset = await backend.dataset('evalresults');
  await seed(dataset.store);
  await dataset.store.close();
  console.log(`${backend.kind}, ${TRIES} tries each, load average ${loadAverage()}`);
  if (values.baseline) await measure('baseline', dataset.dataDir, dataset.env, values.baseline);
  await measure('this', dataset.dataDir, dataset.env);
  console.log(`load average ${loadAverage()}`);
} finally {
  await backend.close();
}
