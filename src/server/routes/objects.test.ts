import { describe, expect, it } from 'vitest';
import { ObjQueryRes, ObjReadRes } from '../../contract/objects.js';
import { projectNames, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();

const project = projectNames('alice-co/objects');

const send = sendAsAlice(t);
const post = (path: string, body: unknown, method = 'POST') =>
  send(path, { method, body: typeof body === 'string' ? body : JSON.stringify(body) });

const create = (project_id: string, object_id: string, val: unknown) => t.alice.client.objCreate({ obj: { project_id, object_id, val } });
const read = (project_id: string, object_id: string, digest: string) => t.alice.client.objRead({ project_id, object_id, digest });

describe('POST /obj/create', () => {
  it('hashes the value as Python does, telling 1.0 from 1 in the body text', async () => {
    const project_id = project();
    const body = `{"obj": {"project_id": "${project_id}", "object_id": "ex", "val": {"b":1,"a":[1.0,"x",null,true],"c":{"z":"é","y":1e-7}}}}`;
    const res = await post('/obj/create', body);
    expect(res).toEqual({ status: 200, body: { digest: '5wi7jlXaAT6Jb0cqw9xKY27qDaY23hF89ErBEtyvOf0', object_id: 'ex' } });
    const { obj } = await read(project_id, 'ex', 'latest');
    expect(obj.val).toEqual({ b: 1, a: [1, 'x', null, true], c: { z: 'é', y: 1e-7 } });
    expect(obj).toMatchObject({
      version_index: 0,
      is_latest: 1,
      kind: 'object',
      wb_user_id: 'alice',
      deleted_at: null,
      tags: [],
      aliases: ['latest'],
    });
  });

  it('makes no new version for a value it already has', async () => {
    const project_id = project();
    const first = await create(project_id, 'cfg', { x: 1 });
    await create(project_id, 'cfg', { x: 2 });
    const again = await create(project_id, 'cfg', { x: 1 });
    expect(again.digest).toBe(first.digest);
    const { objs } = await t.alice.client.objsQuery({ project_id });
    expect(objs.map((o) => [o.version_index, o.is_latest])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('derives kind and classes: SDK ops, weave.Object subclasses, builtin classes', async () => {
    const project_id = project();
    const op = { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': 'abc' }, load_op: 'NO_LOAD_OP' };
    const model = { _type: 'MyModel', _class_name: 'MyModel', _bases: ['Model', 'Object', 'BaseModel'], name: 'm' };
    await create(project_id, 'my_op', op);
    await create(project_id, 'my_model', model);
    await t.alice.client.objCreate({ obj: { project_id, object_id: 'board', val: { columns: [] }, builtin_object_class: 'Board' } });
    const { objs } = await t.alice.client.objsQuery({ project_id });
    expect(objs.map((o) => [o.object_id, o.kind, o.base_object_class, o.leaf_object_class])).toEqual([
      ['my_op', 'op', null, null],
      ['my_model', 'object', 'Model', 'MyModel'],
      ['board', 'object', 'Board', 'Board'],
    ]);
    expect(objs[2]!.val).toEqual({
      _type: 'Board',
      name: null,
      description: null,
      columns: [],
      _class_name: 'Board',
      _bases: ['BaseObject', 'BaseModel'],
    });
  });

  it('answers 409 when expected_digest differs, and 400 for a class the value contradicts', async () => {
    const project_id = project();
    const ok = await post('/obj/create', {
      obj: { project_id, object_id: 'e', val: {}, expected_digest: 'RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o' },
    });
    expect(ok.status).toBe(200);
    const bad = await post('/obj/create', {
      obj: { project_id, object_id: 'e', val: { a: 1 }, expected_digest: 'RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o' },
    });
    expect(bad.status).toBe(409);
    const clash = await post('/obj/create', {
      obj: { project_id, object_id: 'm', val: { _class_name: 'A', _bases: ['Object', 'BaseModel'] }, builtin_object_class: 'B' },
    });
    expect(clash.status).toBe(400);
  });

  it('answers 422 for a missing value or a bad object id', async () => {
    const project_id = project();
    const missing = await post('/obj/create', { obj: { project_id, object_id: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'obj', 'val'], type: 'missing' });
    expect((await post('/obj/create', { obj: { project_id, object_id: 'a/b', val: 1 } })).status).toBe(422);
  });

  it("answers 403 for another entity's project", async () => {
    expect((await post('/obj/create', { obj: { project_id: 'bob-co/x', object_id: 'o', val: 1 } })).status).toBe(403);
  });
});

describe('POST /obj/read', () => {
  it('reads by digest, latest, v<N> and alias, with metadata_only', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'doc', { text: 'first' });
    const v1 = await create(project_id, 'doc', { text: 'second' });
    await t.alice.client.objSetAliases({ project_id, object_id: 'doc', digest: v0.digest, aliases: ['prod'] });
    expect((await read(project_id, 'doc', v0.digest)).obj.val).toEqual({ text: 'first' });
    expect((await read(project_id, 'doc', 'latest')).obj.digest).toBe(v1.digest);
    expect((await read(project_id, 'doc', 'v1')).obj.digest).toBe(v1.digest);
    const byAlias = await read(project_id, 'doc', 'prod');
    expect(ObjReadRes.parse(byAlias).obj).toMatchObject({ digest: v0.digest, is_latest: 0, aliases: ['prod'] });
    const meta = await t.alice.client.objRead({ project_id, object_id: 'doc', digest: 'latest', metadata_only: true });
    expect(meta.obj.val).toEqual({});
  });

  it('answers 404 for unknown objects and versions, with deleted_at for deleted ones', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'doc', { a: 1 });
    expect((await post('/obj/read', { project_id, object_id: 'nope', digest: 'latest' })).status).toBe(404);
    expect((await post('/obj/read', { project_id, object_id: 'doc', digest: 'v9' })).status).toBe(404);
    await t.alice.client.objDelete({ project_id, object_id: 'doc', digests: [v0.digest] });
    const gone = await post('/obj/read', { project_id, object_id: 'doc', digest: v0.digest });
    expect(gone.status).toBe(404);
    expect(gone.body.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("answers 403 for another entity's project and 422 without a digest", async () => {
    const res = await t.bob.client.objRead({ project_id: 'alice-co/objects-1', object_id: 'ex', digest: 'latest' }).catch((e) => e);
    expect(res.status).toBe(403);
    expect((await post('/obj/read', { project_id: project(), object_id: 'x' })).status).toBe(422);
  });
});

describe('POST /objs/query', () => {
  it('filters, sorts on object_id and created_at only, pages and reports sizes on request', async () => {
    const project_id = project();
    await create(project_id, 'b', { v: 1 });
    await create(project_id, 'a', { v: 1 });
    await create(project_id, 'a', { v: 2 });
    const ids = async (req: object) =>
      ObjQueryRes.parse(await t.alice.client.objsQuery({ project_id, ...req })).objs.map((o) => `${o.object_id}:v${o.version_index}`);
    expect(await ids({})).toEqual(['b:v0', 'a:v0', 'a:v1']);
    expect(await ids({ filter: { latest_only: true } })).toEqual(['b:v0', 'a:v1']);
    expect(await ids({ sort_by: [{ field: 'object_id', direction: 'asc' }] })).toEqual(['a:v0', 'a:v1', 'b:v0']);
    expect(await ids({ sort_by: [{ field: 'val.v', direction: 'desc' }] })).toEqual(['b:v0', 'a:v0', 'a:v1']);
    expect(await ids({ limit: 1, offset: 1 })).toEqual(['a:v0']);
    const { objs } = await t.alice.client.objsQuery({ project_id, include_storage_size: true, metadata_only: true, limit: 1 });
    expect(objs[0]).toMatchObject({ size_bytes: '{"v": 1}'.length, val: {} });
  });

  it('answers 422 for a bad filter and 403 across entities', async () => {
    expect((await post('/objs/query', { project_id: project(), filter: { is_op: 'yes' } })).status).toBe(422);
    expect((await post('/objs/query', { project_id: 'bob-co/p' })).status).toBe(403);
  });
});

describe('POST /obj/delete', () => {
  it('deletes named versions, moves latest back, and revives a re-created digest', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'o', { i: 0 });
    const v1 = await create(project_id, 'o', { i: 1 });
    // The alias is resolved to the content digest in the report (tests/trace/test_obj_delete.py).
    expect(await t.alice.client.objDelete({ project_id, object_id: 'o', digests: ['latest'] })).toEqual({
      num_deleted: 1,
      deleted_versions: [{ digest: v1.digest, base_object_class: null, leaf_object_class: null }],
    });
    expect((await read(project_id, 'o', 'latest')).obj.digest).toBe(v0.digest);
    await create(project_id, 'o', { i: 1 });
    expect((await read(project_id, 'o', 'latest')).obj).toMatchObject({ digest: v1.digest, version_index: 2, deleted_at: null });
  });

  it('deletes all versions when none are named, reporting each with its classes', async () => {
    const project_id = project();
    const prompt = (content: string) => ({
      _type: 'StringPrompt',
      _class_name: 'StringPrompt',
      _bases: ['Prompt', 'Object', 'BaseModel'],
      content,
    });
    const p0 = await create(project_id, 'o', prompt('hello'));
    const p1 = await create(project_id, 'o', prompt('world'));
    const classes = { base_object_class: 'Prompt', leaf_object_class: 'StringPrompt' };
    expect(await t.alice.client.objDelete({ project_id, object_id: 'o' })).toEqual({
      num_deleted: 2,
      deleted_versions: [
        { digest: p0.digest, ...classes },
        { digest: p1.digest, ...classes },
      ],
    });
    expect((await t.alice.client.objsQuery({ project_id })).objs).toEqual([]);
  });

  it('answers 404 when anything named is missing (deleting nothing) and 400 beyond 100 digests', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'o', { i: 0 });
    expect((await post('/obj/delete', { project_id, object_id: 'o', digests: [v0.digest, 'v5'] })).status).toBe(404);
    expect((await read(project_id, 'o', v0.digest)).obj.deleted_at).toBeNull();
    expect((await post('/obj/delete', { project_id, object_id: 'missing' })).status).toBe(404);
    expect(
      (await post('/obj/delete', { project_id, object_id: 'o', digests: Array.from({ length: 101 }, (_, i) => `v${i}`) })).status,
    ).toBe(400);
    expect((await post('/obj/delete', { project_id: 'bob-co/p', object_id: 'o' })).status).toBe(403);
  });
});

