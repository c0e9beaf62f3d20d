/**
 * "Add to dataset" over HTTP (docs/datasets.md "Add to dataset"): the default mapping and a
 * preview that writes nothing, calls appended to a dataset the npm SDK published (the new
 * version has the digest the SDK gets publishing the same rows), threads and queue items with
 * their answers, and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import type { WeftClient } from '../../client/index.js';
import type { DatasetAddFromTracesReq } from '../../contract/datasetAdd.js';
import { initWeaveSdk, type SdkClient } from '../testing/weaveSdk.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const P = 'alice-co/ds-add';
const [ENTITY, PROJECT] = P.split('/') as [string, string];

let t: TestServer;
let alice: WeftClient;
let sdk: SdkClient;
let stopSdk: () => void;
let correct: string;

type Row = ConstructorParameters<typeof weave.Dataset>[0]['rows'][number];

const add = (req: Omit<DatasetAddFromTracesReq, 'project_id'>) => alice.datasetAddFromTraces({ project_id: P, ...req });

/** The rows of a dataset version, in order. */
async function datasetRows(objectId: string, digest: string) {
  const ds = await alice.datasetRead({ entity: ENTITY, project: PROJECT, object_id: objectId, digest });
  const { rows } = await alice.tableQuery({ project_id: P, digest: ds.rows.split('/').pop()! });
  return rows.map((r) => r.val);
}

const call = (id: string, inputs: Record<string, unknown>, output: unknown, extra: Record<string, unknown> = {}) => [
  {
    mode: 'start' as const,
    req: { start: { project_id: P, id, op_name: 'answer', started_at: '2026-01-01T00:00:00Z', attributes: {}, inputs, ...extra } },
  },
  { mode: 'end' as const, req: { end: { project_id: P, id, ended_at: '2026-01-01T00:00:01Z', output, summary: {} } } },
];

beforeAll(async () => {
  t = await startTestServer();
  alice = t.alice.client;
  const { digest } = await alice.objCreate({
    obj: {
      project_id: P,
      object_id: 'correct',
      val: {
        _type: 'AnnotationSpec',
        _class_name: 'AnnotationSpec',
        _bases: ['Object', 'BaseModel'],
        name: 'correct',
        field_schema: { type: 'boolean' },
      },
    },
  });
  correct = `weave:///${P}/object/correct:${digest}`;
  await alice.callUpsertBatch({
    batch: [
      ...call('c1', { question: 'What is 2+2?', self: 'weave:///x' }, '4'),
      ...call('c2', { question: 'Capital of France?', lang: 'en' }, { answer: 'Paris' }),
      ...call('t-1', { message: 'hi' }, 'hello', { thread_id: 'th', turn_id: 't-1' }),
      ...call('t-2', { message: 'bye' }, 'goodbye', { thread_id: 'th', turn_id: 't-2', started_at: '2026-01-01T00:00:02Z' }),
    ],
  });
  await alice.feedbackCreate({
    project_id: P,
    weave_ref: `weave:///${P}/call/c1`,
    feedback_type: 'wandb.annotation.correct',
    annotation_ref: correct,
    payload: { value: true },
  });
  ({ sdk, stop: stopSdk } = await initWeaveSdk({ server: t, project: P, onExchange: () => {} }));
});

afterAll(async () => {
  stopSdk?.();
  await t.close();
});

