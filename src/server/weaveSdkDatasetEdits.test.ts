/**
 * The dataset page's save path (src/client/datasetVersions.ts, the code the dashboard runs)
 * against the official `weave` npm SDK on one real server: a version saved from the page has
 * the digest, and its table the digest, that `weave.Dataset` gets for the same rows
 * (docs/datasets.md "Dataset page"). Row edits go through /table/update, column edits and
 * imports through /table/create; all three are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import { datasetTableDigest, evaluationOnDataset, saveDatasetEdits, saveDatasetRows, type DatasetRow } from '../client/datasetVersions.js';
import { startTestServer, type TestServer } from './testing/testServer.js';
import { initWeaveSdk, type SdkClient } from './testing/weaveSdk.js';

const PROJECT = 'alice-co/dsedits';

let t: TestServer;
let sdk: SdkClient;
let stopSdk: () => void;

beforeAll(async () => {
  t = await startTestServer();
  ({ sdk, stop: stopSdk } = await initWeaveSdk({ server: t, project: PROJECT, onExchange: () => {} }));
});

afterAll(async () => {
  stopSdk?.();
  await t.close();
});

/** Publishes rows through the SDK and answers the version's digest and its table's. */
async function sdkPublish(name: string, rows: DatasetRow[], description?: string) {
  // The SDK marks the rows it is given with their refs, so it gets a copy.
  const ref = (await sdk.publish(new weave.Dataset({ name, description, rows: structuredClone(rows) }))) as weave.ObjectRef;
  const { obj } = await t.alice.client.objRead({ project_id: PROJECT, object_id: name, digest: ref.digest });
  return { digest: ref.digest, tableDigest: datasetTableDigest(obj.val), val: obj.val as Record<string, unknown> };
}

const rows0: DatasetRow[] = [
  { question: 'What is 2+2?', answer: '4', difficulty: 0.1 },
  { question: 'Capital of France? (café)', answer: 'Paris', tags: ['geo'] },
  { question: 'Largest planet?', answer: 'Jupiter', meta: { source: 'quiz', n: 3 } },
];

describe('dataset versions saved from the page', () => {
  it('row edits (a cell, a deleted row, an added row) give the digests the SDK gives for the same rows', async () => {
    const v0 = await sdkPublish('quiz', rows0, 'three questions');
    const saved = await saveDatasetEdits(t.alice.client, {
      projectId: PROJECT,
      objectId: 'quiz',
      baseVal: v0.val,
      edits: {
        replace: [{ index: 1, row: { ...rows0[1]!, answer: 'Paris, France' } }],
        remove: [0],
        append: [{ question: 'Smallest prime?', answer: 2 }],
      },
    });
    const rows1 = [{ ...rows0[1]!, answer: 'Paris, France' }, rows0[2]!, { question: 'Smallest prime?', answer: 2 }];
    const sdk1 = await sdkPublish('quiz', rows1, 'three questions');
    expect(saved.tableDigest).toBe(sdk1.tableDigest);
    expect(saved.digest).toBe(sdk1.digest);
    expect(saved.digest).not.toBe(v0.digest);
    const { objs } = await t.alice.client.objsQuery({ project_id: PROJECT, filter: { object_ids: ['quiz'] }, metadata_only: true });
    expect(objs.map((o) => o.version_index).sort()).toEqual([0, 1]);
  });

  it('column edits (rename, add, delete) rewrite every row as the SDK would publish them', async () => {
    const v0 = await sdkPublish('cols', rows0);
    const saved = await saveDatasetEdits(t.alice.client, {
      projectId: PROJECT,
      objectId: 'cols',
      baseVal: v0.val,
      edits: {
        replace: [{ index: 0, row: { ...rows0[0]!, difficulty: 0.2 } }],
        columns: [
          { op: 'rename', from: 'answer', to: 'expected' },
          { op: 'add', name: 'label', value: '' },
          { op: 'delete', name: 'difficulty' },
        ],
      },
    });
    const rows1 = rows0.map(({ question, answer, difficulty: _d, ...rest }) => ({ question, expected: answer, ...rest, label: '' }));
    const sdk1 = await sdkPublish('cols', rows1);
    expect(saved.tableDigest).toBe(sdk1.tableDigest);
    expect(saved.digest).toBe(sdk1.digest);
  });

  it('an import as a new dataset is the value the SDK publishes for a new weave.Dataset', async () => {
    const rows = [
      { input: 'a', n: 1 },
      { input: 'b', n: 2, note: null },
    ];
    const saved = await saveDatasetRows(t.alice.client, { projectId: PROJECT, objectId: 'imported', baseVal: null, rows });
    const sdk1 = await sdkPublish('imported', rows);
    expect(saved).toEqual({ digest: sdk1.digest, tableDigest: sdk1.tableDigest });
    const back = ((await new weave.ObjectRef(PROJECT, 'imported', saved.digest).get()) as weave.Dataset<DatasetRow>).getRow(1);
    expect(back).toMatchObject(rows[1]!);
  });

  it('runs an Evaluation on a chosen dataset version by publishing it again with only its dataset changed', async () => {
    const v0 = await sdkPublish('evalset', rows0);
    const v1 = await saveDatasetEdits(t.alice.client, { projectId: PROJECT, objectId: 'evalset', baseVal: v0.val, edits: { remove: [2] } });
    const ref = (digest: string) => `weave:///${PROJECT}/object/evalset:${digest}`;
    const evaluation = {
      _type: 'Evaluation',
      _class_name: 'Evaluation',
      _bases: ['Object', 'BaseModel'],
      name: 'e',
      dataset: ref(v0.digest),
      scorers: [],
      trials: 1,
    };
    const e0 = await t.alice.client.objCreate({ obj: { project_id: PROJECT, object_id: 'e', val: evaluation } });
    const e0Ref = `weave:///${PROJECT}/object/e:${e0.digest}`;

    expect(await evaluationOnDataset(t.alice.client, PROJECT, e0Ref, ref(v0.digest))).toBe(e0Ref);
    const onV1 = await evaluationOnDataset(t.alice.client, PROJECT, e0Ref, ref(v1.digest));
    const e1 = await t.alice.client.objCreate({
      obj: { project_id: PROJECT, object_id: 'e', val: { ...evaluation, dataset: ref(v1.digest) } },
    });
    expect(onV1).toBe(`weave:///${PROJECT}/object/e:${e1.digest}`);
    const { obj } = await t.alice.client.objRead({ project_id: PROJECT, object_id: 'e', digest: 'latest' });
    expect(obj).toMatchObject({ version_index: 1, val: { dataset: ref(v1.digest), scorers: [] } });
  });
});
