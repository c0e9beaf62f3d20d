/**
 * Conformance suite for feedback fields in call queries: `feedback.[<type>|*].payload.<path>`,
 * `.runnable_ref` and `.trigger_ref` in `/calls/stream_query` and `/calls/query_stats` filters
 * and sorts, over a real server, for every backend (each backend's test file calls
 * `describeCallsFeedbackQueryConformance()`). Runs on the five calls of callsQueryFixture.ts
 * with this feedback:
 *
 *   A: 👍, note "Great answer", quality 5        B: 👎, quality 2
 *   C: scorer (runnable) {output: {score: 0.3}}  D: 👎 and 👍, note "needs work"
 *   E: none. The deleted call and the other project's call get 👎, which no query may see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallsQueryReq } from '../../../contract/calls.js';
import type { JsonValue, Operand, Operation, SortBy } from '../../../contract/common.js';
import type { FeedbackCreateReq } from '../../../contract/feedback.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { letterOf, seedCalls, type Letter } from './callsQueryFixture.js';

type QueryReq = Omit<z.input<typeof CallsQueryReq>, 'project_id'>;

const REACTION = 'feedback.[wandb.reaction.1].payload.emoji';
const NOTE = 'feedback.[wandb.note.1].payload.note';
const QUALITY = 'feedback.[wandb.annotation.quality].payload.value';
const SCORE = 'feedback.[wandb.runnable.scorer].payload.output.score';

const f = (path: string): Operand => ({ $getField: path });
const l = (value: JsonValue): Operand => ({ $literal: value });
const eq = (path: string, value: JsonValue): Operation => ({ $eq: [f(path), l(value)] });
const by = (field: string, direction: 'asc' | 'desc'): SortBy => ({ field, direction });

/** [what, operation, matching calls in start order]. */
const QUERY_CASES: [string, Operation, Letter[]][] = [
  ['a reaction', eq(REACTION, '👎'), ['B', 'D']],
  ['another reaction (any row of the type matches)', eq(REACTION, '👍'), ['A', 'D']],
  ['$not: calls without that reaction', { $not: [eq(REACTION, '👎')] }, ['A', 'C', 'E']],
  ['the alias the server adds', eq('feedback.[wandb.reaction.1].payload.alias', ':thumbs_down:'), ['B', 'D']],
  ['* reads every feedback type', eq('feedback.[*].payload.emoji', '👍'), ['A', 'D']],
  ['both reactions on one call', { $and: [eq(REACTION, '👍'), eq(REACTION, '👎')] }, ['D']],
  ['with a call field', { $and: [eq('thread_id', 'th1'), eq(REACTION, '👎')] }, ['B']],
  ['$contains on a note', { $contains: { input: f(NOTE), substr: l('WORK'), case_insensitive: true } }, ['D']],
  ['$eq null: no note at all', eq(NOTE, null), ['B', 'C', 'E']],
  ['$convert exists as a condition', { $and: [{ $convert: { input: f(NOTE), to: 'exists' } }] }, ['A', 'D']],
  ['$not of exists', { $not: [{ $convert: { input: f(NOTE), to: 'exists' } }] }, ['B', 'C', 'E']],
  ['an annotation number, $gt', { $gt: [f(QUALITY), l(3)] }, ['A']],
  ['an annotation number, $gte', { $gte: [f(QUALITY), l(2)] }, ['A', 'B']],
  ['an annotation number, $lt', { $lt: [f(QUALITY), l(3)] }, ['B']],
  ['an annotation number, $eq', eq(QUALITY, 2), ['B']],
  ['an annotation read as text', eq(QUALITY, '5'), ['A']],
  ['$convert double', { $gte: [{ $convert: { input: f(QUALITY), to: 'double' } }, l(4.5)] }, ['A']],
  ['$in', { $in: [f(QUALITY), [l(2), l(5)]] }, ['A', 'B']],
  ['$in with null also takes calls without one', { $in: [f(QUALITY), [l(5), l(null)]] }, ['A', 'C', 'D', 'E']],
  ['a nested runnable output', { $lt: [f(SCORE), l(0.5)] }, ['C']],
  ['runnable_ref', { $contains: { input: f('feedback.[wandb.runnable.scorer].runnable_ref'), substr: l('/scorer:') } }, ['C']],
  ['trigger_ref of any type', { $contains: { input: f('feedback.[*].trigger_ref'), substr: l('monitor') } }, ['C']],
  ['the whole payload', eq('feedback.[wandb.annotation.quality].payload', { value: 2 }), ['B']],
  ['an unknown feedback type matches nothing', eq('feedback.[nope].payload.x', 1), []],
  ['$or of two types', { $or: [eq(REACTION, '👎'), { $gt: [f(QUALITY), l(4)] }] }, ['A', 'B', 'D']],
];

