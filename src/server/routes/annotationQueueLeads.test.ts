/**
 * Weft's queue features for leads and reviewers over HTTP: fetch-next with reservations and
 * reviewers per item, edits that keep history, thread items, results, summary, export and
 * save-as-dataset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftClient } from '../../client/index.js';
import {
  AnnotationItemHistoryRes,
  AnnotationQueueNextItemRes,
  AnnotationQueueResultsRes,
  AnnotationQueueSummaryRes,
} from '../../contract/annotationQueueLeads.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
let alice: WeftClient;
let carol: WeftClient;
let verdict: string;
let score: string;
const CALLS = ['c1', 'c2', 'c3', 'c4'];

const newQueue = async (reviewers_per_item?: number) => {
  const { id } = await alice.annotationQueueCreate({ project_id: P, name: 'Leads', scorer_refs: [verdict, score], reviewers_per_item });
  await alice.annotationQueueAddCalls({ project_id: P, queue_id: id, call_ids: CALLS, display_fields: [] });
  return id;
};
const next = async (client: WeftClient, queue_id: string, extra: { reservation_seconds?: number; after_item_id?: string } = {}) =>
  AnnotationQueueNextItemRes.parse(await client.annotationQueueNextItem({ project_id: P, queue_id, ...extra }));
const answer = (client: WeftClient, queue_id: string, item_id: string, v: string, s: number, replace?: boolean) =>
  client.annotationQueueItemSubmit({
    project_id: P,
    queue_id,
    item_id,
    annotations: [
      { annotation_ref: verdict, value: v },
      { annotation_ref: score, value: s },
    ],
    replace,
  });

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/leads`;
  alice = t.alice.client;
  await t.server.store.accounts.upsertUser({
    username: 'carol',
    entities: [t.alice.entity],
    passwordHash: await hashSecret('carol-pw', TEST_SCRYPT),
  });
  carol = t.clientAs({ username: 'carol', password: 'carol-pw' });
  const spec = async (name: string, field_schema: Record<string, unknown>) => {
    const val = { _type: 'AnnotationSpec', _class_name: 'AnnotationSpec', _bases: ['Object', 'BaseModel'], name, field_schema };
    const { digest } = await alice.objCreate({ obj: { project_id: P, object_id: name, val } });
    return `weave:///${P}/object/${name}:${digest}`;
  };
  verdict = await spec('verdict', { type: 'string', enum: ['good', 'bad'] });
  score = await spec('score', { type: 'integer', minimum: 1, maximum: 5 });
  const start = (id: string, extra: Record<string, unknown> = {}) => ({
    mode: 'start' as const,
    req: {
      start: {
        project_id: P,
        id,
        op_name: 'answer',
        started_at: '2024-01-01T00:00:00Z',
        attributes: {},
        inputs: { q: `question ${id}` },
        ...extra,
      },
    },
  });
  await alice.callUpsertBatch({
    batch: [
      ...CALLS.map((id) => start(id)),
      start('t1-a', { thread_id: 'thread-1', turn_id: 't1-a', started_at: '2024-01-02T00:00:00Z' }),
      start('t1-b', { thread_id: 'thread-1', turn_id: 't1-b', started_at: '2024-01-02T00:01:00Z' }),
    ],
  });
  await alice.callUpsertBatch({
    batch: CALLS.map((id) => ({
      mode: 'end' as const,
      req: { end: { project_id: P, id, ended_at: '2024-01-01T00:00:01Z', output: `answer ${id}`, summary: {} } },
    })),
  });
});
afterAll(async () => {
  await t.close();
});

describe('POST /annotation_queues/:queue_id/items/next', () => {
  it('gives two reviewers different items, resumes a held one, and releases it on submit', async () => {
    const queue = await newQueue();
    const a1 = await next(alice, queue);
    const c1 = await next(carol, queue);
    expect(a1.item?.call_id).toBe('c1');
    expect(c1.item?.call_id).toBe('c2');
    expect(a1.available).toBe(4);
    // Asking again resumes the item alice holds instead of handing out another.
    expect((await next(alice, queue)).item?.id).toBe(a1.item!.id);
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    expect(items.map((i) => i.reserved_by)).toEqual(['alice', 'carol', null, null]);

    await answer(alice, queue, a1.item!.id, 'good', 4);
    const after = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue, filter: { id: a1.item!.id } });
    expect(after.items[0]!.reserved_by).toBeNull();
    expect(after.items[0]!.completed_reviews).toBe(1);
    // One reviewer per item: the answered item is not offered to carol either.
    expect((await next(alice, queue)).item?.call_id).toBe('c3');
  });

  it('offers an item to a second reviewer only when the queue wants two, and never one they finished', async () => {
    const queue = await newQueue(2);
    expect((await alice.annotationQueueRead({ project_id: P, queue_id: queue })).queue.reviewers_per_item).toBe(2);
    const a = await next(alice, queue);
    // Two reviewers wanted: the item alice holds can go to carol at the same time.
    expect((await next(carol, queue)).item?.id).toBe(a.item!.id);
    await answer(alice, queue, a.item!.id, 'good', 5);
    await answer(carol, queue, a.item!.id, 'bad', 2);
    const nextForAlice = await next(alice, queue);
    expect(nextForAlice.item?.call_id).toBe('c2');
    expect(nextForAlice.available).toBe(3);
  });

  it('lets an expired reservation go to someone else', async () => {
    const queue = await newQueue();
    const held = await next(alice, queue, { reservation_seconds: 10 });
    const key = [P, held.item!.id, 'alice'];
    // Age the reservation in place in the server's SQLite file rather than waiting ten seconds.
    const db = (t.server.store as unknown as { db: { run(sql: string, p: unknown[]): void } }).db;
    db.run('UPDATE annotation_item_reservations SET expires_at = 1 WHERE project_id = ? AND queue_item_id = ? AND annotator_id = ?', key);
    expect((await next(carol, queue)).item?.id).toBe(held.item!.id);
  });

  it('moves past an item with after_item_id, answers null when nothing is left, 404 for an unknown queue', async () => {
    const queue = await newQueue();
    const first = await next(alice, queue);
    expect((await next(alice, queue, { after_item_id: first.item!.id })).item?.call_id).toBe('c2');
    for (const call of CALLS) {
      const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue, filter: { call_id: call } });
      await alice.annotationQueueItemSubmit({ project_id: P, queue_id: queue, item_id: items[0]!.id, annotations: [], skip: true });
    }
    expect(await next(alice, queue)).toEqual({ item: null, reserved_until: null, available: 0 });
    const res = await t.fetch(`/annotation_queues/nope/items/next`, {
      json: { project_id: P },
      headers: { authorization: t.alice.authHeader },
    });
    expect(res.status).toBe(404);
  });
});

describe('POST /annotation_queues/:queue_id/items/:item_id/submit with replace', () => {
  it('edits an answered item and answers a skipped one, keeping the superseded answers in the history', async () => {
    const queue = await newQueue();
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    const [first, second] = items;
    await answer(alice, queue, first!.id, 'good', 5);
    // Without replace a second submit is refused, as before.
    await expect(answer(alice, queue, first!.id, 'bad', 1)).rejects.toMatchObject({ status: 400 });
    await answer(alice, queue, first!.id, 'bad', 1, true);
    await alice.annotationQueueItemSubmit({ project_id: P, queue_id: queue, item_id: second!.id, annotations: [], skip: true });
    const fixed = await answer(alice, queue, second!.id, 'good', 3, true);
    expect(fixed.item.annotation_state).toBe('completed');

    const { result } = await alice.feedbackQuery({
      project_id: P,
      query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: queue }] } },
      fields: ['weave_ref', 'payload'],
    });
    // One current answer per question and item: the superseded ones left /feedback/query.
    expect(result).toHaveLength(4);
    const history = AnnotationItemHistoryRes.parse(
      await alice.annotationItemHistory({ project_id: P, queue_id: queue, item_id: first!.id }),
    ).entries;
    // Oldest first: the superseded pair, then the current pair (within a pair, by feedback id).
    const pairs = history.map((e) => [e.value, e.superseded_at === null ? 'current' : 'superseded']);
    expect(pairs.slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['good', 'superseded'],
        [5, 'superseded'],
      ]),
    );
    expect(pairs.slice(2)).toEqual(
      expect.arrayContaining([
        ['bad', 'current'],
        [1, 'current'],
      ]),
    );
    expect(pairs).toHaveLength(4);
  });

  it('writes nothing when an edit is invalid', async () => {
    const queue = await newQueue();
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    await answer(alice, queue, items[0]!.id, 'good', 5);
    await expect(answer(alice, queue, items[0]!.id, 'meh', 5, true)).rejects.toMatchObject({ status: 400 });
    const history = await alice.annotationItemHistory({ project_id: P, queue_id: queue, item_id: items[0]!.id });
    expect(history.entries.every((e) => e.superseded_at === null)).toBe(true);
  });
});

describe('POST /annotation_queues/:queue_id/threads', () => {
  it('adds a conversation as one item on its first turn and counts repeats as duplicates', async () => {
    const queue = await newQueue();
    const added = await alice.annotationQueueAddThreads({ project_id: P, queue_id: queue, thread_ids: ['thread-1', 'no-such-thread'] });
    expect(added).toEqual({ added_count: 1, duplicates: 0 });
    expect(await alice.annotationQueueAddThreads({ project_id: P, queue_id: queue, thread_ids: ['thread-1'] })).toEqual({
      added_count: 0,
      duplicates: 1,
    });
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue, filter: { call_id: 't1-a' } });
    expect(items.map((i) => i.thread_id)).toEqual(['thread-1']);
  });
});

describe('results, summary, export and dataset', () => {
  let queue: string;
  beforeAll(async () => {
    queue = await newQueue(2);
    const { items } = await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    await answer(alice, queue, items[0]!.id, 'good', 4);
    await answer(carol, queue, items[0]!.id, 'good', 2);
    await answer(alice, queue, items[1]!.id, 'bad', 1);
    await carol.annotationQueueItemSubmit({ project_id: P, queue_id: queue, item_id: items[1]!.id, annotations: [], skip: true });
    await next(carol, queue);
  });

  it('lists every item with every reviewer and their answers, filtered and paged', async () => {
    const res = AnnotationQueueResultsRes.parse(await alice.annotationQueueResults({ project_id: P, queue_id: queue }));
    expect(res.total).toBe(4);
    expect(res.rows[0]!.reviews.map((r) => [r.annotator, r.answers[verdict], r.answers[score]])).toEqual([
      ['alice', 'good', 4],
      ['carol', 'good', 2],
    ]);
    expect(res.rows[2]!.reviews).toEqual([]);
    const unstarted = await alice.annotationQueueResults({ project_id: P, queue_id: queue, annotation_states: ['unstarted'], limit: 1 });
    expect([unstarted.total, unstarted.rows.length]).toEqual([2, 1]);
  });

  it('summarises progress per reviewer and the answers per question, with agreement', async () => {
    const s = AnnotationQueueSummaryRes.parse(await alice.annotationQueueSummary({ project_id: P, queue_id: queue }));
    expect(s.total_items).toBe(4);
    expect(s.fully_reviewed_items).toBe(1);
    // One definition of progress: item 1 has both reviews, item 2 one of two (carol skipped it).
    expect(s.items_by_progress).toEqual({ reviewed: 1, partly_reviewed: 1, in_progress: 0, skipped: 0, unstarted: 2 });
    // The queues list counts "reviewed" the same way; completed_items stays the reference's "anyone finished".
    const { stats } = await alice.annotationQueuesStats({ project_id: P, queue_ids: [queue] });
    expect(stats).toEqual([{ queue_id: queue, total_items: 4, completed_items: 2, reviewed_items: 1 }]);
    expect(s.reviewers).toEqual([
      { annotator: 'alice', completed: 2, skipped: 0, in_progress: 0, reserved: 0 },
      { annotator: 'carol', completed: 1, skipped: 1, in_progress: 0, reserved: 1 },
    ]);
    const [v, n] = s.questions;
    expect(v!.counts).toEqual([
      { value: 'good', count: 2 },
      { value: 'bad', count: 1 },
    ]);
    expect(v!.agreement).toBe(1);
    expect([n!.mean, n!.min, n!.max, n!.agreement]).toEqual([7 / 3, 1, 4, 0]);
    // Chance-corrected: one item both answered; "good" twice leaves κ and α undefined, 1 against 4 gives 0.
    expect([v!.kappa, v!.alpha, n!.kappa, n!.alpha]).toEqual([null, null, 0, 0]);
  });

  it('exports one record per item and reviewer as CSV and JSON lines', async () => {
    const csv = await (await alice.annotationQueueExport({ project_id: P, queue_id: queue, format: 'csv' })).text();
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('item_id,call_id,thread_id,op_name,annotator,annotation_state,updated_at,inputs,output,verdict,score');
    expect(lines).toHaveLength(1 + 2 + 2 + 1 + 1);
    expect(lines[1]).toContain(',alice,completed,');
    expect(lines[1]!.endsWith(',good,4')).toBe(true);
    const jsonl = await (await alice.annotationQueueExport({ project_id: P, queue_id: queue })).text();
    const first = JSON.parse(jsonl.split('\n')[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ call_id: 'c1', annotator: 'alice', inputs: { q: 'question c1' }, output: 'answer c1' });
    expect(first.answers).toEqual({ verdict: 'good', score: 4 });
  });

  it('saves the answered items as a Dataset the SDK can read back', async () => {
    const saved = await alice.annotationQueueSaveDataset({ project_id: P, queue_id: queue, name: 'reviewed-answers' });
    expect(saved.row_count).toBe(2);
    const [entity, project] = P.split('/') as [string, string];
    const ds = await alice.datasetRead({ entity, project, object_id: 'reviewed-answers', digest: saved.digest });
    const { rows } = await alice.tableQuery({ project_id: P, digest: ds.rows.split('/').pop()! });
    expect(rows.map((r) => r.val)).toEqual([
      {
        call_id: 'c1',
        inputs: { q: 'question c1' },
        output: 'answer c1',
        verdict: 'good',
        score: 4,
        reviews: [
          { annotator: 'alice', verdict: 'good', score: 4 },
          { annotator: 'carol', verdict: 'good', score: 2 },
        ],
      },
      {
        call_id: 'c2',
        inputs: { q: 'question c2' },
        output: 'answer c2',
        verdict: 'bad',
        score: 1,
        reviews: [{ annotator: 'alice', verdict: 'bad', score: 1 }],
      },
    ]);
  });

  it('answers 422 for a bad dataset name and 403 for another entity', async () => {
    await expect(alice.annotationQueueSaveDataset({ project_id: P, queue_id: queue, name: 'no spaces/here' })).rejects.toMatchObject({
      status: 422,
    });
    const res = await t.fetch(`/annotation_queues/${queue}/summary`, {
      json: { project_id: P },
      headers: { authorization: t.bob.authHeader },
    });
    expect(res.status).toBe(403);
  });
});
