/**
 * The call shapes evaluations are made of (docs/api/evaluations.md §2.2), shared by runs,
 * predictions, scores, eval results and evaluation status:
 *
 *   Evaluation.evaluate            the run (root; inputs {self: evaluation, model})
 *   └ Evaluation.predict_and_score one per dataset row and trial (inputs {self, model, example})
 *     ├ <model>.predict            the prediction (attributes weave.prediction = "true")
 *     └ <scorer>.score             one per scorer (attributes weave.score = "true")
 *   └ Evaluation.summarize         written when the run finishes
 *
 * The TS SDK names the row op `Evaluation.predictAndScore`; both spellings are recognised.
 * Op names are compared by the name inside the op ref, whatever its digest.
 */
import type { CallSchema, CallsFilter } from '../../../contract/calls.js';
import type { Operation, Query } from '../../../contract/common.js';
import type { Store } from '../../store/Store.js';
import { toEndWrite, toStartWrite } from '../calls/calls.js';
import { opDisplayName } from '../../core/opNames.js';
import { formatMicros } from '../../core/datetime.js';
import { parseRef } from '../objects/refs.js';
import type { WritePlan } from '../calls/writePlan.js';

export const EVALUATE_OP = 'Evaluation.evaluate';
export const PREDICT_AND_SCORE_OP = 'Evaluation.predict_and_score';
export const PREDICT_AND_SCORE_OPS = [PREDICT_AND_SCORE_OP, 'Evaluation.predictAndScore'];
export const SUMMARIZE_OP = 'Evaluation.summarize';

/** `attributes.weave` of a call (an empty object when absent). */
export const weaveAttrs = (call: CallSchema): Record<string, unknown> => {
  const weave = call.attributes?.weave;
  return weave && typeof weave === 'object' && !Array.isArray(weave) ? (weave as Record<string, unknown>) : {};
};

export const isPredictAndScore = (call: Pick<CallSchema, 'op_name'>): boolean =>
  PREDICT_AND_SCORE_OPS.includes(opDisplayName(call.op_name));
/**
 * The v2 API writes the marker as "true"; a client writing the call itself may send a JSON
 * boolean (the reference's prediction read test does), which marks a prediction just the same.
 */
export const isPrediction = (call: CallSchema): boolean => [true, 'true'].includes(weaveAttrs(call).prediction as never);
export const isScore = (call: CallSchema): boolean => weaveAttrs(call).score === 'true';

/** `attributes.weave.<key> == value`, as a query operation. */
export const weaveAttrIs = (key: string, value: string): Operation => ({
  $eq: [{ $getField: `attributes.weave.${key}` }, { $literal: value }],
});

/** A query that holds when every operation does. */
export const allOf = (ops: Operation[]): Query => ({ $expr: ops.length === 1 ? ops[0]! : { $and: ops } });

/**
 * A run: a call made by the evaluation-runs API, or the root of an evaluation an SDK ran (an
 * `Evaluation.evaluate` call). The reference lists only the former; counting both lets SDK
 * evaluations and API runs be listed, read and compared the same way.
 */
export const isRun = (call: CallSchema): boolean =>
  weaveAttrs(call).evaluation_run === 'true' || (opDisplayName(call.op_name) === EVALUATE_OP && call.parent_id === null);

/** The query `isRun` stands for, for listing runs in the store. */
export const RUN_QUERY_EXPR: Operation = {
  $or: [
    weaveAttrIs('evaluation_run', 'true'),
    {
      $and: [
        { $contains: { input: { $getField: 'op_name' }, substr: { $literal: `/op/${EVALUATE_OP}:` } } },
        { $eq: [{ $getField: 'parent_id' }, { $literal: null }] },
      ],
    },
  ],
};

/** The object or op name inside a ref, or null when it is not one. */
export function refName(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  try {
    const parsed = parseRef(ref);
    return parsed.kind === 'object' || parsed.kind === 'op' ? parsed.name : null;
  } catch {
    return null;
  }
}