/** [what, operation, HTTP status]. */
const ERROR_CASES: [string, Operation, number][] = [
  ['feedback alone', eq('feedback', 1), 422],
  ['no type in brackets', eq('feedback.payload.x', 1), 422],
  ['an unknown part after the type', eq('feedback.[*].nope', 1), 422],
  ['an empty payload path part', eq('feedback.[*].payload..x', 1), 422],
  ['a path under runnable_ref', eq('feedback.[*].runnable_ref.x', 1), 422],
  ['two feedback types in one comparison', { $eq: [f(REACTION), f(NOTE)] }, 400],
  ['a feedback field against a call field', { $eq: [f(NOTE), f('id')] }, 400],
  ['ordering objects', { $gt: [f('feedback.[*].payload'), l({ a: 1 })] }, 400],
];

/** [what, sort_by, calls in the expected order]; calls without a value last, ties by id. */
const SORT_CASES: [string, SortBy[], Letter[]][] = [
  ['annotation desc', [by(QUALITY, 'desc')], ['A', 'B', 'D', 'E', 'C']],
  ['annotation asc', [by(QUALITY, 'asc')], ['B', 'A', 'D', 'E', 'C']],
  ['note text asc', [by(NOTE, 'asc')], ['A', 'D', 'B', 'E', 'C']],
  ['runnable_ref asc', [by('feedback.[wandb.runnable.scorer].runnable_ref', 'asc')], ['C', 'B', 'D', 'A', 'E']],
];

