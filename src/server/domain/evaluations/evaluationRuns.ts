/**
 * Evaluation runs (docs/api/evaluations.md §2.2): an `Evaluation.evaluate` call with
 * `attributes.weave = {evaluation_run: "true", evaluation, model}` and inputs
 * `{self: <evaluation>, model}`, whose op is a placeholder op of that name.
 *
 * Decisions beyond the reference:
 * - an evaluation or model given as a `weave:///` ref must be a live version of this project
 *   (400 / 404); any other string is kept verbatim, as the reference keeps both (liveRefOrLabel);
 * - a `source_evaluation_run_id` must name a run (404); it is kept as
 *   `attributes.weave.source_evaluation_run_id`;
 * - evaluations run by the SDKs are runs too (see `isRun`): their evaluation and model come
 *   from the call's inputs;
 * - finishing ends every predict_and_score row still open (as finishing its prediction would),
 *   summarizes all rows like the SDK (evaluationSummary.ts) into an `Evaluation.summarize`
 *   child and the run's output, and stores the request's summary; an `exception` (what the
 *   Python SDK's EvaluationLoggerV2 sends when the evaluation failed) ends the run with it, so
 *   it reads as failed; finishing twice is a 409;
 * - deleting only deletes runs: other call ids among `evaluation_run_ids` are ignored.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { Operand, Operation } from '../../../contract/common.js';
import type { EvaluationRunRead } from '../../../contract/evaluationRuns.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { withWeaveSummary } from '../calls/calls.js';
import {
  allOf,
  childrenOf,
  collectCalls,
  EVALUATE_OP,
  isPredictAndScore,
  isRun,
  planEnd,
  planStart,
  predictAndScoreOutput,
  ROW_OUTPUT_COLUMNS,
  RUN_QUERY_EXPR,
  SUMMARIZE_OP,
  weaveAttrs,
} from './evaluationCalls.js';
import { summarizeRun, type RowResult } from './evaluationSummary.js';
import { uuidv7 } from '../../core/ids.js';
import { liveRefOrLabel } from '../calls/liveRefs.js';
import { PLACEHOLDER_SOURCE } from '../objects/v2ObjectValues.js';
import { WritePlan, type Writer } from '../calls/writePlan.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The wire shape of a run call. */
export function toRunRead(call: CallSchema): EvaluationRunRead {
  const attrs = weaveAttrs(call);
  return {
    evaluation_run_id: call.id,
    evaluation: str(attrs.evaluation ?? call.inputs.self),
    model: str(attrs.model ?? call.inputs.model),
    status: call.exception != null ? 'failed' : call.ended_at ? 'completed' : 'running',
    started_at: call.started_at,
    finished_at: call.ended_at,
    summary: withWeaveSummary(call).summary,
    source_evaluation_run_id: typeof attrs.source_evaluation_run_id === 'string' ? attrs.source_evaluation_run_id : null,
  };
}

/** The run's call, or 404; with `columns`, only those are loaded (and what tells a run). */
export async function requireRun(store: Store, projectId: string, runId: string, columns?: readonly string[]): Promise<CallSchema> {
  const call = await store.calls.readCall({ projectId, id: runId, columns: columns && ['attributes', 'parent_id', ...columns] });
  if (!call || !isRun(call)) throw new NotFoundError(`Evaluation run ${runId} not found`);
  return call;
}

export async function createRun(
  store: Store,
  ctx: Writer,
  req: { evaluation: string; model: string; source_evaluation_run_id?: string | null },
): Promise<{ evaluation_run_id: string }> {
  await liveRefOrLabel(store, { projectId: ctx.projectId, ref: req.evaluation, field: 'evaluation', kinds: ['object'] });
  await liveRefOrLabel(store, { projectId: ctx.projectId, ref: req.model, field: 'model' });
  if (req.source_evaluation_run_id) await requireRun(store, ctx.projectId, req.source_evaluation_run_id);
  const plan = new WritePlan(ctx);
  const id = uuidv7();
  const attributes: Record<string, unknown> = { evaluation_run: 'true', evaluation: req.evaluation, model: req.model };
  if (req.source_evaluation_run_id) attributes.source_evaluation_run_id = req.source_evaluation_run_id;
  planStart(plan, {
    id,
    traceId: id,
    parentId: null,
    opRef: plan.op(EVALUATE_OP, PLACEHOLDER_SOURCE.evaluate),
    attributes,
    inputs: { self: req.evaluation, model: req.model },
    at: ctx.now,
  });
  await plan.applyLast(store);
  return { evaluation_run_id: id };
}