/** Every live call matching a filter (and query) of a project, read into memory. */
export async function collectCalls(
  store: Store,
  projectId: string,
  filter: CallsFilter,
  query?: Query | null,
  columns?: readonly string[],
): Promise<CallSchema[]> {
  const out: CallSchema[] = [];
  for await (const call of store.calls.queryCalls({ projectId, filter, query, columns: columns ? [...columns] : null })) out.push(call);
  return out;
}

/** Ids per store filter: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** The live children of many parents, grouped by parent id; with `columns`, only those are loaded (and `parent_id`). */
export async function childrenOf(
  store: Store,
  projectId: string,
  parentIds: string[],
  columns?: readonly string[],
): Promise<Map<string, CallSchema[]>> {
  const byParent = new Map<string, CallSchema[]>();
  const loaded = columns ? ['parent_id', ...columns] : undefined;
  for (let at = 0; at < parentIds.length; at += CHUNK) {
    for (const call of await collectCalls(store, projectId, { parent_ids: parentIds.slice(at, at + CHUNK) }, null, loaded)) {
      // Appended in place: copying the list per child was quadratic in a run's rows (100k rows: 5e9 copies).
      const siblings = byParent.get(call.parent_id!);
      if (siblings) siblings.push(call);
      else byParent.set(call.parent_id!, [call]);
    }
  }
  return byParent;
}

/** The live calls with the given ids, by id. */
export async function callsById(store: Store, projectId: string, ids: string[]): Promise<Map<string, CallSchema>> {
  const out = new Map<string, CallSchema>();
  for (let at = 0; at < ids.length; at += CHUNK) {
    for (const call of await collectCalls(store, projectId, { call_ids: ids.slice(at, at + CHUNK) })) out.set(call.id, call);
  }
  return out;
}

/** Seconds between a call's start and end, or null while it runs. */
export function latencySeconds(call: CallSchema): number | null {
  if (!call.ended_at) return null;
  return (Date.parse(call.ended_at) - Date.parse(call.started_at)) / 1000;
}

/** Adds the start of a call to the plan, as the plan's user; `attributes` go under `weave`. */
export function planStart(
  plan: WritePlan,
  call: {
    id: string;
    traceId: string;
    parentId: string | null;
    opRef: string;
    attributes: Record<string, unknown>;
    inputs: Record<string, unknown>;
    at: number;
  },
): void {
  plan.calls.push(
    toStartWrite(
      {
        project_id: plan.projectId,
        id: call.id,
        trace_id: call.traceId,
        parent_id: call.parentId,
        op_name: call.opRef,
        started_at: formatMicros(call.at),
        attributes: Object.keys(call.attributes).length ? { weave: call.attributes } : {},
        inputs: call.inputs,
      },
      plan.userId,
    ),
  );
}

/** Adds the end of a call to the plan. */
export function planEnd(
  plan: WritePlan,
  call: { id: string; output: unknown; summary?: Record<string, unknown>; exception?: string | null; at: number },
): void {
  plan.calls.push(
    toEndWrite({
      project_id: plan.projectId,
      id: call.id,
      ended_at: formatMicros(call.at),
      output: call.output,
      summary: call.summary ?? {},
      exception: call.exception ?? null,
    }),
  );
}

/**
 * The columns of a row's children predictAndScoreOutput reads (with childrenOf's). Not their
 * inputs: each score's inputs copy the prediction's inputs and output, the bulk of a row.
 */
export const ROW_OUTPUT_COLUMNS = ['attributes', 'output', 'ended_at'] as const;

/**
 * What a predict_and_score call ends with once its prediction is in: the model output, the
 * scores of its score children keyed by scorer name, and the prediction's latency, as
 * `{output, scores, model_latency: {mean}}` (the Python SDK's shape).
 */
export function predictAndScoreOutput(children: CallSchema[]): {
  output: unknown;
  scores: Record<string, unknown>;
  model_latency: { mean: number } | null;
} {
  const prediction = children.find(isPrediction);
  const scores: Record<string, unknown> = {};
  for (const score of children.filter(isScore)) {
    if (score.output === null || score.output === undefined) continue;
    scores[refName(weaveAttrs(score).scorer) ?? 'unknown'] = score.output;
  }
  const latency = prediction ? latencySeconds(prediction) : null;
  return { output: prediction?.output ?? null, scores, model_latency: latency === null ? null : { mean: latency } };
}
