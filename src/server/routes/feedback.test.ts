import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import type { ReqOf } from '../../contract/endpoints.js';
import { FeedbackCreateRes, FeedbackStatsRes } from '../../contract/feedback.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const ref = (id: string) => `weave:///${P}/call/${id}`;
type CreateReq = ReqOf<'feedbackCreate'>;
const note = (over: Partial<CreateReq> = {}): CreateReq => ({
  project_id: P,
  weave_ref: ref('c1'),
  feedback_type: 'wandb.note.1',
  payload: { note: 'looks right' },
  ...over,
});
const eqId = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] as [never, never] });
/** POST as alice, answering status and JSON body. */
const post = async (path: string, json: unknown) => {
  const res = await t.fetch(path, { json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/fb`;
});
afterAll(async () => {
  await t.close();
});

describe('POST /feedback/create', () => {
  it('stores a note for the authenticated user, whatever wb_user_id says', async () => {
    const res = await t.alice.client.feedbackCreate(note({ wb_user_id: 'mallory', creator: 'Ann' }));
    expect(FeedbackCreateRes.parse(res)).toMatchObject({ wb_user_id: 'alice', payload: { note: 'looks right' } });
    const { result } = await t.alice.client.feedbackQuery({ project_id: P, query: { $expr: eqId(res.id) } });
    expect(result).toEqual([expect.objectContaining({ id: res.id, wb_user_id: 'alice', creator: 'Ann', weave_ref: ref('c1') })]);
  });

  it('adds the aliases of a reaction and keeps a client-chosen id', async () => {
    const res = await t.alice.client.feedbackCreate({
      project_id: P,
      weave_ref: ref('c1'),
      feedback_type: 'wandb.reaction.1',
      payload: { emoji: '👍🏽' },
      id: 'my-id',
    });
    expect(res.id).toBe('my-id');
    expect(res.payload).toEqual({ emoji: '👍🏽', alias: ':thumbs_up_medium_skin_tone:', detoned: '👍', detoned_alias: ':thumbs_up:' });
  });

  it("names any emoji of the reference's table (🎱 is :pool_8_ball:), and refuses two emojis", async () => {
    // tests/trace/test_client_feedback.py::test_feedback_apis
    const react = (emoji: string) =>
      post('/feedback/create', { project_id: P, weave_ref: ref('c1'), feedback_type: 'wandb.reaction.1', payload: { emoji } });
    expect((await react('🎱')).body.payload).toEqual({
      emoji: '🎱',
      alias: ':pool_8_ball:',
      detoned: '🎱',
      detoned_alias: ':pool_8_ball:',
    });
    expect((await react('🤝🏻')).body.payload).toMatchObject({
      alias: ':handshake_light_skin_tone:',
      detoned: '🤝',
      detoned_alias: ':handshake:',
    });
    const two = await react('👍👎');
    expect(two.status).toBe(400);
    expect(two.body.reason).toMatch(/exactly one emoji/);
  });

  it('accepts annotations whose value fits their AnnotationSpec, and runnables with their refs', async () => {
    const { digest } = await t.alice.client.objCreate({
      obj: { project_id: P, object_id: 'quality', val: { field_schema: { type: 'integer', minimum: 1, maximum: 5 } } },
    });
    const annotation = {
      project_id: P,
      weave_ref: ref('c1'),
      feedback_type: 'wandb.annotation.quality',
      annotation_ref: `weave:///${P}/object/quality:${digest}`,
    };
    await t.alice.client.feedbackCreate({ ...annotation, payload: { value: 4 } });
    const outOfRange = await post('/feedback/create', { ...annotation, payload: { value: 9 } });
    expect(outOfRange).toMatchObject({ status: 400, body: { reason: 'Feedback payload does not match annotation spec' } });
    const { digest: plain } = await t.alice.client.objCreate({ obj: { project_id: P, object_id: 'plain', val: { a: 1 } } });
    const notASpec = await post('/feedback/create', {
      ...annotation,
      feedback_type: 'wandb.annotation.plain',
      annotation_ref: `weave:///${P}/object/plain:${plain}`,
      payload: { value: 1 },
    });
    expect(notASpec).toMatchObject({ status: 400, body: { reason: expect.stringMatching(/not a valid annotation spec/) } });
    const missing = await post('/feedback/create', {
      ...annotation,
      annotation_ref: `weave:///${P}/object/quality:${plain}`,
      payload: { value: 1 },
    });
    expect(missing).toMatchObject({ status: 400, body: { reason: expect.stringMatching(/not found/) } });
    await t.alice.client.feedbackCreate({
      project_id: P,
      weave_ref: ref('c1'),
      feedback_type: 'wandb.runnable.judge',
      runnable_ref: `weave:///${P}/op/judge:d1`,
      call_ref: ref('scorer-call'),
      payload: { output: { score: 1 } },
    });
  });

  const refused: [string, Partial<CreateReq>, RegExp][] = [
    ['two emojis', { feedback_type: 'wandb.reaction.1', payload: { emoji: '👍👍' } }, /exactly one emoji/],
    ['a reaction without emoji', { feedback_type: 'wandb.reaction.1', payload: {} }, /Invalid payload/],
    ['an empty note', { payload: { note: '' } }, /1 to 1024/],
    ['a note over 1024 characters', { payload: { note: 'x'.repeat(1025) } }, /1 to 1024/],
    [
      'an annotation without annotation_ref',
      { feedback_type: 'wandb.annotation.quality', payload: { value: 1 } },
      /annotation_ref is required/,
    ],
    [
      'an annotation ref of another name',
      { feedback_type: 'wandb.annotation.quality', annotation_ref: 'weave:///x/y/object/other:d', payload: { value: 1 } },
      /name quality/,
    ],
    [
      'an annotation ref in another project',
      { feedback_type: 'wandb.annotation.q', annotation_ref: 'weave:///x/y/object/q:d', payload: { value: 1 } },
      /does not match project/,
    ],
    [
      'an annotation without value',
      { feedback_type: 'wandb.annotation.q', annotation_ref: 'weave:///PROJECT/object/q:d', payload: {} },
      /value is required/,
    ],
    [
      'a runnable op without call_ref',
      { feedback_type: 'wandb.runnable.j', runnable_ref: 'weave:///x/y/op/j:d', payload: { output: 1 } },
      /call_ref is required/,
    ],
    ['refs on a plain note', { annotation_ref: 'weave:///x/y/object/q:d' }, /not allowed/],
    ['a trigger_ref on a plain note', { trigger_ref: 'weave:///x/y/object/q:d' }, /not allowed/],
    ['a weave_ref that is not a ref', { weave_ref: 'call-1' }, /weave:\/\/\//],
    ['a payload over 1 MiB', { feedback_type: 'custom', payload: { blob: 'x'.repeat(1 << 20) } }, /too large/],
  ];
  for (const [what, over, reason] of refused) {
    it(`refuses ${what} with 400`, async () => {
      const body = JSON.parse(JSON.stringify(note(over)).replaceAll('PROJECT', P));
      const res = await post('/feedback/create', body);
      expect(res.status).toBe(400);
      expect(String(res.body.reason)).toMatch(reason);
    });
  }

  it('answers 422 without a feedback_type, 403 in another entity, 401 without credentials', async () => {
    expect((await post('/feedback/create', { project_id: P, weave_ref: ref('c1'), payload: {} })).status).toBe(422);
    expect((await post('/feedback/create', note({ project_id: `${t.bob.entity}/fb` }))).status).toBe(403);
    const anonymous = await t.fetch('/feedback/create', { json: note(), headers: { authorization: '' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /feedback/batch/create', () => {
  it('creates every item, answering in order', async () => {
    const { res } = await t.alice.client.feedbackBatchCreate({ batch: [note({ id: 'b1' }), note({ id: 'b2', weave_ref: ref('c2') })] });
    expect(res.map((r) => r.id)).toEqual(['b1', 'b2']);
  });

  it('writes nothing when one item is invalid (400)', async () => {
    const res = await post('/feedback/batch/create', { batch: [note({ id: 'b3' }), note({ payload: { note: '' } })] });
    expect(res.status).toBe(400);
    expect((await t.alice.client.feedbackQuery({ project_id: P, query: { $expr: eqId('b3') } })).result).toEqual([]);
  });

  it('answers 403 when any item is in a project the caller cannot write, 422 for a bad item', async () => {
    expect((await post('/feedback/batch/create', { batch: [note(), note({ project_id: `${t.bob.entity}/fb` })] })).status).toBe(403);
    expect((await post('/feedback/batch/create', { batch: [{ project_id: P }] })).status).toBe(422);
  });
});

describe('POST /feedback/query', () => {
  let Q: string;
  beforeAll(async () => {
    Q = `${t.alice.entity}/fbq`;
    await t.alice.client.feedbackBatchCreate({
      batch: [1, 2, 3].map((i) => ({
        project_id: Q,
        weave_ref: `weave:///${Q}/call/c${i}`,
        feedback_type: 'score',
        payload: { score: i * 10, label: `l${i}` },
        id: `q${i}`,
      })),
    });
  });

  it('returns requested fields, filtered by payload paths, sorted and paged', async () => {
    const { result } = await t.alice.client.feedbackQuery({
      project_id: Q,
      fields: ['id', 'payload.score'],
      query: { $expr: { $gt: [{ $getField: 'payload.score' }, { $literal: 10 }] } },
      sort_by: [{ field: 'payload.score', direction: 'desc' }],
      limit: 1,
      offset: 1,
    });
    expect(result).toEqual([{ id: 'q2', 'payload.score': 20 }]);
  });

  it('answers one row {"count(*)": N} for fields ["count(*)"], with or without a query', async () => {
    const count = (over: Record<string, unknown> = {}) =>
      t.alice.client.feedbackQuery({ project_id: Q, fields: ['count(*)'], ...over } as ReqOf<'feedbackQuery'>);
    expect(await count()).toEqual({ result: [{ 'count(*)': 3 }], total_count: 3 });
    const above10 = { $expr: { $gt: [{ $getField: 'payload.score' }, { $literal: 10 }] } } as ReqOf<'feedbackQuery'>['query'];
    expect((await count({ query: above10 })).result).toEqual([{ 'count(*)': 2 }]);
    // The name comes back as asked; the single row can still be paged past.
    expect((await count({ fields: ['COUNT(*)'] })).result).toEqual([{ 'COUNT(*)': 3 }]);
    expect((await count({ offset: 1 })).result).toEqual([]);
    const mixed = await post('/feedback/query', { project_id: Q, fields: ['id', 'count(*)'] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.reason).toMatch(/count\(\*\) cannot be combined/);
  });

  it('answers 400 for an unknown field, 422 for a malformed query, 403 in another entity', async () => {
    const unknown = await post('/feedback/query', { project_id: Q, fields: ['password'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.reason).toMatch(/Unknown field/);
    expect((await post('/feedback/query', { project_id: Q, query: { $bogus: [] } })).status).toBe(422);
    expect((await post('/feedback/query', { project_id: `${t.bob.entity}/x` })).status).toBe(403);
  });
});

describe('POST /feedback/purge', () => {
  it('deletes feedback by id ($eq, or $or of $eq)', async () => {
    await t.alice.client.feedbackBatchCreate({ batch: ['p1', 'p2', 'p3'].map((id) => note({ id })) });
    await t.alice.client.feedbackPurge({ project_id: P, query: { $expr: eqId('p1') } });
    await t.alice.client.feedbackPurge({ project_id: P, query: { $expr: { $or: [eqId('p2'), eqId('p3')] } } });
    const { result } = await t.alice.client.feedbackQuery({
      project_id: P,
      query: { $expr: { $in: [{ $getField: 'id' }, [{ $literal: 'p1' }, { $literal: 'p2' }, { $literal: 'p3' }]] } },
    });
    expect(result).toEqual([]);
  });

  it('refuses queries that do not name ids (400), answers 422 without a query and 403 elsewhere', async () => {
    const broad = await post('/feedback/purge', {
      project_id: P,
      query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] } },
    });
    expect(broad.status).toBe(400);
    expect(broad.body.reason).toMatch(/feedback ids/);
    expect((await post('/feedback/purge', { project_id: P })).status).toBe(422);
    expect((await post('/feedback/purge', { project_id: `${t.bob.entity}/fb`, query: { $expr: eqId('x') } })).status).toBe(403);
  });
});

describe('POST /feedback/replace', () => {
  it('swaps the feedback for a new one', async () => {
    await t.alice.client.feedbackCreate(note({ id: 'old', weave_ref: ref('r1') }));
    const res = await t.alice.client.feedbackReplace({
      ...note({ weave_ref: ref('r1'), payload: { note: 'edited' } }),
      feedback_id: 'old',
    });
    expect(res.id).not.toBe('old');
    const { result } = await t.alice.client.feedbackQuery({
      project_id: P,
      fields: ['id', 'payload.note'],
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref('r1') }] } },
    });
    expect(result).toEqual([{ id: res.id, 'payload.note': 'edited' }]);
  });

  it('answers 404 for an unknown feedback_id, 422 without one, 403 elsewhere', async () => {
    const missing = await post('/feedback/replace', { ...note(), feedback_id: 'nope' });
    expect(missing.status).toBe(404);
    expect((await post('/feedback/replace', note())).status).toBe(422);
    expect((await post('/feedback/replace', { ...note({ project_id: `${t.bob.entity}/fb` }), feedback_id: 'x' })).status).toBe(403);
  });
});

