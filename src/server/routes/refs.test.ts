import { describe, expect, it } from 'vitest';
import { formatObjectRef } from '../domain/objects/refs.js';
import { projectNames, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();

const project = projectNames('alice-co/refs');

const create = async (project_id: string, object_id: string, val: unknown) => {
  const { digest } = await t.alice.client.objCreate({ obj: { project_id, object_id, val } });
  return formatObjectRef({ kind: 'object', projectId: project_id, name: object_id, digest });
};
const readRefs = (refs: string[]) => t.alice.client.refsReadBatch({ refs }).then((r) => r.vals);

async function post(refs: string[]): Promise<{ status: number; body: any }> {
  const res = await t.fetch('/refs/read_batch', { method: 'POST', json: { refs } });
  return { status: res.status, body: await res.json() };
}

describe('POST /refs/read_batch', () => {
  it('resolves object and op refs, walking key, attr and index edges', async () => {
    const project_id = project();
    const ref = await create(project_id, 'cfg', { model: { layers: [10, 20, 30] }, 'a/b': 'slash key' });
    const { digest } = await t.alice.client.objCreate({
      obj: { project_id, object_id: 'fn', val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' } } },
    });
    const opRef = formatObjectRef({ kind: 'op', projectId: project_id, name: 'fn', digest });
    expect(
      await readRefs([ref, `${ref}/key/model/attr/layers/index/1`, `${ref}/key/model/key/layers/index/-1`, `${ref}/key/a%2Fb`, opRef]),
    ).toEqual([
      { model: { layers: [10, 20, 30] }, 'a/b': 'slash key' },
      20,
      30,
      'slash key',
      { _type: 'CustomWeaveType', weave_type: { type: 'Op' } },
    ]);
  });

  it('answers null for missing keys, indexes and deleted versions; 404 for a missing version', async () => {
    const project_id = project();
    const ref = await create(project_id, 'o', { list: [1] });
    expect(await readRefs([`${ref}/key/nope`, `${ref}/key/list/index/5`, `${ref}/key/list/key/x`])).toEqual([null, null, null]);
    await t.alice.client.objDelete({ project_id, object_id: 'o' });
    expect(await readRefs([ref])).toEqual([null]);
    const missing = formatObjectRef({ kind: 'object', projectId: project_id, name: 'o', digest: 'A'.repeat(43) });
    expect((await post([missing])).status).toBe(404);
  });

  it('follows refs inside values: nested objects and dataset rows', async () => {
    const project_id = project();
    const { digest: table, row_digests } = await t.alice.client.tableCreate({ table: { project_id, rows: [{ q: 'one' }, { q: 'two' }] } });
    const child = await create(project_id, 'child', { deep: { x: 42 } });
    const ds = await create(project_id, 'ds', { _type: 'Dataset', rows: `weave:///${project_id}/table/${table}`, child });
    const rowRef = `weave:///${project_id}/table/${table}/id/${row_digests[1]}`;
    expect(await readRefs([`${ds}/attr/rows/id/${row_digests[0]}`, `${ds}/attr/child/key/deep/key/x`, rowRef, `${rowRef}/key/q`])).toEqual([
      { q: 'one' },
      42,
      { q: 'two' },
      'two',
    ]);
    expect(await readRefs([`${ds}/attr/rows/id/${'B'.repeat(43)}`, `${ds}/attr/child/id/${row_digests[0]}`])).toEqual([null, null]);
  });

  it('does not follow a ref into another project', async () => {
    const [p1, p2] = [project(), project()];
    const other = await create(p2, 'secret', { v: 1 });
    const ref = await create(p1, 'pointer', { to: other });
    expect(await readRefs([`${ref}/key/to/key/v`, other])).toEqual([null, { v: 1 }]);
  });

  it('answers 400 for call refs, bare table refs, non-digest versions, bad refs and more than 1000 refs', async () => {
    const project_id = project();
    const ref = await create(project_id, 'o', { v: 1 });
    for (const bad of [
      `weave:///${project_id}/call/0190e0e0-0000-7000-8000-000000000000`,
      `weave:///${project_id}/table/abc`,
      `weave:///${project_id}/object/o:latest`,
      `weave:///${project_id}/object/o:v0`,
      `${ref}/key`,
      `${ref}/color/red`,
      `${ref}/index/one`,
      'http://example.com/x',
      `weave:///${project_id}/widget/o:x`,
    ]) {
      expect((await post([bad])).status, bad).toBe(400);
    }
    expect((await post(Array.from({ length: 1001 }, () => ref))).status).toBe(400);
  });

  it('checks access to every project the refs name', async () => {
    const project_id = project();
    const ref = await create(project_id, 'o', { v: 1 });
    const res = await t.bob.client.refsReadBatch({ refs: [`weave:///bob-co/mine/object/x:${'C'.repeat(43)}`, ref] }).catch((e) => e);
    expect(res.status).toBe(403);
    expect((await post([])).body).toEqual({ vals: [] });
    expect((await t.fetch('/refs/read_batch', { method: 'POST', json: {} })).status).toBe(422);
  });
});