describe('POST /datasets/add_from_traces', () => {
  it('previews calls with the default mapping and writes nothing', async () => {
    const res = await add({ dataset: 'preview-only', source: { kind: 'calls', call_ids: ['c1', 'c2'] }, preview: true });
    expect(res.mapping).toEqual([
      { column: 'question', path: 'inputs.question' },
      { column: 'lang', path: 'inputs.lang' },
      { column: 'expected', path: 'output' },
      { column: 'correct', path: 'annotations.correct' },
    ]);
    expect(res.rows).toEqual([
      { question: 'What is 2+2?', lang: null, expected: '4', correct: true },
      { question: 'Capital of France?', lang: 'en', expected: { answer: 'Paris' }, correct: null },
    ]);
    expect(res.fields).toContainEqual({ path: 'output', type: 'object | string', count: 2 });
    expect(res.fields).toContainEqual({ path: 'annotations.correct', type: 'boolean', count: 1 });
    expect([res.existing, res.ref, res.row_count]).toEqual([null, null, 2]);
    const { objs } = await alice.objsQuery({ project_id: P, filter: { object_ids: ['preview-only'] } });
    expect(objs).toEqual([]);
  });

  it('appends to a dataset the SDK published: the new version is the one the SDK publishes for all the rows', async () => {
    const first: Row[] = [{ question: 'Seed?', expected: 'yes' }];
    const published = (await sdk.publish(new weave.Dataset({ name: 'golden', rows: structuredClone(first) }))) as weave.ObjectRef;
    const mapping = [
      { column: 'question', path: 'inputs.question' },
      { column: 'expected', path: 'output' },
    ];
    const added = await add({ dataset: 'golden', source: { kind: 'calls', call_ids: ['c2', 'c1'] }, mapping });
    expect(added.existing).toMatchObject({ digest: published.digest, version_index: 0, row_count: 1, columns: ['question', 'expected'] });
    expect([added.row_count, added.version_index]).toEqual([2, 1]);
    const all = [...first, { question: 'Capital of France?', expected: { answer: 'Paris' } }, { question: 'What is 2+2?', expected: '4' }];
    expect(await datasetRows('golden', added.digest!)).toEqual(all);

    const again = (await sdk.publish(new weave.Dataset({ name: 'golden', rows: structuredClone(all) }))) as weave.ObjectRef;
    expect(again.digest).toBe(added.digest);
    expect(added.ref).toBe(again.uri());
    const loaded = (await again.get()) as weave.Dataset<Row>;
    expect(loaded.length).toBe(3);
  });

  it('creates a new dataset with the digest the SDK gives the same rows', async () => {
    const added = await add({ dataset: 'fresh', description: 'from calls', source: { kind: 'calls', call_ids: ['c1'] } });
    expect([added.existing, added.version_index]).toEqual([null, 0]);
    const rows = [{ question: 'What is 2+2?', expected: '4', correct: true }];
    const sdkRef = (await sdk.publish(new weave.Dataset({ name: 'fresh', description: 'from calls', rows }))) as weave.ObjectRef;
    expect(sdkRef.digest).toBe(added.digest);
  });

  it('makes a row of a thread: earlier turns as history, the last turn as inputs and expected', async () => {
    const res = await add({ dataset: 'convos', source: { kind: 'threads', thread_ids: ['th'] }, preview: true });
    expect(res.mapping.map((m) => m.path)).toEqual(['history', 'inputs.message', 'output']);
    expect(res.rows).toEqual([{ history: [{ inputs: { message: 'hi' }, output: 'hello' }], message: 'bye', expected: 'goodbye' }]);
  });

  it('makes rows of queue items with their answers as labels', async () => {
    const { id: queue } = await alice.annotationQueueCreate({ project_id: P, name: 'Check', scorer_refs: [correct] });
    await alice.annotationQueueAddCalls({ project_id: P, queue_id: queue, call_ids: ['c2'], display_fields: [] });
    await alice.annotationQueueAddThreads({ project_id: P, queue_id: queue, thread_ids: ['th'] });
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    await alice.annotationQueueItemSubmit({
      project_id: P,
      queue_id: queue,
      item_id: items[0]!.id,
      annotations: [{ annotation_ref: correct, value: false }],
    });
    const added = await add({ dataset: 'reviewed', source: { kind: 'queue_items', queue_id: queue, item_ids: items.map((i) => i.id) } });
    expect(added.mapping.map((m) => `${m.column}=${m.path}`)).toEqual([
      'history=history',
      'question=inputs.question',
      'lang=inputs.lang',
      'message=inputs.message',
      'expected=output',
      'correct=answers.correct',
    ]);
    expect(await datasetRows('reviewed', added.digest!)).toEqual([
      { history: null, question: 'Capital of France?', lang: 'en', expected: { answer: 'Paris' }, message: null, correct: false },
      {
        history: [{ inputs: { message: 'hi' }, output: 'hello' }],
        question: null,
        lang: null,
        expected: 'goodbye',
        message: 'bye',
        correct: null,
      },
    ]);
  });

  it('answers 422 naming the mapping entry or ids to fix, 409 for an object that is no dataset, 403 in another entity', async () => {
    const calls = { kind: 'calls' as const, call_ids: ['c1'] };
    const refused = async (req: Omit<DatasetAddFromTracesReq, 'project_id'>, status: number) => {
      const res = await t.fetch('/datasets/add_from_traces', { json: { project_id: P, ...req } });
      expect(res.status).toBe(status);
      return res.json() as Promise<{ detail?: { loc: unknown[]; msg: string }[]; reason?: string }>;
    };
    const bad = await refused(
      {
        dataset: 'x',
        source: calls,
        mapping: [
          { column: 'q', path: 'input.question' },
          { column: 'q', path: 'inputs..question' },
        ],
      },
      422,
    );
    expect(bad.detail!.map((d) => d.loc)).toEqual([
      ['body', 'mapping', 0, 'path'],
      ['body', 'mapping', 1, 'path'],
      ['body', 'mapping', 1, 'column'],
    ]);
    expect(bad.detail![0]!.msg).toContain('start with one of inputs, output');
    const missing = await refused({ dataset: 'x', source: { kind: 'calls', call_ids: ['c1', 'nope'] } }, 422);
    expect(missing.detail![0]).toMatchObject({ loc: ['body', 'source', 'call_ids'], msg: `No call nope in ${P}` });
    expect((await refused({ dataset: 'correct', source: calls }, 409)).reason).toContain('not a Dataset');
    const res = await t.fetch('/datasets/add_from_traces', {
      json: { project_id: P, dataset: 'x', source: calls, preview: true },
      headers: { authorization: t.bob.authHeader },
    });
    expect(res.status).toBe(403);
  });
});
