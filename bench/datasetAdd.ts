/**
 * "Add to dataset" on many items (`npm run bench:datasetadd`); prints figures beside their goals,
 * asserts nothing (docs/performance.md "Add to dataset").
 *
 * Seeds, on an in-process server over a fresh SQLite file: `--calls` calls (default 1,000, the
 * request's bound) with ~1 KB of inputs and an annotation each, and a dataset of `--rows` rows
 * (default 10,000). Then, median of 5 each:
 * - a reference: reading the same calls with their feedback through `/calls/stream_query`
 *   (`call_ids` filter, `include_feedback`), the reads "Add to dataset" makes too (it answers
 *   only 20 rows, so it can beat the reference, which sends every call back);
 * - a preview of all the calls with the default mapping (goal ≤ 500 ms);
 * - writing them after the dataset's rows as a new version (goal ≤ 1 s).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchServer, timeMedian } from './lib.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000' }, rows: { type: 'string', default: '10000' } } });
const CALLS = Number(values.calls);
const ROWS = Number(values.rows);
const P = 'bench/dsadd';
const GOALS = { preview: 500, add: 1000 };

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-dsadd-'));
const { server, post } = await startBenchServer(dir);
const ok = async (path: string, body: unknown) => {
  const res = await post(path, body);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
};

try {
  const ids = Array.from({ length: CALLS }, (_, i) => `call-${String(i).padStart(5, '0')}`);
  const filler = 'Context the agent was given for this question. '.repeat(20);
  for (let i = 0; i < CALLS; i += 500) {
    const batch = ids.slice(i, i + 500).flatMap((id, j) => [
      {
        mode: 'start',
        req: {
          start: {
            project_id: P,
            id,
            op_name: 'answer',
            started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i + j)).toISOString(),
            attributes: {},
            inputs: { question: `Question ${id}?`, context: filler },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: P,
            id,
            ended_at: new Date(Date.UTC(2026, 0, 1, 1)).toISOString(),
            output: { answer: `Answer ${id}` },
            summary: {},
          },
        },
      },
    ]);
    await ok('/call/upsert_batch', { batch });
  }
  const spec = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'correct',
    field_schema: { type: 'boolean' },
  };
  const { digest } = (await (await ok('/obj/create', { obj: { project_id: P, object_id: 'correct', val: spec } })).json()) as {
    digest: string;
  };
  for (let i = 0; i < CALLS; i += 500) {
    const batch = ids.slice(i, i + 500).map((id, j) => ({
      project_id: P,
      weave_ref: `weave:///${P}/call/${id}`,
      feedback_type: 'wandb.annotation.correct',
      annotation_ref: `weave:///${P}/object/correct:${digest}`,
      payload: { value: (i + j) % 3 !== 0 },
    }));
    await ok('/feedback/batch/create', { batch });
  }
  const rows = Array.from({ length: ROWS }, (_, i) => ({ question: `Seed question ${i}?`, expected: { answer: `Seed ${i}` } }));
  await ok('/v2/bench/dsadd/datasets', { name: 'golden', rows });

  const reference = await timeMedian(async () => {
    const res = await ok('/calls/stream_query', { project_id: P, filter: { call_ids: ids }, include_feedback: true });
    await res.text();
  });
  const source = { kind: 'calls', call_ids: ids };
  const preview = await timeMedian(async () => {
    await (await ok('/datasets/add_from_traces', { project_id: P, dataset: 'golden', source, preview: true })).json();
  });
  let lastRows = 0;
  const add = await timeMedian(async () => {
    const answer = (await (await ok('/datasets/add_from_traces', { project_id: P, dataset: 'golden', source })).json()) as {
      existing: { row_count: number };
    };
    lastRows = answer.existing.row_count;
  });
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`add to dataset: ${CALLS} calls (with an annotation each) after a dataset of ${ROWS} rows (last run: ${lastRows})`);
  console.log(`  reference: /calls/stream_query of the same calls with feedback ${ms(reference)}`);
  console.log(
    `  preview (default mapping)                                   ${ms(preview)}  goal ≤ ${GOALS.preview} ms  ×${(preview / reference).toFixed(2)} the reference`,
  );
  console.log(
    `  add (a new version: table and object)                       ${ms(add)}  goal ≤ ${GOALS.add} ms  ×${(add / reference).toFixed(2)} the reference`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