const inList = (field: string, values: string[]): Operation => ({
  $in: [{ $getField: field }, values.map((v): Operand => ({ $literal: v }))],
});

/** Runs matching every given filter, in start order, paged. */
export async function* listRuns(
  store: Store,
  req: {
    projectId: string;
    evaluations?: string[] | null;
    models?: string[] | null;
    runIds?: string[] | null;
    limit?: number | null;
    offset?: number | null;
  },
): AsyncIterable<EvaluationRunRead> {
  const conditions: Operation[] = [RUN_QUERY_EXPR];
  // API runs carry the refs as attributes, SDK evaluations only as inputs.
  if (req.evaluations?.length)
    conditions.push({ $or: [inList('attributes.weave.evaluation', req.evaluations), inList('inputs.self', req.evaluations)] });
  if (req.models?.length) conditions.push({ $or: [inList('attributes.weave.model', req.models), inList('inputs.model', req.models)] });
  const calls = store.calls.queryCalls({
    projectId: req.projectId,
    // Every run's op is an Evaluation.evaluate op of this project (the API writes a placeholder
    // op of that name; SDK evaluations call theirs so): as an op-name prefix the op index finds
    // them, instead of the JSON conditions being tested on every call of the project.
    filter: { op_names: [`weave:///${req.projectId}/op/${EVALUATE_OP}:*`], ...(req.runIds?.length ? { call_ids: req.runIds } : {}) },
    query: allOf(conditions),
    limit: req.limit,
    offset: req.offset,
  });
  for await (const call of calls) yield toRunRead(call);
}

/** Soft-deletes the runs among `ids` with all their calls; answers how many calls went. */
export async function deleteRuns(store: Store, projectId: string, ids: string[], now: number): Promise<number> {
  const runs = (await collectCalls(store, projectId, { call_ids: ids })).filter(isRun);
  return store.calls.deleteCalls({ projectId, ids: runs.map((c) => c.id), deletedAt: now });
}

export async function finishRun(
  store: Store,
  ctx: Writer,
  req: { runId: string; summary?: Record<string, unknown> | null; exception?: string | null },
): Promise<void> {
  const run = await requireRun(store, ctx.projectId, req.runId);
  if (run.ended_at) throw new ConflictError(`Evaluation run ${req.runId} is already finished`);
  const rows = ((await childrenOf(store, ctx.projectId, [run.id])).get(run.id) ?? []).filter(isPredictAndScore);
  const open = rows.filter((r) => !r.ended_at);
  const grandchildren = await childrenOf(
    store,
    ctx.projectId,
    open.map((r) => r.id),
    ROW_OUTPUT_COLUMNS,
  );
  const plan = new WritePlan(ctx);
  const { now } = ctx;
  const results: RowResult[] = rows.map((row) => {
    if (row.ended_at) return row.output as RowResult;
    const output = predictAndScoreOutput(grandchildren.get(row.id) ?? []);
    planEnd(plan, { id: row.id, output, at: now });
    return output;
  });
  const summary = summarizeRun(results.filter((r) => r && typeof r === 'object' && r.scores && typeof r.scores === 'object'));
  const summarizeId = uuidv7();
  const opRef = plan.op(SUMMARIZE_OP, PLACEHOLDER_SOURCE.summarize);
  planStart(plan, {
    id: summarizeId,
    traceId: run.trace_id,
    parentId: run.id,
    opRef,
    attributes: {},
    inputs: { self: run.inputs.self ?? null },
    at: now,
  });
  planEnd(plan, { id: summarizeId, output: summary, at: now });
  planEnd(plan, { id: run.id, output: summary, summary: req.summary ?? {}, exception: req.exception, at: now });
  await plan.applyLast(store);
}