describe('PUT /objs/:object_id/versions/:digest/tags', () => {
  it('adds tags as a set, listed on the version and by GET /tags', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'o', { i: 0 });
    await t.alice.client.objAddTags({ project_id, object_id: 'o', digest: v0.digest, tags: ['gold', 'reviewed'] });
    await t.alice.client.objAddTags({ project_id, object_id: 'o', digest: 'latest', tags: ['gold'] });
    expect((await read(project_id, 'o', 'v0')).obj.tags).toEqual(['gold', 'reviewed']);
    expect(await t.alice.client.tagsList({ project_id })).toEqual({ tags: ['gold', 'reviewed'] });
  });

  it('answers 404 for a missing version, 400 for a bad tag, 403 across entities', async () => {
    const project_id = project();
    await create(project_id, 'o', { i: 0 });
    const path = (digest: string) => `/objs/o/versions/${digest}/tags`;
    expect((await post(path('v3'), { project_id, tags: ['x'] }, 'PUT')).status).toBe(404);
    expect((await post(path('v0'), { project_id, tags: ['two  spaces'] }, 'PUT')).status).toBe(400);
    expect((await post(path('v0'), { project_id }, 'PUT')).status).toBe(422);
    expect((await post(path('v0'), { project_id: 'bob-co/p', tags: ['x'] }, 'PUT')).status).toBe(403);
  });
});

