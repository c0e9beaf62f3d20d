/**
 * Scores (docs/api/evaluations.md §2.2): a `<scorer name>.score` call with
 * `attributes.weave = {score: "true", prediction_id, scorer, evaluation_run_id?}` and inputs
 * `{self: <scorer>, inputs, output}` (the prediction's), ended at once with the value. In a run
 * it sits under the prediction's predict_and_score row (or the run itself), otherwise it is its
 * own trace. Side effect, in the same transaction: `wandb.runnable.<scorer name>` feedback on
 * the prediction call, `payload = {output: value}`, `runnable_ref` = the scorer.
 *
 * Decisions beyond the reference: an unknown prediction or run is a 404 (the reference scores
 * an empty input); the scorer must be a live object ref of this project (400 / 404); the
 * feedback's `call_ref` names the score call (as the SDKs' scorer feedback does), so deleting
 * the score removes its feedback too; reads and deletes only concern score calls.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { ScoreRead } from '../../../contract/scores.js';
import { NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { callRef } from '../calls/callExtras.js';
import { allOf, collectCalls, isScore, planEnd, planStart, weaveAttrIs, weaveAttrs } from './evaluationCalls.js';
import { requireRun } from './evaluationRuns.js';
import { toFeedbackWrite } from '../feedback/feedback.js';
import { uuidv7 } from '../../core/ids.js';
import { requireLiveRef } from '../calls/liveRefs.js';
import { requirePrediction } from './predictions.js';
import { PLACEHOLDER_SOURCE } from '../objects/v2ObjectValues.js';
import { WritePlan, type Writer } from '../calls/writePlan.js';

/**
 * The run a score goes into: its id and trace. A prediction made in that same run (the usual
 * case: an evaluation logger scoring its own predictions) already names it, and lies in its
 * trace under it, so the run is not read again: a deleted run took the prediction with it
 * (deletes reach descendants), and the prediction's 404 comes first as before. Any other run
 * is read, and is a 404 when it is not one.
 */
async function scoredRun(store: Store, projectId: string, prediction: CallSchema, runId: string): Promise<{ id: string; traceId: string }> {
  if (weaveAttrs(prediction).evaluation_run_id === runId) return { id: runId, traceId: prediction.trace_id };
  // Only its id and trace: no columns beyond what tells a run.
  const run = await requireRun(store, projectId, runId, []);
  return { id: run.id, traceId: run.trace_id };
}

function toScoreRead(call: CallSchema): ScoreRead {
  const attrs = weaveAttrs(call);
  return {
    score_id: call.id,
    scorer: typeof attrs.scorer === 'string' ? attrs.scorer : '',
    // As the reference: a null score reads as 0.0.
    value: call.output ?? 0.0,
    evaluation_run_id: typeof attrs.evaluation_run_id === 'string' ? attrs.evaluation_run_id : null,
    wb_user_id: call.wb_user_id,
  };
}

export async function createScore(
  store: Store,
  ctx: Writer,
  req: { prediction_id: string; scorer: string; value: unknown; evaluation_run_id?: string | null },
): Promise<{ score_id: string }> {
  // What a score copies and links: not the prediction's summary, exception or OTel dump.
  const prediction = await requirePrediction(store, ctx.projectId, req.prediction_id, ['parent_id', 'inputs', 'output']);
  const scorer = await requireLiveRef(store, { projectId: ctx.projectId, ref: req.scorer, field: 'scorer', kinds: ['object'] });
  const run = req.evaluation_run_id ? await scoredRun(store, ctx.projectId, prediction, req.evaluation_run_id) : null;
  const plan = new WritePlan(ctx);
  const id = uuidv7();
  const { now } = ctx;
  const attributes: Record<string, unknown> = { score: 'true', prediction_id: prediction.id, scorer: req.scorer };
  if (run) attributes.evaluation_run_id = run.id;
  planStart(plan, {
    id,
    traceId: run ? run.traceId : id,
    parentId: run ? (prediction.parent_id ?? run.id) : null,
    opRef: plan.op(`${scorer.name}.score`, PLACEHOLDER_SOURCE.score),
    attributes,
    inputs: { self: req.scorer, inputs: prediction.inputs.inputs ?? {}, output: prediction.output ?? null },
    at: now,
  });
  planEnd(plan, { id, output: req.value, at: now });
  plan.feedback.push(
    toFeedbackWrite(
      {
        project_id: ctx.projectId,
        weave_ref: callRef(ctx.projectId, prediction.id),
        feedback_type: `wandb.runnable.${scorer.name}`,
        payload: { output: req.value },
        runnable_ref: req.scorer,
        call_ref: callRef(ctx.projectId, id),
      },
      ctx.userId,
      now,
    ),
  );
  await plan.applyLast(store);
  return { score_id: id };
}

export async function readScore(store: Store, projectId: string, id: string): Promise<ScoreRead> {
  const call = await store.calls.readCall({ projectId, id });
  if (!call || !isScore(call)) throw new NotFoundError(`Score ${id} not found`);
  return toScoreRead(call);
}

/** Scores (of one run), in start order, paged. */
export async function* listScores(
  store: Store,
  req: { projectId: string; runId?: string | null; limit?: number | null; offset?: number | null },
): AsyncIterable<ScoreRead> {
  const calls = store.calls.queryCalls({
    projectId: req.projectId,
    query: allOf([weaveAttrIs('score', 'true'), ...(req.runId ? [weaveAttrIs('evaluation_run_id', req.runId)] : [])]),
    limit: req.limit,
    offset: req.offset,
  });
  for await (const call of calls) yield toScoreRead(call);
}

/** Soft-deletes the scores among `ids` and purges the feedback they wrote, together. */
export async function deleteScores(store: Store, projectId: string, ids: string[], now: number): Promise<number> {
  const scores = (await collectCalls(store, projectId, { call_ids: ids })).filter(isScore);
  if (!scores.length) return 0;
  const refs = scores.map((s) => ({ $literal: callRef(projectId, s.id) }));
  const feedback = await store.feedback.queryFeedback({
    projectId,
    fields: ['id'],
    query: { $expr: { $in: [{ $getField: 'call_ref' }, refs] } },
  });
  const [deleted] = await store.apply([
    { kind: 'calls.delete', delete: { projectId, ids: scores.map((s) => s.id), deletedAt: now } },
    { kind: 'feedback.purge', purge: { projectId, ids: feedback.map((f) => String(f.id)) } },
  ]);
  return deleted;
}