describe('POST /feedback/stats', () => {
  it('buckets payload metrics over the window', async () => {
    const S = `${t.alice.entity}/stats`;
    await t.alice.client.feedbackBatchCreate({
      batch: [
        { score: 1, ok: true },
        { score: 3, ok: false },
        { score: 8, ok: true },
      ].map((payload) => ({ project_id: S, weave_ref: `weave:///${S}/call/c`, feedback_type: 'judge', payload })),
    });
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const res = FeedbackStatsRes.parse(
      await t.alice.client.feedbackStats({
        project_id: S,
        start,
        feedback_type: 'judge',
        metrics: [
          // value_type defaults to numeric, as in the reference (SDK clients may leave it out).
          { json_path: 'score', percentiles: [50] },
          { json_path: 'ok', value_type: 'boolean' },
        ],
      }),
    );
    expect(res.granularity).toBe(300);
    expect(res.timezone).toBe('UTC');
    expect(res.buckets.reduce((n, b) => n + (b.count as number), 0)).toBe(3);
    expect(res.window_stats).toEqual({ score: { avg: 4, min: 1, max: 8, p50: 3 }, ok: { count_true: 2, count_false: 1 } });
    // Bucket-level values (the rows may straddle a 5-minute boundary, so sum across buckets).
    // Column names are `<agg>_<slug>` with one underscore, as the reference's test_feedback_stats.py.
    expect(res.buckets.reduce((n, b) => n + (b.count_true_ok as number), 0)).toBe(2);
    expect(res.buckets.filter((b) => (b.count as number) > 0).every((b) => typeof b.avg_score === 'number')).toBe(true);
    expect(res.buckets.every((b) => !Object.keys(b).some((k) => k.includes('__')))).toBe(true);
    // An empty bucket: avg coalesced to 0 (the reference's COALESCE), min/max/percentiles null.
    expect(res.buckets.find((b) => b.count === 0)).toMatchObject({ avg_score: 0, min_score: null, p50_score: null, count_true_ok: 0 });
  });

  it('answers 400 for an unknown time zone or an empty window, 422 without start, 403 elsewhere', async () => {
    const start = '2024-01-01T00:00:00Z';
    expect((await post('/feedback/stats', { project_id: P, start, timezone: 'Mars/Olympus' })).status).toBe(400);
    expect((await post('/feedback/stats', { project_id: P, start, end: start })).status).toBe(400);
    expect((await post('/feedback/stats', { project_id: P })).status).toBe(422);
    expect((await post('/feedback/stats', { project_id: `${t.bob.entity}/fb`, start })).status).toBe(403);
  });
});