describe('POST /objs/:object_id/versions/:digest/tags/remove', () => {
  it('removes tags, ignoring absent ones and unknown versions', async () => {
    const project_id = project();
    await create(project_id, 'o', { i: 0 });
    await t.alice.client.objAddTags({ project_id, object_id: 'o', digest: 'v0', tags: ['a', 'b'] });
    await t.alice.client.objRemoveTags({ project_id, object_id: 'o', digest: 'v0', tags: ['a', 'zzz'] });
    await t.alice.client.objRemoveTags({ project_id, object_id: 'o', digest: 'v7', tags: ['b'] });
    expect((await read(project_id, 'o', 'v0')).obj.tags).toEqual(['b']);
    expect((await post('/objs/o/versions/v0/tags/remove', { project_id: 'bob-co/p', tags: ['b'] })).status).toBe(403);
  });
});

describe('PUT /objs/:object_id/aliases', () => {
  it('points an alias at one version at a time, listed by GET /aliases', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'o', { i: 0 });
    const v1 = await create(project_id, 'o', { i: 1 });
    await t.alice.client.objSetAliases({ project_id, object_id: 'o', digest: v0.digest, aliases: ['prod', 'best'] });
    await t.alice.client.objSetAliases({ project_id, object_id: 'o', digest: v1.digest, aliases: ['prod'] });
    expect((await read(project_id, 'o', 'v0')).obj.aliases).toEqual(['best']);
    expect((await read(project_id, 'o', 'v1')).obj.aliases).toEqual(['latest', 'prod']);
    expect(await t.alice.client.aliasesList({ project_id })).toEqual({ aliases: ['best', 'prod'] });
  });

  it('answers 400 for latest and reserved names, 404 for a missing version', async () => {
    const project_id = project();
    const v0 = await create(project_id, 'o', { i: 0 });
    for (const alias of ['latest', 'v2', 'a/b', ' ']) {
      expect((await post('/objs/o/aliases', { project_id, digest: v0.digest, aliases: [alias] }, 'PUT')).status).toBe(400);
    }
    expect((await post('/objs/o/aliases', { project_id, digest: 'v4', aliases: ['x'] }, 'PUT')).status).toBe(404);
    expect((await post('/objs/o/aliases', { project_id: 'bob-co/p', digest: 'v0', aliases: ['x'] }, 'PUT')).status).toBe(403);
  });
});

