/**
 * v2 ops and datasets over HTTP: stored as the SDKs store them (code in obj.py, rows in a
 * table), versioned like /obj/create, listed, read, deleted; 404, 422 and 403 answers.
 */
import { describe, expect, it } from 'vitest';
import { DatasetReadRes, OpReadRes } from '../../contract/v2Objects.js';
import { valueDigest } from '../domain/objects/digests.js';
import { fromPlain } from '../domain/objects/losslessJson.js';
import { collect, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();

let n = 0;
/** A fresh project of alice's: its path parameters and its id. */
const fresh = () => {
  const project = `v2-${++n}`;
  return { entity: 'alice-co', project, id: `alice-co/${project}`, base: `/v2/alice-co/${project}` };
};

async function send(path: string, init: { method?: string; json?: unknown; body?: string; auth?: string } = {}) {
  const headers = init.auth ? { authorization: init.auth } : undefined;
  const res = await t.fetch(path, {
    method: init.method ?? (init.json !== undefined || init.body ? 'POST' : 'GET'),
    body: init.body ?? JSON.stringify(init.json),
    headers,
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text.includes('\n')
      ? text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : JSON.parse(text || 'null'),
  };
}

const fileText = async (project_id: string, digest: string) => (await t.alice.client.fileContent({ project_id, digest })).text();

describe('POST /v2/:entity/:project/ops', () => {
  it('stores the code as obj.py and the op as a CustomWeaveType object, versioned by content', async () => {
    const p = fresh();
    const first = await t.alice.client.opCreate({
      entity: p.entity,
      project: p.project,
      name: 'My Op/v2',
      source_code: 'def f(): return 1\n',
    });
    expect(first).toMatchObject({ object_id: 'my_op_v2', version_index: 0 });
    const { obj } = await t.alice.client.objRead({ project_id: p.id, object_id: 'my_op_v2', digest: first.digest });
    expect(obj).toMatchObject({ kind: 'op', wb_user_id: 'alice', val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' } } });
    expect(valueDigest(fromPlain(obj.val))).toBe(first.digest);
    expect(await fileText(p.id, (obj.val as { files: Record<string, string> }).files['obj.py']!)).toBe('def f(): return 1\n');

    const again = await t.alice.client.opCreate({
      entity: p.entity,
      project: p.project,
      name: 'My Op/v2',
      source_code: 'def f(): return 1\n',
    });
    expect(again).toEqual(first);
    const next = await t.alice.client.opCreate({
      entity: p.entity,
      project: p.project,
      name: 'My Op/v2',
      source_code: 'def f(): return 2\n',
    });
    expect(next.version_index).toBe(1);
  });

  it('defaults the name to Op and the code to a placeholder stub', async () => {
    const p = fresh();
    const op = await t.alice.client.opCreate({ entity: p.entity, project: p.project });
    expect(op.object_id).toBe('Op');
    const read = await t.alice.client.opRead({ entity: p.entity, project: p.project, object_id: 'Op', digest: op.digest });
    expect(read.code).toContain('Code-capture unavailable');
  });

  it('answers 422 for a wrong type, 400 for a name that makes no object id, 403 in another entity', async () => {
    const p = fresh();
    expect((await send(`${p.base}/ops`, { json: { source_code: 42 } })).status).toBe(422);
    const bad = await send(`${p.base}/ops`, { json: { name: 'a:b' } });
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toContain('object id');
    expect((await send('/v2/bob-co/x/ops', { json: { name: 'x' } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/ops', () => {
  it('streams every version of every op, by name then newest first, with code; pages', async () => {
    const p = fresh();
    for (const [name, code] of [
      ['b', '1'],
      ['a', '1'],
      ['a', '2'],
    ] as const) {
      await t.alice.client.opCreate({ entity: p.entity, project: p.project, name, source_code: code });
    }
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'not-an-op', rows: [] });
    const ops = (await collect(t.alice.client.opList({ entity: p.entity, project: p.project }))).map((o) => OpReadRes.parse(o));
    expect(ops.map((o) => [o.object_id, o.version_index, o.code])).toEqual([
      ['a', 1, '2'],
      ['a', 0, '1'],
      ['b', 0, '1'],
    ]);
    const page = await collect(t.alice.client.opList({ entity: p.entity, project: p.project, limit: 1, offset: 1 }));
    expect(page.map((o) => [o.object_id, o.version_index])).toEqual([['a', 0]]);
  });

  it('answers 422 for a non-numeric limit and 403 for another entity', async () => {
    const p = fresh();
    expect((await send(`${p.base}/ops?limit=many`)).status).toBe(422);
    expect((await send('/v2/bob-co/x/ops')).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/ops/:object_id/versions/:digest', () => {
  it('reads a version by digest or latest; 404 when missing, deleted or not an op', async () => {
    const p = fresh();
    const op = await t.alice.client.opCreate({ entity: p.entity, project: p.project, name: 'reader', source_code: 'x = 1' });
    const read = OpReadRes.parse(
      await t.alice.client.opRead({ entity: p.entity, project: p.project, object_id: 'reader', digest: 'latest' }),
    );
    expect(read).toMatchObject({ object_id: 'reader', digest: op.digest, version_index: 0, code: 'x = 1' });
    expect((await send(`${p.base}/ops/reader/versions/${'A'.repeat(43)}`)).status).toBe(404);
    const ds = await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'ds', rows: [] });
    expect((await send(`${p.base}/ops/ds/versions/${ds.digest}`)).status).toBe(404);
    await t.alice.client.opDelete({ entity: p.entity, project: p.project, object_id: 'reader' });
    const gone = await send(`${p.base}/ops/reader/versions/${op.digest}`);
    expect(gone.status).toBe(404);
    expect(gone.body.deleted_at).toEqual(expect.any(String));
    expect((await send(`/v2/bob-co/x/ops/reader/versions/${op.digest}`)).status).toBe(403);
    expect((await send(`${p.base}/ops/reader/versions/latest?eager=maybe`)).status).toBe(422);
  });
});

describe('DELETE /v2/:entity/:project/ops/:object_id', () => {
  it('deletes the listed versions (repeated digests keys) or all; 404 for unknown ones', async () => {
    const p = fresh();
    const digests = [];
    for (const code of ['1', '2', '3'])
      digests.push((await t.alice.client.opCreate({ entity: p.entity, project: p.project, name: 'd', source_code: code })).digest);
    const some = await send(`${p.base}/ops/d?digests=${digests[0]}&digests=${digests[1]}`, { method: 'DELETE' });
    expect(some).toEqual({ status: 200, body: { num_deleted: 2 } });
    expect((await send(`${p.base}/ops/d?digests=${digests[0]}`, { method: 'DELETE' })).status).toBe(404);
    expect(await t.alice.client.opDelete({ entity: p.entity, project: p.project, object_id: 'd' })).toEqual({ num_deleted: 1 });
    expect((await send(`${p.base}/ops/d`, { method: 'DELETE' })).status).toBe(404);
    expect((await send('/v2/bob-co/x/ops/d', { method: 'DELETE' })).status).toBe(403);
  });
});

describe('POST /v2/:entity/:project/datasets', () => {
  it('stores the rows as a table (1.0 kept) and the dataset as the SDKs do', async () => {
    const p = fresh();
    const body = '{"name": "Quiz Set", "description": "tiny", "rows": [{"q": "2+2", "a": 4.0}, {"q": "3+3", "a": 6}]}';
    const created = await send(`${p.base}/datasets`, { body });
    expect(created.body).toMatchObject({ object_id: 'quiz_set', version_index: 0 });
    const { obj } = await t.alice.client.objRead({ project_id: p.id, object_id: 'quiz_set', digest: created.body.digest });
    expect(obj).toMatchObject({ base_object_class: 'Dataset', leaf_object_class: 'Dataset' });
    expect(obj.val).toEqual({
      _type: 'Dataset',
      _class_name: 'Dataset',
      _bases: ['Object', 'BaseModel'],
      name: 'Quiz Set',
      description: 'tiny',
      rows: expect.stringMatching(/^weave:\/\/\/alice-co\/v2-\d+\/table\/[0-9a-f]{64}$/),
    });
    const table = await t.alice.client.tableCreate({ table: { project_id: p.id, rows: [{ q: '2+2', a: 4 }] } });
    const stored = await t.alice.client.tableQuery({ project_id: p.id, digest: (obj.val as { rows: string }).rows.split('/').pop()! });
    expect(stored.rows.map((r) => r.val)).toEqual([
      { q: '2+2', a: 4 },
      { q: '3+3', a: 6 },
    ]);
    // The row written as 4.0 hashed as a float, unlike the same row sent with 4.
    expect(stored.rows[0]!.digest).not.toBe(table.row_digests[0]);
  });

  it('answers 422 without rows or with a row that is not an object, 403 in another entity', async () => {
    const p = fresh();
    expect((await send(`${p.base}/datasets`, { json: { name: 'x' } })).status).toBe(422);
    expect((await send(`${p.base}/datasets`, { json: { name: 'x', rows: [1] } })).status).toBe(422);
    expect((await send('/v2/bob-co/x/datasets', { json: { rows: [] } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/datasets', () => {
  it('lists dataset versions only, in creation order, and pages', async () => {
    const p = fresh();
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, rows: [{ x: 1 }] });
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'second', rows: [] });
    await t.alice.client.opCreate({ entity: p.entity, project: p.project, name: 'op' });
    const lines = (await collect(t.alice.client.datasetList({ entity: p.entity, project: p.project }))).map((d) => DatasetReadRes.parse(d));
    expect(lines.map((d) => [d.object_id, d.name])).toEqual([
      ['Dataset', 'Dataset'],
      ['second', 'second'],
    ]);
    expect(await collect(t.alice.client.datasetList({ entity: p.entity, project: p.project, offset: 1 }))).toHaveLength(1);
    expect((await send(`${p.base}/datasets?offset=-1`)).status).toBe(422);
    expect((await send('/v2/bob-co/x/datasets')).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/datasets/:object_id/versions/:digest', () => {
  it('reads name, description and the rows table ref; 404 when unknown or not a dataset', async () => {
    const p = fresh();
    const ds = await t.alice.client.datasetCreate({
      entity: p.entity,
      project: p.project,
      name: 'ds',
      description: 'about',
      rows: [{ x: 1 }],
    });
    const read = await t.alice.client.datasetRead({ entity: p.entity, project: p.project, object_id: 'ds', digest: ds.digest });
    expect(read).toMatchObject({
      object_id: 'ds',
      name: 'ds',
      description: 'about',
      version_index: 0,
      rows: expect.stringContaining('/table/'),
    });
    expect((await send(`${p.base}/datasets/nope/versions/latest`)).status).toBe(404);
    await t.alice.client.opCreate({ entity: p.entity, project: p.project, name: 'op' });
    expect((await send(`${p.base}/datasets/op/versions/latest`)).status).toBe(404);
    expect((await send(`/v2/bob-co/x/datasets/ds/versions/${ds.digest}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/datasets/:object_id', () => {
  it('deletes every version; refuses an op under /datasets (404)', async () => {
    const p = fresh();
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'ds', rows: [{ x: 1 }] });
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'ds', rows: [{ x: 2 }] });
    expect(await t.alice.client.datasetDelete({ entity: p.entity, project: p.project, object_id: 'ds' })).toEqual({ num_deleted: 2 });
    await t.alice.client.opCreate({ entity: p.entity, project: p.project, name: 'op' });
    expect((await send(`${p.base}/datasets/op`, { method: 'DELETE' })).status).toBe(404);
    expect((await send('/v2/bob-co/x/datasets/ds', { method: 'DELETE' })).status).toBe(403);
  });
});