describe('POST /feedback/payload_schema', () => {
  it('lists the leaf paths of payloads with their value types', async () => {
    const S = `${t.alice.entity}/schema`;
    await t.alice.client.feedbackBatchCreate({
      batch: [{ output: { score: 1, pass: true, label: 'a' } }, { output: { score: 2, label: 3 } }].map((payload) => ({
        project_id: S,
        weave_ref: `weave:///${S}/call/c`,
        feedback_type: 'judge',
        payload,
      })),
    });
    const res = await t.alice.client.feedbackPayloadSchema({ project_id: S, start: '2020-01-01T00:00:00Z' });
    expect(res.paths).toEqual([
      { json_path: 'output.label', value_type: null },
      { json_path: 'output.pass', value_type: 'boolean' },
      { json_path: 'output.score', value_type: 'numeric' },
    ]);
  });

  it('answers 422 without start and 403 elsewhere', async () => {
    expect((await post('/feedback/payload_schema', { project_id: P })).status).toBe(422);
    expect((await post('/feedback/payload_schema', { project_id: `${t.bob.entity}/fb`, start: '2024-01-01' })).status).toBe(403);
  });
});

describe('include_feedback on call reads', () => {
  it('attaches the feedback of each call, an empty list when there is none', async () => {
    const C = `${t.alice.entity}/calls-fb`;
    const start = (id: string) => ({
      project_id: C,
      id,
      trace_id: 't',
      op_name: 'op',
      started_at: '2024-01-01T00:00:00Z',
      attributes: {},
      inputs: {},
    });
    await t.alice.client.callStart({ start: start('a') });
    await t.alice.client.callStart({ start: start('b') });
    await t.alice.client.feedbackCreate({
      project_id: C,
      weave_ref: `weave:///${C}/call/a`,
      feedback_type: 'wandb.reaction.1',
      payload: { emoji: '🎉' },
    });
    const calls: CallSchema[] = [];
    for await (const call of t.alice.client.callsStreamQuery({ project_id: C, include_feedback: true })) calls.push(call);
    const feedbackOf = (id: string) =>
      (calls.find((c) => c.id === id)!.summary as { weave: { feedback: { payload: { alias: string } }[] } }).weave.feedback;
    expect(feedbackOf('a').map((f) => f.payload.alias)).toEqual([':party_popper:']);
    expect(feedbackOf('b')).toEqual([]);
    const { call } = await t.alice.client.callRead({ project_id: C, id: 'a', include_feedback: true });
    expect((call!.summary as { weave: { feedback: unknown[]; status: string } }).weave).toMatchObject({
      status: 'running',
      feedback: [expect.objectContaining({ feedback_type: 'wandb.reaction.1' })],
    });
  });
});