describe('POST /objs/:object_id/aliases/remove', () => {
  it('removes aliases; latest cannot be removed', async () => {
    const project_id = project();
    await create(project_id, 'o', { i: 0 });
    await t.alice.client.objSetAliases({ project_id, object_id: 'o', digest: 'latest', aliases: ['prod'] });
    await t.alice.client.objRemoveAliases({ project_id, object_id: 'o', aliases: ['prod', 'never-set'] });
    expect((await read(project_id, 'o', 'v0')).obj.aliases).toEqual(['latest']);
    expect((await post('/objs/o/aliases/remove', { project_id, aliases: ['latest'] })).status).toBe(400);
    expect((await post('/objs/o/aliases/remove', { project_id })).status).toBe(422);
  });
});

describe('GET /tags', () => {
  it('lists nothing for a fresh project and checks access', async () => {
    expect(await t.alice.client.tagsList({ project_id: project() })).toEqual({ tags: [] });
    expect((await t.fetch('/tags?project_id=bob-co/p')).status).toBe(403);
    expect((await t.fetch('/tags')).status).toBe(422);
  });
});

describe('GET /aliases', () => {
  it('lists nothing for a fresh project and checks access', async () => {
    expect(await t.alice.client.aliasesList({ project_id: project() })).toEqual({ aliases: [] });
    expect((await t.fetch('/aliases?project_id=bob-co/p')).status).toBe(403);
  });
});
