/**
 * expand_columns benchmark: a project of N calls (default 100,000) whose `inputs.model` is a ref
 * to one of 20 model objects, then `/calls/stream_query` over HTTP: the first page with the
 * refs expanded, a filter and a sort through the ref, a count through the ref, each next to
 * the same page without expand_columns.
 *
 *   npm run bench:expand [-- --calls 100000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CallWrite } from '../src/server/store/Store.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import { toObjectWrite } from '../src/server/domain/objects/objects.js';
import { fromPlain } from '../src/server/domain/objects/losslessJson.js';
import { startBenchServer, timeMedian } from './lib.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '100000' } } });
const CALLS = Number(values.calls);
const PROJECT = 'bench/expand';

async function build(store: SqliteStore): Promise<void> {
  const refs: string[] = [];
  for (let m = 0; m < 20; m++) {
    const write = toObjectWrite({
      projectId: PROJECT,
      objectId: 'model',
      val: fromPlain({ name: `model-${m}`, temperature: m / 20, system: 'x'.repeat(200) }),
      builtinObjectClass: null,
      wbUserId: 'bench',
      now: Date.now() * 1000,
    });
    await store.objects.createObject(write);
    refs.push(`weave:///${PROJECT}/object/model:${write.digest}`);
  }
  const t0 = performance.now();
  let batch: CallWrite[] = [];
  for (let i = 0; i < CALLS; i++) {
    const startedAt = Date.UTC(2026, 0, 1) * 1000 + i * 1_000_000;
    const inputs = { model: refs[i % 20], q: `question ${i}` };
    batch.push({
      kind: 'start',
      projectId: PROJECT,
      id: `c${i}`,
      traceId: `c${i}`,
      parentId: null,
      threadId: null,
      turnId: null,
      opName: 'predict',
      displayName: null,
      startedAt,
      attributesJson: '{}',
      inputsJson: JSON.stringify(inputs),
      otelDumpJson: null,
      inputRefs: [inputs.model!],
      wbUserId: 'bench',
      wbRunId: null,
      wbRunStep: null,
    });
    if (batch.length >= 10_000) {
      await store.calls.writeCalls(batch);
      batch = [];
    }
  }
  if (batch.length) await store.calls.writeCalls(batch);
  console.log(`Built ${CALLS.toLocaleString('en')} calls in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-expand-'));
try {
  const setup = new SqliteStore(join(dataDir, 'weft.sqlite'));
  await build(setup);
  await setup.close();
  const { server, post } = await startBenchServer(dataDir);
  const run = (path: string, body: object) => async () => {
    const res = await post(path, { project_id: PROJECT, ...body });
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    await res.text();
  };
  const q = (body: object) => run('/calls/stream_query', { limit: 100, ...body });
  const eq = { $expr: { $eq: [{ $getField: 'inputs.model.name' }, { $literal: 'model-7' }] } };
  const sort = [{ field: 'inputs.model.temperature', direction: 'desc' }];
  await q({})();
  const cases: [string, () => Promise<void>][] = [
    ['first 100, no expansion (baseline)', q({})],
    ['first 100, inputs.model expanded', q({ expand_columns: ['inputs.model'] })],
    ['filter through the ref, first 100', q({ expand_columns: ['inputs.model'], query: eq })],
    ['sort through the ref, first 100', q({ expand_columns: ['inputs.model'], sort_by: sort })],
    ['sort on a plain input, first 100', q({ sort_by: [{ field: 'inputs.q', direction: 'desc' }] })],
    ['count through the ref (query_stats)', run('/calls/query_stats', { expand_columns: ['inputs.model'], query: eq })],
  ];
  let base = 0;
  console.log(`\n${'case (median of 5)'.padEnd(40)}      ms  × baseline`);
  for (const [name, fn] of cases) {
    const ms = await timeMedian(fn);
    base ||= ms;
    console.log(`${name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ${(ms / base).toFixed(1).padStart(10)}`);
  }
  await server.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
