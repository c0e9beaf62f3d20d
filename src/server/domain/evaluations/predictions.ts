/**
 * Predictions (docs/api/evaluations.md §2.2): a `<model name>.predict` call with
 * `attributes.weave = {prediction: "true", model, evaluation_run_id?}` and inputs
 * `{self: <model>, inputs}`, ended at once with the output. In a run, the server first opens
 * the row's `Evaluation.predict_and_score` call (inputs `{self: <evaluation>, model, example}`)
 * and makes the prediction its child; finishing the prediction ends that row with
 * `{output, scores, model_latency}`.
 *
 * Finishing may carry the final `output`: the Python SDK's EvaluationLoggerV2 sends it (its
 * `finish` sends `PredictionFinishReq(output=...)`, the output the prediction holds by then, which
 * `finish(output=...)` or the `output` setter may have changed since `log_prediction`), so it
 * replaces the stored output, null included; without it the stored output stays.
 *
 * Decisions beyond the reference: a model given as a `weave:///` ref must be a live version of
 * this project (400 / 404); any other string is kept verbatim and its op is `Model.predict`, as
 * the reference names it when the model is no object or op ref;
 * reads and deletes only concern prediction calls (others: 404 / ignored); finishing keeps the
 * prediction's timing (the reference re-ends it at the finish, with an empty output or, in its
 * newest version, the one sent, so its latency would include the scoring) and may be repeated,
 * each time re-ending the row with the scores it has by then.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { PredictionRead } from '../../../contract/predictions.js';
import { NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import {
  allOf,
  callsById,
  childrenOf,
  collectCalls,
  isPredictAndScore,
  isPrediction,
  planEnd,
  planStart,
  PREDICT_AND_SCORE_OP,
  predictAndScoreOutput,
  ROW_OUTPUT_COLUMNS,
  weaveAttrIs,
  weaveAttrs,
} from './evaluationCalls.js';
import { requireRun } from './evaluationRuns.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import { liveRefOrLabel } from '../calls/liveRefs.js';
import { PLACEHOLDER_SOURCE } from '../objects/v2ObjectValues.js';
import { WritePlan, type Writer } from '../calls/writePlan.js';

/**
 * The wire shape; the run is the `evaluation_run_id` attribute or, for predictions made by
 * other clients, the run above a predict_and_score parent.
 */
function toPredictionRead(call: CallSchema, parent: CallSchema | undefined): PredictionRead {
  const attrs = weaveAttrs(call);
  const viaParent = parent && isPredictAndScore(parent) ? parent.parent_id : null;
  const inputs = call.inputs.inputs;
  return {
    prediction_id: call.id,
    model: typeof attrs.model === 'string' ? attrs.model : '',
    inputs: inputs && typeof inputs === 'object' && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : {},
    output: call.output ?? null,
    evaluation_run_id: typeof attrs.evaluation_run_id === 'string' ? attrs.evaluation_run_id : viaParent,
    wb_user_id: call.wb_user_id,
  };
}

/** The prediction call, or 404; with `columns`, only those are loaded (and what tells a prediction). */
export async function requirePrediction(store: Store, projectId: string, id: string, columns?: readonly string[]): Promise<CallSchema> {
  const call = await store.calls.readCall({ projectId, id, columns: columns && ['attributes', ...columns] });
  if (!call || !isPrediction(call)) throw new NotFoundError(`Prediction ${id} not found`);
  return call;
}