/** The suite. Each backend's test file calls this once. */
export function describeCallsFeedbackQueryConformance(backend: TestBackend): void {
  describe('calls query conformance: feedback fields', () => {
    let t: TestServer;
    let project_id: string;

    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      const entity = t.alice.entity;
      project_id = `${entity}/q`;
      await seedCalls(t.alice.client, entity);
      const spec = await t.alice.client.objCreate({
        obj: {
          project_id,
          object_id: 'quality',
          val: { name: 'quality', field_schema: { type: 'number', minimum: 1, maximum: 5 } },
          builtin_object_class: 'AnnotationSpec',
        },
      });
      const annotation_ref = `weave:///${project_id}/object/quality:${spec.digest}`;
      const on = (
        callId: string,
        feedback_type: string,
        payload: Record<string, unknown>,
        extra: Partial<FeedbackCreateReq> = {},
        project = project_id,
      ) => ({
        project_id: project,
        weave_ref: `weave:///${project}/call/${callId}`,
        feedback_type,
        payload,
        ...extra,
      });
      const scorer = { runnable_ref: `weave:///${project_id}/object/scorer:v1`, trigger_ref: `weave:///${project_id}/object/monitor:m1` };
      await t.alice.client.feedbackBatchCreate({
        batch: [
          on('call-3', 'wandb.reaction.1', { emoji: '👍' }),
          on('call-3', 'wandb.note.1', { note: 'Great answer' }),
          on('call-3', 'wandb.annotation.quality', { value: 5 }, { annotation_ref }),
          on('call-1', 'wandb.reaction.1', { emoji: '👎' }),
          on('call-1', 'wandb.annotation.quality', { value: 2 }, { annotation_ref }),
          on('call-5', 'wandb.runnable.scorer', { output: { score: 0.3 } }, scorer),
          on('call-2', 'wandb.reaction.1', { emoji: '👎' }),
          on('call-2', 'wandb.reaction.1', { emoji: '👍' }),
          on('call-2', 'wandb.note.1', { note: 'needs work' }),
          on('call-9', 'wandb.reaction.1', { emoji: '👎' }),
          on('call-8', 'wandb.reaction.1', { emoji: '👎' }, {}, `${entity}/q-other`),
        ],
      });
    });
    afterAll(async () => {
      await t.close();
    });

    async function query(req: QueryReq): Promise<Letter[]> {
      const out: Letter[] = [];
      for await (const c of t.alice.client.callsStreamQuery({ project_id, ...req })) out.push(letterOf(c.id));
      return out;
    }
    const where = (expr: Operation) => query({ query: { $expr: expr } });
    const count = async (expr: Operation) => (await t.alice.client.callsQueryStats({ project_id, query: { $expr: expr } })).count;

    describe('POST /calls/stream_query $expr on feedback', () => {
      it.each(QUERY_CASES)('%s', async (_what, expr, expected) => {
        expect(await where(expr)).toEqual(expected);
        expect(await count(expr)).toBe(expected.length);
      });

      it.each(ERROR_CASES)('rejects %s', async (_what, expr, status) => {
        await expect(where(expr)).rejects.toMatchObject({ status });
        await expect(count(expr)).rejects.toMatchObject({ status });
      });

      it('sees feedback written after the query was first asked, and forgets purged feedback', async () => {
        expect(await where(eq(REACTION, '🚀'))).toEqual([]);
        const { id } = await t.alice.client.feedbackCreate({
          project_id,
          weave_ref: `weave:///${project_id}/call/call-4`,
          feedback_type: 'wandb.reaction.1',
          payload: { emoji: '🚀' },
        });
        expect(await where(eq(REACTION, '🚀'))).toEqual(['E']);
        await t.alice.client.feedbackPurge({ project_id, query: { $expr: { $eq: [f('id'), l(id)] } } });
        expect(await where(eq(REACTION, '🚀'))).toEqual([]);
      });

      it('survives SQL injection in the feedback type and path', async () => {
        const evil = "x') OR 1=1; DROP TABLE feedback; --";
        expect(await where(eq(`feedback.[${evil}].payload.emoji`, '👎'))).toEqual([]);
        expect(await where(eq(`feedback.[wandb.reaction.1].payload.${evil}`, '👎'))).toEqual([]);
        expect(await where(eq(REACTION, evil))).toEqual([]);
        expect(await query({ sort_by: [by(`feedback.[${evil}].payload.x`, 'asc')] })).toHaveLength(5);
        expect(await where(eq(REACTION, '👎'))).toEqual(['B', 'D']);
      });
    });

    describe('POST /calls/stream_query sort_by feedback', () => {
      it.each(SORT_CASES)('%s', async (_what, sort_by, expected) => {
        expect(await query({ sort_by })).toEqual(expected);
      });

      it('sorts by the newest value when several people annotated', async () => {
        const spec = await t.admin.objRead({ project_id, object_id: 'quality', digest: 'latest' });
        const annotation_ref = `weave:///${project_id}/object/quality:${spec.obj.digest}`;
        await t.admin.feedbackCreate({
          project_id,
          weave_ref: `weave:///${project_id}/call/call-3`,
          feedback_type: 'wandb.annotation.quality',
          payload: { value: 1 },
          annotation_ref,
        });
        expect(await query({ sort_by: [by(QUALITY, 'desc')] })).toEqual(['B', 'A', 'D', 'E', 'C']);
        // Filters still see every annotator's value.
        expect(await where(eq(QUALITY, 5))).toEqual(['A']);
      });

      it('rejects malformed feedback sort fields with 422', async () => {
        await expect(query({ sort_by: [by('feedback.[*].nope', 'asc')] })).rejects.toMatchObject({ status: 422 });
      });
    });
  });
}
