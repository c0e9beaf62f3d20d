/**
 * Conformance suite for FeedbackStore: writes, the query language over feedback columns and
 * `payload.<path>`, purge and replace, the per-page ref lookup and the stats window. Every
 * backend's test file calls `describeFeedbackConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../contract/common.js';
import { NO_SCORER_FEEDBACK } from '../../../contract/scorerFeedback.js';
import { ApiError } from '../../errors.js';
import type { OpenStore } from '../../testing/tempStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { Store } from '../Store.js';

const P = 'acme/fb';
const T0 = Date.UTC(2024, 0, 1) * 1000;
const ref = (call: string) => `weave:///${P}/call/${call}`;

const row = (id: string, over: Partial<FeedbackWrite> & { payload?: unknown } = {}): FeedbackWrite => {
  const { payload = {}, ...rest } = over;
  return {
    projectId: P,
    id,
    weaveRef: ref('c1'),
    wbUserId: 'alice',
    creator: null,
    createdAt: T0,
    feedbackType: 'custom',
    payloadJson: JSON.stringify(payload),
    annotationRef: null,
    runnableRef: null,
    callRef: null,
    triggerRef: null,
    queueId: null,
    ...rest,
  };
};

const eq = (field: string, value: JsonValue) => ({ $expr: { $eq: [{ $getField: field }, { $literal: value }] as [never, never] } });

export function describeFeedbackConformance(open: OpenStore): void {
  describe('FeedbackStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    const ids = async (query: Parameters<Store['feedback']['queryFeedback']>[0]) =>
      (await store.feedback.queryFeedback({ ...query, fields: ['id'] })).map((r) => r.id);

    beforeAll(async () => {
      ({ store, close } = await open());
      await store.feedback.createFeedback([
        row('f1', { createdAt: T0 + 1, feedbackType: 'wandb.note.1', payload: { note: 'hello' }, creator: 'Ann' }),
        row('f2', { createdAt: T0 + 2, payload: { score: 5, ok: true, tag: 'b', nested: { list: [1, { x: 'y' }] } } }),
        row('f3', {
          createdAt: T0 + 3,
          weaveRef: ref('c2'),
          payload: { score: 10, ok: false, tag: 'a' },
          triggerRef: 'weave:///acme/fb/object/mon:v1',
        }),
        row('f4', {
          createdAt: T0 + 4,
          weaveRef: ref('c2'),
          payload: { score: '7', tag: 'c' },
          triggerRef: 'weave:///acme/fb/object/mon:v2',
        }),
        row('other', { projectId: 'acme/elsewhere', createdAt: T0 + 5 }),
      ]);
    });
    afterAll(() => close());

    it('returns every column by default, in creation order, payload parsed', async () => {
      const rows = await store.feedback.queryFeedback({ projectId: P });
      expect(rows.map((r) => r.id)).toEqual(['f1', 'f2', 'f3', 'f4']);
      expect(rows[0]).toEqual({
        id: 'f1',
        project_id: P,
        weave_ref: ref('c1'),
        wb_user_id: 'alice',
        creator: 'Ann',
        created_at: '2024-01-01T00:00:00.000001Z',
        feedback_type: 'wandb.note.1',
        payload: { note: 'hello' },
        annotation_ref: null,
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        queue_id: null,
        ...NO_SCORER_FEEDBACK,
      });
    });

    it("keeps a scorer's typed results: read back, selected, filtered on, and in the aggregate window", async () => {
      const scorer = {
        scorer_tags: ['toxic', 'off_topic'],
        scorer_tag_reasons: { toxic: 'insults the user' },
        scorer_tag_confidences: { toxic: 0.9 },
        scorer_ratings: { _rating_: 0.25, helpfulness: 0.5 },
        scorer_rating_reasons: { _rating_: 'rude' },
        scorer_rating_confidences: { _rating_: 0.75 },
        scorer_trace_id: 'judge-trace',
        span_agent_name: 'support-bot',
        span_agent_version: 'v3',
        span_conversation_id: 'conv-1',
        span_status_code: 'ERROR',
        span_trace_id: 'turn-trace',
      };
      const S = 'acme/fb-scored';
      await store.feedback.createFeedback([
        row('s1', { projectId: S, createdAt: T0 + 1, scorer }),
        row('s2', { projectId: S, createdAt: T0 + 2, scorer: { span_agent_name: 'other-bot' } }),
      ]);
      const [s1, s2] = await store.feedback.queryFeedback({ projectId: S });
      expect(s1).toMatchObject(scorer);
      expect(s2).toMatchObject({ ...NO_SCORER_FEEDBACK, span_agent_name: 'other-bot' });
      expect(
        await store.feedback.queryFeedback({ projectId: S, fields: ['scorer_tags', 'scorer_ratings'], query: eq('id', 's1') }),
      ).toEqual([{ scorer_tags: scorer.scorer_tags, scorer_ratings: scorer.scorer_ratings }]);
      expect(await ids({ projectId: S, query: eq('span_agent_name', 'support-bot') })).toEqual(['s1']);
      expect((await store.feedback.feedbackForRefs({ projectId: S, weaveRefs: [ref('c1')] }))[0]).toMatchObject(scorer);
      const window = [];
      for await (const r of store.feedback.feedbackRefsInWindow({ projectId: S, start: T0, end: T0 + 10 })) window.push(r);
      expect(window.map((r) => [r.scorerTags, r.scorerRatings, r.spanAgentName, r.spanAgentVersion, r.spanStatusCode])).toEqual([
        [scorer.scorer_tags, scorer.scorer_ratings, 'support-bot', 'v3', 'ERROR'],
        [[], {}, 'other-bot', '', 'UNSET'],
      ]);
    });

    it('selects payload paths with their JSON types', async () => {
      const rows = await store.feedback.queryFeedback({
        projectId: P,
        fields: ['id', 'payload.score', 'payload.nested.list.1', 'payload.missing'],
        query: eq('id', 'f2'),
      });
      expect(rows).toEqual([{ id: 'f2', 'payload.score': 5, 'payload.nested.list.1': { x: 'y' }, 'payload.missing': null }]);
    });

    const cases: [string, Parameters<Store['feedback']['queryFeedback']>[0]['query'], string[]][] = [
      ['a column', eq('feedback_type', 'wandb.note.1'), ['f1']],
      ['a payload string', eq('payload.tag', 'a'), ['f3']],
      ['a payload number, numeric strings included', { $expr: { $gte: [{ $getField: 'payload.score' }, { $literal: 7 }] } }, ['f3', 'f4']],
      ['a payload boolean', eq('payload.ok', false), ['f3']],
      ['a missing payload key', eq('payload.ok', null), ['f1', 'f4']],
      ['a datetime', { $expr: { $gt: [{ $getField: 'created_at' }, { $literal: '2024-01-01T00:00:00.000002Z' }] } }, ['f3', 'f4']],
      ['$in on a column', { $expr: { $in: [{ $getField: 'id' }, [{ $literal: 'f1' }, { $literal: 'f4' }]] } }, ['f1', 'f4']],
      [
        '$contains, case-insensitive',
        { $expr: { $contains: { input: { $getField: 'payload.note' }, substr: { $literal: 'ELL' }, case_insensitive: true } } },
        ['f1'],
      ],
      ['$not and $and', { $expr: { $and: [{ $not: [eq('payload.tag', 'a').$expr] }, eq('weave_ref', ref('c2')).$expr] } }, ['f4']],
    ];
    for (const [what, query, expected] of cases) {
      it(`filters on ${what}`, async () => expect(await ids({ projectId: P, query })).toEqual(expected));
    }

    it('sorts on payload paths: present values first, then by number', async () => {
      const sorted = await ids({ projectId: P, sortBy: [{ field: 'payload.score', direction: 'desc' }] });
      expect(sorted).toEqual(['f3', 'f4', 'f2', 'f1']);
      expect(await ids({ projectId: P, sortBy: [{ field: 'payload.tag', direction: 'asc' }], limit: 2, offset: 1 })).toEqual(['f2', 'f4']);
    });

    // Corners of the query language every backend must print alike (store/query/tablePlan.ts).
    const corners: [string, Parameters<Store['feedback']['queryFeedback']>[0]['query'], string[]][] = [
      ['a list index', eq('payload.nested.list.0', 1), ['f2']],
      [
        'an index on an object finds nothing',
        { $expr: { $eq: [{ $getField: 'payload.nested.0' }, { $literal: null }] } },
        ['f1', 'f2', 'f3', 'f4'],
      ],
      ['$size of a list', { $expr: { $eq: [{ $size: { $getField: 'payload.nested.list' } }, { $literal: 2 }] } }, ['f2']],
      [
        '$convert to double of a numeric string',
        { $expr: { $gt: [{ $convert: { input: { $getField: 'payload.score' }, to: 'double' } }, { $literal: 6 }] } },
        ['f3', 'f4'],
      ],
      [
        '$convert to int',
        { $expr: { $eq: [{ $convert: { input: { $getField: 'payload.score' }, to: 'int' } }, { $literal: 7 }] } },
        ['f4'],
      ],
      [
        'exists, as a condition of its own',
        { $expr: { $and: [{ $convert: { input: { $getField: 'payload.ok' }, to: 'exists' } }, { $literal: true }] } },
        ['f2', 'f3'],
      ],
      ['$in with null', { $expr: { $in: [{ $getField: 'payload.tag' }, [{ $literal: 'a' }, { $literal: null }]] } }, ['f1', 'f3']],
      ['$not of a missing value', { $expr: { $not: [{ $gt: [{ $getField: 'payload.score' }, { $literal: 6 }] }] } }, ['f1', 'f2']],
      ['a boolean as text', { $expr: { $eq: [{ $getField: 'payload.ok' }, { $literal: 'true' }] } }, ['f2']],
      [
        'an object as its JSON text',
        { $expr: { $contains: { input: { $getField: 'payload.nested' }, substr: { $literal: '"x":"y"' } } } },
        ['f2'],
      ],
      [
        'a number column by a datetime in unix seconds',
        { $expr: { $lt: [{ $getField: 'created_at' }, { $literal: T0 / 1e6 + 0.0000025 }] } },
        ['f1', 'f2'],
      ],
      ['$or, $and of one', { $expr: { $or: [{ $and: [eq('id', 'f1').$expr] }, eq('payload.tag', 'c').$expr] } }, ['f1', 'f4']],
    ];
    for (const [what, query, expected] of corners) {
      it(`filters on ${what}`, async () => expect(await ids({ projectId: P, query })).toEqual(expected));
    }

    it('counts the rows a query matches, ignoring paging', async () => {
      expect(await store.feedback.countFeedback({ projectId: P })).toBe(4);
      expect(await store.feedback.countFeedback({ projectId: P, query: eq('weave_ref', ref('c2')), limit: 1 })).toBe(2);
    });

    it('refuses unknown fields with a 400', async () => {
      await expect(store.feedback.queryFeedback({ projectId: P, fields: ['nope'] })).rejects.toMatchObject({ status: 400 });
      await expect(store.feedback.queryFeedback({ projectId: P, query: eq('secret', 1) })).rejects.toBeInstanceOf(ApiError);
    });

    it('finds the feedback of a page of refs in one call', async () => {
      const rows = await store.feedback.feedbackForRefs({ projectId: P, weaveRefs: [ref('c2'), ref('none')] });
      expect(rows.map((r) => r.id)).toEqual(['f3', 'f4']);
      expect(rows[0]?.payload).toEqual({ score: 10, ok: false, tag: 'a' });
    });

    it('streams the payloads of a window, by type and trigger (prefix with :*)', async () => {
      const collect = async (w: Partial<Parameters<Store['feedback']['feedbackPayloads']>[0]>) => {
        const out: unknown[] = [];
        for await (const r of store.feedback.feedbackPayloads({ projectId: P, start: T0 + 2, end: T0 + 10, ...w })) out.push(r.payload);
        return out.length;
      };
      expect(await collect({})).toBe(3);
      expect(await collect({ feedbackType: 'custom', end: T0 + 4 })).toBe(2);
      expect(await collect({ triggerRef: 'weave:///acme/fb/object/mon:*' })).toBe(2);
      expect(await collect({ triggerRef: 'weave:///acme/fb/object/mon:v1' })).toBe(1);
      expect(await collect({ newest: 1 })).toBe(1);
    });

    it('replaces atomically, and not at all for an unknown id', async () => {
      expect(await store.feedback.replaceFeedback({ projectId: P, feedbackId: 'nope', row: row('r1') })).toBe(false);
      expect(await ids({ projectId: P, query: eq('id', 'r1') })).toEqual([]);
      expect(await store.feedback.replaceFeedback({ projectId: P, feedbackId: 'f1', row: row('f1b', { createdAt: T0 + 9 }) })).toBe(true);
      expect(await ids({ projectId: P, query: eq('weave_ref', ref('c1')) })).toEqual(['f2', 'f1b']);
    });

    it('keeps the latest write of a repeated id', async () => {
      await store.feedback.createFeedback([row('dup', { payload: { v: 1 } }), row('dup', { payload: { v: 2 } })]);
      const rows = await store.feedback.queryFeedback({ projectId: P, fields: ['payload.v'], query: eq('id', 'dup') });
      expect(rows).toEqual([{ 'payload.v': 2 }]);
    });

    it('converges when a create is retried, also from a second batch', async () => {
      const once = row('retry', { createdAt: T0 + 7, payload: { v: 'same' } });
      await store.feedback.createFeedback([once]);
      await store.feedback.createFeedback([once, once]);
      expect(await store.feedback.queryFeedback({ projectId: P, fields: ['id', 'payload'], query: eq('id', 'retry') })).toEqual([
        { id: 'retry', payload: { v: 'same' } },
      ]);
      expect(await store.feedback.countFeedback({ projectId: P, query: eq('id', 'retry') })).toBe(1);
    });

    it('purges idempotently: a repeated purge finds nothing more', async () => {
      await store.feedback.createFeedback([row('gone', { createdAt: T0 + 8 })]);
      expect(await store.feedback.purgeFeedback({ projectId: P, ids: ['gone', 'gone'] })).toBe(1);
      expect(await store.feedback.purgeFeedback({ projectId: P, ids: ['gone'] })).toBe(0);
      expect(await store.feedback.feedbackForRefs({ projectId: P, weaveRefs: [ref('c1')] })).not.toContainEqual(
        expect.objectContaining({ id: 'gone' }),
      );
      expect(await store.feedback.replaceFeedback({ projectId: P, feedbackId: 'gone', row: row('gone2') })).toBe(false);
    });

    it('purges only listed ids of the project', async () => {
      expect(await store.feedback.purgeFeedback({ projectId: P, ids: ['f2', 'other', 'missing'] })).toBe(1);
      expect(await ids({ projectId: 'acme/elsewhere' })).toEqual(['other']);
      expect(await ids({ projectId: P, query: eq('id', 'f2') })).toEqual([]);
    });
  });
}