export async function createPrediction(
  store: Store,
  ctx: Writer,
  req: {
    model: string;
    inputs: Record<string, unknown>;
    output: unknown;
    evaluation_run_id?: string | null;
    genai_span_ref?: { trace_id: string; span_id: string }[] | null;
  },
): Promise<{ prediction_id: string }> {
  const model = await liveRefOrLabel(store, { projectId: ctx.projectId, ref: req.model, field: 'model' });
  const run = req.evaluation_run_id ? await requireRun(store, ctx.projectId, req.evaluation_run_id, ['inputs']) : null;
  const plan = new WritePlan(ctx);
  const id = uuidv7();
  const { now } = ctx;
  // Named fields only: a fast-checked body keeps unknown keys (docs/architecture.md "Fast input checks").
  const spans = req.genai_span_ref?.length
    ? { genai_span_ref: req.genai_span_ref.map(({ trace_id, span_id }) => ({ trace_id, span_id })) }
    : {};
  let parentId: string | null = null;
  if (run) {
    parentId = uuidv7();
    planStart(plan, {
      id: parentId,
      traceId: run.trace_id,
      parentId: run.id,
      opRef: plan.op(PREDICT_AND_SCORE_OP, PLACEHOLDER_SOURCE.predictAndScore),
      attributes: { predict_call_id: id, ...spans },
      inputs: { self: run.inputs.self ?? null, model: req.model, example: req.inputs },
      at: now,
    });
  }
  const attributes: Record<string, unknown> = { prediction: 'true', model: req.model, ...spans };
  if (run) attributes.evaluation_run_id = run.id;
  planStart(plan, {
    id,
    traceId: run ? run.trace_id : id,
    parentId,
    opRef: plan.op(`${model?.name ?? 'Model'}.predict`, PLACEHOLDER_SOURCE.predict),
    attributes,
    inputs: { self: req.model, inputs: req.inputs },
    at: now,
  });
  planEnd(plan, { id, output: req.output, at: now });
  await plan.applyLast(store);
  return { prediction_id: id };
}

export async function readPrediction(store: Store, projectId: string, id: string): Promise<PredictionRead> {
  const call = await requirePrediction(store, projectId, id);
  const parent = call.parent_id ? ((await store.calls.readCall({ projectId, id: call.parent_id })) ?? undefined) : undefined;
  return toPredictionRead(call, parent);
}

const PAGE = 200;

/** Predictions (of one run), in start order, paged; parents are looked up a page at a time. */
export async function* listPredictions(
  store: Store,
  req: { projectId: string; runId?: string | null; limit?: number | null; offset?: number | null },
): AsyncIterable<PredictionRead> {
  const calls = store.calls.queryCalls({
    projectId: req.projectId,
    query: allOf([weaveAttrIs('prediction', 'true'), ...(req.runId ? [weaveAttrIs('evaluation_run_id', req.runId)] : [])]),
    limit: req.limit,
    offset: req.offset,
  });
  let page: CallSchema[] = [];
  const flush = async function* () {
    const parents = await callsById(store, req.projectId, [...new Set(page.flatMap((c) => (c.parent_id ? [c.parent_id] : [])))]);
    for (const call of page) yield toPredictionRead(call, call.parent_id ? parents.get(call.parent_id) : undefined);
    page = [];
  };
  for await (const call of calls) {
    page.push(call);
    if (page.length >= PAGE) yield* flush();
  }
  yield* flush();
}

/** Soft-deletes the predictions among `ids`; answers how many calls went. */
export async function deletePredictions(store: Store, projectId: string, ids: string[], now: number): Promise<number> {
  const predictions = (await collectCalls(store, projectId, { call_ids: ids })).filter(isPrediction);
  return store.calls.deleteCalls({ projectId, ids: predictions.map((c) => c.id), deletedAt: now });
}

/**
 * Ends the prediction if it still runs (with `final.output` when given), or gives it
 * `final.output` keeping its end; then ends its predict_and_score row with what the row holds now.
 */
export async function finishPrediction(store: Store, ctx: Writer, id: string, final: { output?: unknown } = {}): Promise<void> {
  const call = await requirePrediction(store, ctx.projectId, id, ['parent_id', 'output', 'ended_at']);
  const plan = new WritePlan(ctx);
  const { now } = ctx;
  const given = final.output !== undefined;
  const output = given ? final.output : (call.output ?? null);
  const endedAt = call.ended_at ? parseIsoToMicros(call.ended_at) : null;
  if (endedAt === null || given) planEnd(plan, { id, output, at: endedAt ?? now });
  const parent = call.parent_id ? await store.calls.readCall({ projectId: ctx.projectId, id: call.parent_id, columns: ['op_name'] }) : null;
  if (parent && isPredictAndScore(parent)) {
    const children = (await childrenOf(store, ctx.projectId, [parent.id], ROW_OUTPUT_COLUMNS)).get(parent.id) ?? [];
    // The row reads the prediction as this request leaves it, not as stored before it.
    const current = children.map((c) => (c.id === id ? { ...c, output } : c));
    planEnd(plan, { id: parent.id, output: predictAndScoreOutput(current), at: now });
  }
  await plan.applyLast(store);
}
