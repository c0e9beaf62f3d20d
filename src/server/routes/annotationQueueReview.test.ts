/** Reviewing queue items over HTTP: the per-annotator progress state machine and Weft's submit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotationQueueItemSubmitRes, AnnotatorQueueItemsProgressUpdateRes } from '../../contract/annotationQueues.js';
import type { WeftClient } from '../../client/index.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
/** A second reviewer in alice's entity. */
let carol: WeftClient;
const CALLS = Array.from({ length: 30 }, (_, i) => `call-${i}`);

const post = async (path: string, json: unknown, authorization = t.alice.authHeader) => {
  const res = await t.fetch(path, { json, headers: { authorization } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const newQueue = async (scorer_refs: string[] = []) => {
  const { id } = await t.alice.client.annotationQueueCreate({ project_id: P, name: 'Review', scorer_refs });
  await t.alice.client.annotationQueueAddCalls({ project_id: P, queue_id: id, call_ids: CALLS, display_fields: [] });
  const { items } = await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id: id });
  return { id, items };
};
const stateOf = async (queue_id: string, item_id: string) => {
  const [item] = (await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id, filter: { id: item_id } })).items;
  return [item!.annotation_state, item!.annotator_user_id];
};
const progress = (client: WeftClient, queue_id: string, item_id: string, annotation_state: string) =>
  client.annotatorQueueItemsProgressUpdate({ project_id: P, queue_id, item_id, annotation_state });

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/review`;
  await t.server.store.accounts.upsertUser({
    username: 'carol',
    entities: [t.alice.entity],
    passwordHash: await hashSecret('carol-pw', TEST_SCRYPT),
  });
  carol = t.clientAs({ username: 'carol', password: 'carol-pw' });
  await t.alice.client.callUpsertBatch({
    batch: CALLS.map((id) => ({
      mode: 'start' as const,
      req: { start: { project_id: P, id, op_name: 'answer', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} } },
    })),
  });
});
afterAll(async () => {
  await t.close();
});

describe('POST /annotation_queues/:queue_id/items/:item_id/progress', () => {
  type Current = 'none' | 'in_progress' | 'completed' | 'skipped';
  // [caller's current record, requested, resulting state or null when refused]
  const table: [Current, string, string | null][] = [
    ['none', 'in_progress', 'in_progress'],
    ['none', 'completed', 'completed'],
    ['none', 'skipped', 'skipped'],
    ['none', 'unstarted', null],
    ['none', 'done', null],
    ['in_progress', 'in_progress', 'in_progress'],
    ['in_progress', 'completed', 'completed'],
    ['in_progress', 'skipped', 'skipped'],
    ['in_progress', 'unstarted', null],
    ['in_progress', 'done', null],
    ['completed', 'in_progress', null],
    ['completed', 'completed', 'completed'],
    ['completed', 'skipped', null],
    ['completed', 'unstarted', null],
    ['completed', 'done', null],
    ['skipped', 'in_progress', null],
    ['skipped', 'completed', null],
    ['skipped', 'skipped', 'skipped'],
    ['skipped', 'unstarted', null],
    ['skipped', 'done', null],
  ];
  let queue: Awaited<ReturnType<typeof newQueue>>;
  beforeAll(async () => {
    queue = await newQueue();
  });

  table.forEach(([current, requested, result], i) => {
    const what = result === null ? 'refuses' : result === current ? 'answers unchanged (idempotent)' : 'allows';
    it(`${what} ${current} → ${requested}`, async () => {
      const item = queue.items[i]!;
      if (current !== 'none') await progress(t.alice.client, queue.id, item.id, current);
      const res = await post(`/annotation_queues/${queue.id}/items/${item.id}/progress`, { project_id: P, annotation_state: requested });
      const before = current === 'none' ? ['unstarted', null] : [current, 'alice'];
      if (result === null) {
        expect(res.status).toBe(400);
        expect(res.body.reason).toContain(`to '${requested}'`);
        expect(res.body.reason).toContain(current === 'none' ? "'unstarted'" : `'${current}'`);
        expect(await stateOf(queue.id, item.id)).toEqual(before);
      } else {
        expect(res.status).toBe(200);
        const { item: answered } = AnnotatorQueueItemsProgressUpdateRes.parse(res.body);
        expect(answered).toMatchObject({ id: item.id, annotation_state: result, annotator_user_id: 'alice', position_in_queue: null });
      }
    });
  });

  it('keeps progress per annotator: the item shows the latest record, stats count any completion', async () => {
    const { id, items } = await newQueue();
    const [a, b, c] = items.map((item) => item.id);
    await progress(t.alice.client, id, a!, 'in_progress');
    await progress(carol, id, a!, 'completed');
    expect(await stateOf(id, a!)).toEqual(['completed', 'carol']);
    await progress(t.alice.client, id, a!, 'skipped');
    expect(await stateOf(id, a!)).toEqual(['skipped', 'alice']);
    await progress(t.alice.client, id, b!, 'in_progress');
    await progress(carol, id, c!, 'skipped');
    await progress(t.alice.client, id, c!, 'in_progress');
    expect(await stateOf(id, c!)).toEqual(['in_progress', 'alice']);
    const { stats } = await t.alice.client.annotationQueuesStats({ project_id: P, queue_ids: [id] });
    // completed_items as the reference counts it (any completed or skipped record); reviewed_items
    // only items with a completed review each of the queue's reviewers_per_item (1) needs.
    expect(stats).toEqual([{ queue_id: id, total_items: CALLS.length, completed_items: 2, reviewed_items: 1 }]);
  });

  it('answers 400 for an unknown item or an item of another queue (as the reference), 403 for bob, 401 without credentials', async () => {
    const first = await newQueue();
    const second = await newQueue();
    const body = { project_id: P, annotation_state: 'completed' };
    const unknown = await post(`/annotation_queues/${first.id}/items/nope/progress`, body);
    expect(unknown.status).toBe(400);
    expect(unknown.body.reason).toBe(`Queue item 'nope' not found in queue '${first.id}'`);
    const elsewhere = await post(`/annotation_queues/${second.id}/items/${first.items[0]!.id}/progress`, body);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.reason).toBe(`Queue item '${first.items[0]!.id}' not found in queue '${second.id}'`);
    expect((await post(`/annotation_queues/nope/items/${first.items[0]!.id}/progress`, body)).status).toBe(404);
    expect((await post(`/annotation_queues/${first.id}/items/${first.items[0]!.id}/progress`, body, t.bob.authHeader)).status).toBe(403);
    expect((await post(`/annotation_queues/${first.id}/items/${first.items[0]!.id}/progress`, body, '')).status).toBe(401);
    expect((await post(`/annotation_queues/${first.id}/items/${first.items[0]!.id}/progress`, { project_id: P })).status).toBe(422);
  });
});

describe('POST /annotation_queues/:queue_id/items/:item_id/submit', () => {
  const specs = {
    quality: { type: 'integer', minimum: 1, maximum: 5 },
    correct: { type: 'boolean' },
    tone: { type: 'string', enum: ['formal', 'casual'] },
    comment: { type: 'string' },
  };
  const refs = {} as Record<keyof typeof specs, string>;
  let queue: Awaited<ReturnType<typeof newQueue>>;
  const submit = (item: number, body: object, authorization?: string) =>
    post(`/annotation_queues/${queue.id}/items/${queue.items[item]!.id}/submit`, { project_id: P, ...body }, authorization);
  const feedbackOn = async (item: number) => {
    const ref = `weave:///${P}/call/${queue.items[item]!.call_id}`;
    return (
      await t.alice.client.feedbackQuery({ project_id: P, query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } } })
    ).result;
  };

  beforeAll(async () => {
    for (const [name, field_schema] of Object.entries(specs)) {
      const val = {
        _type: 'AnnotationSpec',
        _class_name: 'AnnotationSpec',
        _bases: ['Object', 'BaseModel'],
        name,
        field_schema,
        unique_among_creators: true,
        op_scope: null,
      };
      const { digest } = await t.alice.client.objCreate({ obj: { project_id: P, object_id: name, val } });
      refs[name as keyof typeof specs] = `weave:///${P}/object/${name}:${digest}`;
    }
    queue = await newQueue(Object.values(refs));
  });

  it('writes one annotation feedback per answer on the call and completes the item for the caller', async () => {
    const answers = { quality: 4, correct: true, tone: 'casual', comment: 'fine' };
    const res = await submit(0, {
      annotations: Object.entries(answers).map(([name, value]) => ({ annotation_ref: refs[name as keyof typeof specs], value })),
    });
    expect(res.status).toBe(200);
    const body = AnnotationQueueItemSubmitRes.parse(res.body);
    expect(body.item).toMatchObject({ annotation_state: 'completed', annotator_user_id: 'alice' });
    expect(body.feedback.map((f) => f.payload)).toEqual(Object.values(answers).map((value) => ({ value })));
    const rows = await feedbackOn(0);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({
      feedback_type: 'wandb.annotation.quality',
      annotation_ref: refs.quality,
      payload: { value: 4 },
      queue_id: queue.id,
      wb_user_id: 'alice',
    });
    const calls = [];
    for await (const call of t.alice.client.callsStreamQuery({
      project_id: P,
      filter: { call_ids: [queue.items[0]!.call_id] },
      include_feedback: true,
    }))
      calls.push(call);
    const feedback = (calls[0]!.summary as { weave: { feedback: { id: string }[] } }).weave.feedback;
    expect(feedback.map((f) => f.id).sort()).toEqual(body.feedback.map((f) => f.id).sort());
  });

  const refused: [string, () => object, RegExp][] = [
    [
      'a value outside its spec',
      () => ({
        annotations: [
          { annotation_ref: refs.correct, value: true },
          { annotation_ref: refs.quality, value: 9 },
        ],
      }),
      /does not match annotation spec/,
    ],
    [
      'a category outside the enum',
      () => ({ annotations: [{ annotation_ref: refs.tone, value: 'rude' }] }),
      /does not match annotation spec/,
    ],
    ['a number for free text', () => ({ annotations: [{ annotation_ref: refs.comment, value: 5 }] }), /does not match annotation spec/],
    [
      'a ref the queue does not ask for',
      () => ({ annotations: [{ annotation_ref: `weave:///${P}/object/other:abc`, value: 1 }] }),
      /not one of the queue's scorer_refs/,
    ],
    [
      'the same ref twice',
      () => ({
        annotations: [
          { annotation_ref: refs.correct, value: true },
          { annotation_ref: refs.correct, value: false },
        ],
      }),
      /answered twice/,
    ],
    ['answers with skip', () => ({ skip: true, annotations: [{ annotation_ref: refs.correct, value: true }] }), /skip or annotations/],
  ];
  refused.forEach(([what, body, reason], i) => {
    it(`refuses ${what} with 400 and writes nothing`, async () => {
      const res = await submit(10 + i, body());
      expect(res.status).toBe(400);
      expect(res.body.reason).toMatch(reason);
      expect(await feedbackOn(10 + i)).toEqual([]);
      expect(await stateOf(queue.id, queue.items[10 + i]!.id)).toEqual(['unstarted', null]);
    });
  });

  it('refuses a second submit by the same reviewer, naming the states; another reviewer still may', async () => {
    await submit(1, { annotations: [{ annotation_ref: refs.quality, value: 2 }] });
    const again = await submit(1, { annotations: [{ annotation_ref: refs.quality, value: 3 }] });
    expect(again.status).toBe(400);
    expect(again.body.reason).toMatch(/from 'completed' to 'completed'/);
    expect((await feedbackOn(1)).map((f) => f.payload)).toEqual([{ value: 2 }]);
    const byCarol = await carol.annotationQueueItemSubmit({
      project_id: P,
      queue_id: queue.id,
      item_id: queue.items[1]!.id,
      annotations: [{ annotation_ref: refs.quality, value: 5 }],
    });
    expect(byCarol.item).toMatchObject({ annotation_state: 'completed', annotator_user_id: 'carol' });
    expect((await feedbackOn(1)).map((f) => [f.wb_user_id, f.payload])).toEqual([
      ['alice', { value: 2 }],
      ['carol', { value: 5 }],
    ]);
  });

  it('completes an item in progress, and skips one without writing feedback', async () => {
    await progress(t.alice.client, queue.id, queue.items[2]!.id, 'in_progress');
    expect((await submit(2, { annotations: [{ annotation_ref: refs.correct, value: false }] })).body.item).toMatchObject({
      annotation_state: 'completed',
    });
    const skipped = await submit(3, { annotations: [], skip: true });
    expect(AnnotationQueueItemSubmitRes.parse(skipped.body)).toMatchObject({ item: { annotation_state: 'skipped' }, feedback: [] });
    expect(await feedbackOn(3)).toEqual([]);
    expect((await submit(3, { annotations: [] })).body.reason).toMatch(/from 'skipped' to 'completed'/);
  });

  it('answers 404 for an unknown item or queue, 403 for bob, 401 without credentials, 422 without annotations', async () => {
    expect((await post(`/annotation_queues/${queue.id}/items/nope/submit`, { project_id: P, annotations: [] })).status).toBe(404);
    expect((await post(`/annotation_queues/nope/items/${queue.items[4]!.id}/submit`, { project_id: P, annotations: [] })).status).toBe(404);
    expect((await submit(4, { annotations: [] }, t.bob.authHeader)).status).toBe(403);
    expect((await submit(4, { annotations: [] }, '')).status).toBe(401);
    expect((await submit(4, {})).status).toBe(422);
    expect(await stateOf(queue.id, queue.items[4]!.id)).toEqual(['unstarted', null]);
  });
});
