import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotationQueueItemsQueryRes, AnnotationQueueSchema, AnnotationQueuesStatsRes } from '../../contract/annotationQueues.js';
import type { ReqOf } from '../../contract/endpoints.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString();
/** POST (or `method`) as alice, answering status and JSON body. */
const send = async (path: string, json?: unknown, method = 'POST') => {
  const res = await t.fetch(path, { method, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const create = async (name: string, over: Partial<ReqOf<'annotationQueueCreate'>> = {}) =>
  (await t.alice.client.annotationQueueCreate({ project_id: P, name, scorer_refs: [], ...over })).id;
const listQueues = async (req: Partial<ReqOf<'annotationQueuesQuery'>> = {}) => {
  const names: string[] = [];
  for await (const q of t.alice.client.annotationQueuesQuery({ project_id: P, ...req })) names.push(AnnotationQueueSchema.parse(q).name);
  return names;
};
const addCalls = (queue_id: string, call_ids: string[]) =>
  t.alice.client.annotationQueueAddCalls({ project_id: P, queue_id, call_ids, display_fields: ['inputs.q'] });
const itemCalls = async (queue_id: string, req: Partial<ReqOf<'annotationQueueItemsQuery'>> = {}) =>
  (await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id, ...req })).items.map((i) => i.call_id);

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/aq`;
  // c1..c3 start 3, 1, 2 seconds in; c1 has ended; c2 and c3 run the "judge" op; "gone" is deleted.
  const starts = [
    ['c1', 3, 'answer'],
    ['c2', 1, 'judge'],
    ['c3', 2, 'judge'],
    ['gone', 4, 'answer'],
  ] as const;
  await t.alice.client.callUpsertBatch({
    batch: [
      ...starts.map(([id, s, op]) => ({
        mode: 'start' as const,
        req: { start: { project_id: P, id, trace_id: `tr-${id}`, op_name: op, started_at: at(s), attributes: {}, inputs: { q: id } } },
      })),
      { mode: 'end', req: { end: { project_id: P, id: 'c1', ended_at: at(5), summary: {} } } },
    ],
  });
  await t.alice.client.callsDelete({ project_id: P, call_ids: ['gone'] });
});
afterAll(async () => {
  await t.close();
});

describe('POST /annotation_queues', () => {
  it('creates a queue owned by the caller, whatever wb_user_id says', async () => {
    const id = await create('Errors', { wb_user_id: 'mallory', scorer_refs: ['weave:///x/y/object/q:d'] });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const { queue } = await t.alice.client.annotationQueueRead({ project_id: P, queue_id: id });
    expect(queue).toMatchObject({
      id,
      project_id: P,
      name: 'Errors',
      description: '',
      scorer_refs: ['weave:///x/y/object/q:d'],
      created_by: 'alice',
      deleted_at: null,
    });
    expect(queue.updated_at).toBe(queue.created_at);
    expect(AnnotationQueueSchema.parse(queue).display_fields).toBeNull();
  });

  it('keeps the display fields chosen for the queue (a Weft extension)', async () => {
    const id = await create('With fields', { display_fields: ['inputs.q', 'output'] });
    const { queue } = await t.alice.client.annotationQueueRead({ project_id: P, queue_id: id });
    expect(AnnotationQueueSchema.parse(queue).display_fields).toEqual(['inputs.q', 'output']);
    const listed: unknown[] = [];
    for await (const q of t.alice.client.annotationQueuesQuery({ project_id: P, name: 'With fields' })) listed.push(q.display_fields);
    expect(listed).toEqual([['inputs.q', 'output']]);
  });

  it('answers 422 without name or scorer_refs, 403 in another entity, 401 without credentials', async () => {
    expect((await send('/annotation_queues', { project_id: P, scorer_refs: [] })).status).toBe(422);
    expect((await send('/annotation_queues', { project_id: P, name: 'x' })).status).toBe(422);
    expect((await send('/annotation_queues', { project_id: `${t.bob.entity}/aq`, name: 'x', scorer_refs: [] })).status).toBe(403);
    const anonymous = await t.fetch('/annotation_queues', {
      json: { project_id: P, name: 'x', scorer_refs: [] },
      headers: { authorization: '' },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /annotation_queues/query', () => {
  const Q = () => `${t.alice.entity}/aq-list`;
  beforeAll(async () => {
    for (const name of ['Alpha', 'beta', 'Gamma']) await t.alice.client.annotationQueueCreate({ project_id: Q(), name, scorer_refs: [] });
  });

  it('streams live queues newest first as JSON lines, x-ndjson when asked', async () => {
    expect(await listQueues({ project_id: Q() })).toEqual(['Gamma', 'beta', 'Alpha']);
    const res = await t.fetch('/annotation_queues/query', {
      json: { project_id: Q() },
      headers: { authorization: t.alice.authHeader, accept: 'application/x-ndjson' },
    });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect((await res.text()).trim().split('\n')).toHaveLength(3);
  });

  it('filters by case-insensitive substring, sorts (unknown fields dropped) and pages', async () => {
    expect(await listQueues({ project_id: Q(), name: 'A' })).toEqual(['Gamma', 'beta', 'Alpha']);
    expect(await listQueues({ project_id: Q(), name: 'ALP' })).toEqual(['Alpha']);
    const byName = [
      { field: 'bogus', direction: 'desc' as const },
      { field: 'name', direction: 'desc' as const },
    ];
    expect(await listQueues({ project_id: Q(), sort_by: byName, limit: 2, offset: 1 })).toEqual(['Gamma', 'Alpha']);
  });

  it('answers 403 for a project in another entity', async () => {
    expect((await send('/annotation_queues/query', { project_id: `${t.bob.entity}/aq` })).status).toBe(403);
  });
});

describe('GET /annotation_queues/:queue_id', () => {
  it('answers 404 for an unknown queue, or for a queue of another project', async () => {
    const id = await create('Mine');
    expect((await send(`/annotation_queues/nope?project_id=${P}`, undefined, 'GET')).status).toBe(404);
    const bobs = await t.fetch(`/annotation_queues/${id}?project_id=${t.bob.entity}/aq`, { headers: { authorization: t.bob.authHeader } });
    expect(bobs.status).toBe(404);
  });

  it("answers 403 when bob reads alice's queue, 422 without project_id", async () => {
    const id = await create('Private');
    const res = await t.fetch(`/annotation_queues/${id}?project_id=${P}`, { headers: { authorization: t.bob.authHeader } });
    expect(res.status).toBe(403);
    expect((await send(`/annotation_queues/${id}`, undefined, 'GET')).status).toBe(422);
  });
});

describe('PUT /annotation_queues/:queue_id', () => {
  it('changes only the non-null fields and refreshes updated_at', async () => {
    const id = await create('Before', { description: 'keep me', scorer_refs: ['a'] });
    const { queue: before } = await t.alice.client.annotationQueueRead({ project_id: P, queue_id: id });
    await new Promise((r) => setTimeout(r, 2));
    const { queue } = await t.alice.client.annotationQueueUpdate({
      project_id: P,
      queue_id: id,
      name: 'After',
      description: null,
      scorer_refs: ['b', 'c'],
    });
    expect(queue).toMatchObject({
      name: 'After',
      description: 'keep me',
      scorer_refs: ['b', 'c'],
      created_at: before.created_at,
      deleted_at: null,
    });
    expect(queue.updated_at > before.updated_at).toBe(true);
    expect((await t.alice.client.annotationQueueRead({ project_id: P, queue_id: id })).queue).toEqual(queue);
  });

  it('replaces display_fields when given and keeps them when null or absent', async () => {
    const id = await create('Fields', { display_fields: ['inputs'] });
    const update = (display_fields?: string[] | null) =>
      t.alice.client.annotationQueueUpdate({ project_id: P, queue_id: id, display_fields });
    expect((await update(['inputs.q', 'output.answer'])).queue.display_fields).toEqual(['inputs.q', 'output.answer']);
    expect((await update(null)).queue.display_fields).toEqual(['inputs.q', 'output.answer']);
    expect((await update()).queue.display_fields).toEqual(['inputs.q', 'output.answer']);
    expect((await update([])).queue.display_fields).toEqual([]);
  });

  it('answers 404 for an unknown queue and 403 for bob', async () => {
    expect((await send(`/annotation_queues/nope`, { project_id: P, name: 'x' }, 'PUT')).status).toBe(404);
    const res = await t.fetch(`/annotation_queues/nope`, {
      method: 'PUT',
      body: JSON.stringify({ project_id: P }),
      headers: { authorization: t.bob.authHeader },
    });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /annotation_queues/:queue_id', () => {
  it('soft-deletes: answers the deleted queue, then 404 everywhere, and hides its items', async () => {
    const id = await create('Doomed');
    await addCalls(id, ['c1']);
    const res = await send(`/annotation_queues/${id}?project_id=${P}`, undefined, 'DELETE');
    expect(res.status).toBe(200);
    const deleted = AnnotationQueueSchema.parse(res.body.queue);
    expect(deleted).toMatchObject({ id, name: 'Doomed', deleted_at: deleted.updated_at });
    expect(deleted.deleted_at).not.toBeNull();
    expect((await send(`/annotation_queues/${id}?project_id=${P}`, undefined, 'GET')).status).toBe(404);
    expect((await send(`/annotation_queues/${id}?project_id=${P}`, undefined, 'DELETE')).status).toBe(404);
    expect((await send(`/annotation_queues/${id}`, { project_id: P, name: 'x' }, 'PUT')).status).toBe(404);
    expect((await send(`/annotation_queues/${id}/items/query`, { project_id: P })).status).toBe(404);
    expect((await send(`/annotation_queues/${id}/items`, { project_id: P, call_ids: ['c2'], display_fields: [] })).status).toBe(404);
    expect(await listQueues()).not.toContain('Doomed');
    const { stats } = await t.alice.client.annotationQueuesStats({ project_id: P, queue_ids: [id] });
    expect(stats).toEqual([{ queue_id: id, total_items: 0, completed_items: 0, reviewed_items: 0 }]);
  });
});

describe('POST /annotation_queues/:queue_id/items', () => {
  it('adds found calls once, counting duplicates; unknown and deleted calls count in neither', async () => {
    const id = await create('Adds');
    expect(await addCalls(id, ['c1', 'c2', 'nope', 'gone', 'c1'])).toEqual({ added_count: 2, duplicates: 0 });
    expect(await addCalls(id, ['c2', 'c3', 'nope'])).toEqual({ added_count: 1, duplicates: 1 });
    expect(await addCalls(id, ['c1', 'c2'])).toEqual({ added_count: 0, duplicates: 2 });
    expect(await itemCalls(id)).toEqual(['c1', 'c2', 'c3']);
  });

  it("copies the call's op name, trace id and times, and who added it", async () => {
    const id = await create('Copies');
    await addCalls(id, ['c1', 'c2']);
    const { items } = AnnotationQueueItemsQueryRes.parse(await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id: id }));
    expect(items[0]).toMatchObject({
      queue_id: id,
      project_id: P,
      call_id: 'c1',
      call_op_name: 'answer',
      call_trace_id: 'tr-c1',
      call_started_at: '2024-01-01T00:00:03Z',
      call_ended_at: '2024-01-01T00:00:05Z',
      display_fields: ['inputs.q'],
      added_by: 'alice',
      created_by: 'alice',
      annotation_state: 'unstarted',
      annotator_user_id: null,
      deleted_at: null,
      position_in_queue: null,
    });
    expect(items[1]).toMatchObject({ call_id: 'c2', call_ended_at: null });
  });

  it('answers 404 for an unknown queue, 403 for bob, 422 without display_fields', async () => {
    expect((await send('/annotation_queues/nope/items', { project_id: P, call_ids: ['c1'], display_fields: [] })).status).toBe(404);
    const res = await t.fetch('/annotation_queues/nope/items', {
      json: { project_id: P, call_ids: [], display_fields: [] },
      headers: { authorization: t.bob.authHeader },
    });
    expect(res.status).toBe(403);
    expect((await send('/annotation_queues/nope/items', { project_id: P, call_ids: ['c1'] })).status).toBe(422);
  });
});

describe('POST /annotation_queues/:queue_id/items/query', () => {
  let id: string;
  beforeAll(async () => {
    id = await create('Browse');
    await addCalls(id, ['c1', 'c2', 'c3']);
    const [, , c3] = (await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id: id })).items;
    await t.alice.client.annotatorQueueItemsProgressUpdate({ project_id: P, queue_id: id, item_id: c3!.id, annotation_state: 'completed' });
  });

  it('answers one JSON object, in insertion order by default', async () => {
    const res = await send(`/annotation_queues/${id}/items/query`, { project_id: P });
    expect(res.status).toBe(200);
    expect(AnnotationQueueItemsQueryRes.parse(res.body).items.map((i) => i.call_id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('filters on call fields and aggregated states', async () => {
    expect(await itemCalls(id, { filter: { call_op_name: 'judge' } })).toEqual(['c2', 'c3']);
    expect(await itemCalls(id, { filter: { call_trace_id: 'tr-c1', added_by: 'alice' } })).toEqual(['c1']);
    expect(await itemCalls(id, { filter: { annotation_states: ['completed'] } })).toEqual(['c3']);
    expect(await itemCalls(id, { filter: { annotation_states: ['unstarted', 'in_progress'] } })).toEqual(['c1', 'c2']);
    expect((await send(`/annotation_queues/${id}/items/query`, { project_id: P, filter: { annotation_states: ['done'] } })).status).toBe(
      422,
    );
  });

  it('sorts (unknown fields dropped), pages, and numbers positions before the state filter', async () => {
    const byStart = [
      { field: 'inputs.q', direction: 'asc' as const },
      { field: 'call_started_at', direction: 'desc' as const },
    ];
    expect(await itemCalls(id, { sort_by: byStart })).toEqual(['c1', 'c3', 'c2']);
    expect(await itemCalls(id, { sort_by: byStart, limit: 1, offset: 1 })).toEqual(['c3']);
    const { items } = await t.alice.client.annotationQueueItemsQuery({
      project_id: P,
      queue_id: id,
      sort_by: byStart,
      include_position: true,
      filter: { annotation_states: ['unstarted'] },
    });
    expect(items.map((i) => [i.call_id, i.position_in_queue])).toEqual([
      ['c1', 1],
      ['c2', 3],
    ]);
  });

  it('answers 403 for bob and 404 for an unknown queue', async () => {
    const res = await t.fetch(`/annotation_queues/${id}/items/query`, {
      json: { project_id: P },
      headers: { authorization: t.bob.authHeader },
    });
    expect(res.status).toBe(403);
    expect((await send('/annotation_queues/nope/items/query', { project_id: P })).status).toBe(404);
  });
});

describe('POST /annotation_queues/stats', () => {
  it('answers one entry per requested id, in order, zeros for unknown ids', async () => {
    const id = await create('Counted');
    await addCalls(id, ['c1', 'c2']);
    const res = AnnotationQueuesStatsRes.parse(await t.alice.client.annotationQueuesStats({ project_id: P, queue_ids: ['nope', id] }));
    expect(res.stats).toEqual([
      { queue_id: 'nope', total_items: 0, completed_items: 0, reviewed_items: 0 },
      { queue_id: id, total_items: 2, completed_items: 0, reviewed_items: 0 },
    ]);
    expect((await send('/annotation_queues/stats', { project_id: P })).status).toBe(422);
  });
});
