/**
 * The official `weave` npm SDK publishing an op, a dataset and a model to a real Weft server,
 * then everything read back through Weft's API (and the SDK's own `ref.get()`), with the
 * digests the SDK was given equal to those Weft computes from the stored values.
 *
 * What the SDK sends (weave 0.11.1, dist/weaveClient.js): an op is its source code uploaded
 * with POST /file/create plus an /obj/create of a `CustomWeaveType` pointing at the file's
 * digest; a Dataset's rows go to /table/create (then /table/query for the row digests) and
 * the dataset object holds the table ref; a WeaveObject subclass is saved with `_type`,
 * `_class_name` and `_bases: ["Object", "BaseModel"]`, its ops replaced by op refs.
 * `client.publish(x)` resolves to the ref once its requests are answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import { valueDigest } from './domain/objects/digests.js';
import { fromPlain } from './domain/objects/losslessJson.js';
import { startTestServer, type TestServer } from './testing/testServer.js';

const PROJECT = 'alice-co/objs';

let t: TestServer;
let sdk: Awaited<ReturnType<typeof weave.init>>;
const savedEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  t = await startTestServer();
  for (const k of ['WF_TRACE_SERVER_URL', 'WANDB_API_KEY']) savedEnv[k] = process.env[k];
  process.env.WF_TRACE_SERVER_URL = t.url;
  process.env.WANDB_API_KEY = t.alice.apiKey;
  sdk = await weave.init(PROJECT, { printCallLink: false });
});

afterAll(async () => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await t.close();
});

/** Reads a version through Weft and checks its digest is the hash of its stored value. */
async function readBack(objectId: string, digest: string) {
  const { obj } = await t.alice.client.objRead({ project_id: PROJECT, object_id: objectId, digest });
  expect(obj.digest).toBe(digest);
  expect(valueDigest(fromPlain(obj.val))).toBe(digest);
  return obj;
}

/** A dataset row as the SDK types it: any object, which it marks with its row ref once saved. */
type Row = ConstructorParameters<typeof weave.Dataset>[0]['rows'][number];

class Summarizer extends weave.WeaveObject {
  temperature = 0.25;
  prefix = 'Summary: ';
  predict = weave.op(async (text: string) => `${this.prefix}${text.slice(0, 10)}`, { name: 'Summarizer.predict' });
}

describe('the weave npm SDK publishing objects', () => {
  it('publishes an op: its code as a file, the op as an object of kind op', async () => {
    const shout = weave.op(async function shout(s: string) {
      return s.toUpperCase();
    });
    const ref = (await sdk.publish(shout)) as { objectId: string; digest: string };
    const obj = await readBack(ref.objectId, ref.digest);
    expect(obj).toMatchObject({ object_id: 'shout', kind: 'op', version_index: 0, is_latest: 1 });
    const fileDigest = (obj.val as { files: Record<string, string> }).files['obj.py']!;
    const code = await (await t.alice.client.fileContent({ project_id: PROJECT, digest: fileDigest })).text();
    expect(code).toContain('toUpperCase');
  });

  it('publishes a dataset: rows in a table, row refs resolvable, and readable by the SDK', async () => {
    const rows: Row[] = [
      { question: 'What is 2+2?', answer: '4', difficulty: 0.1 },
      { question: 'Capital of France? (café)', answer: 'Paris', difficulty: 0.35 },
      { question: 'Empty things', answer: '', tags: [], meta: {} },
    ];
    const expected = structuredClone(rows); // the SDK marks the rows it is given with their refs
    const dataset = new weave.Dataset({ name: 'quiz', description: 'tiny', rows });
    const ref = (await sdk.publish(dataset)) as weave.ObjectRef;
    const obj = await readBack('quiz', ref.digest);
    expect(obj).toMatchObject({ kind: 'object', base_object_class: 'Dataset', leaf_object_class: 'Dataset' });
    const tableRef = (obj.val as { rows: string }).rows;
    expect(tableRef).toMatch(new RegExp(`^weave:///${PROJECT}/table/[0-9a-f]{64}$`));
    const table = await t.alice.client.tableQuery({ project_id: PROJECT, digest: tableRef.split('/').pop()! });
    expect(table.rows.map((r) => r.val)).toEqual(expected);

    const rowRef = await dataset.getRow(1).__savedRef!;
    const { vals } = await t.alice.client.refsReadBatch({ refs: [rowRef.uri()] });
    expect(vals).toEqual([expected[1]]);

    const loaded = (await ref.get()) as weave.Dataset<Row>;
    expect(loaded.length).toBe(3);
    expect(loaded.getRow(2)).toMatchObject(expected[2]!);

    const again = (await sdk.publish(
      new weave.Dataset({ name: 'quiz', description: 'tiny', rows: structuredClone(expected) }),
    )) as weave.ObjectRef;
    expect(again.digest).toBe(ref.digest);
    const { objs } = await t.alice.client.objsQuery({ project_id: PROJECT, filter: { object_ids: ['quiz'] } });
    expect(objs).toHaveLength(1);
  });

  it('publishes a model: a weave.Object subclass whose op attribute becomes an op ref', async () => {
    const model = new Summarizer({ name: 'summarizer' });
    const ref = (await sdk.publish(model)) as weave.ObjectRef;
    const obj = await readBack('summarizer', ref.digest);
    expect(obj).toMatchObject({ base_object_class: 'Summarizer', leaf_object_class: 'Summarizer' });
    const val = obj.val as { predict: string; temperature: number; _bases: string[] };
    expect(val).toMatchObject({ _type: 'Summarizer', temperature: 0.25, _bases: ['Object', 'BaseModel'] });
    const opRef = /^weave:\/\/\/alice-co\/objs\/op\/([^:]+):([A-Za-z0-9]{43})$/.exec(val.predict);
    expect(opRef?.[1]).toBe('Summarizer.predict');
    await readBack(opRef![1]!, opRef![2]!);
    const { objs } = await t.alice.client.objsQuery({ project_id: PROJECT, filter: { leaf_object_classes: ['Summarizer'] } });
    expect(objs.map((o) => o.digest)).toEqual([ref.digest]);
  });
});
