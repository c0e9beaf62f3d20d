/**
 * `/evaluations/status` (docs/api/evaluations.md §3), as the reference's
 * methods/evaluation_status.py answers it: not_found for an unknown call, 400 for a call whose
 * op is not `Evaluation.evaluate`, failed when it ended with an exception, complete with its
 * output once ended, else running with the rows done so far out of the dataset's rows.
 *
 * Decisions: `failed` carries the call's exception text (the reference leaves `error` null;
 * the text is what a caller needs); the row total is the dataset's row count times the trials
 * (`inputs.nTrials` of a TS-SDK evaluate call, else the evaluation's `trials`, else 1), where
 * the reference ignores trials and so under-counts repeated rows; any lookup failure falls back
 * to the completed count, never failing the request.
 */
import type { EvaluationStatus } from '../../../contract/evaluations.js';
import { BadRequestError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { EVALUATE_OP } from './evaluationCalls.js';
import { parseRef } from '../objects/refs.js';

/** A live object's value through its ref string; null for anything else. */
async function objectAt(store: Store, projectId: string, ref: unknown): Promise<Record<string, unknown> | null> {
  if (typeof ref !== 'string') return null;
  const parsed = parseRef(ref);
  if (parsed.kind !== 'object' || parsed.projectId !== projectId) return null;
  const obj = await store.objects.readObject({ projectId, objectId: parsed.name, version: { digest: parsed.digest } });
  return obj && obj.deletedAt === null && obj.valJson ? (JSON.parse(obj.valJson) as Record<string, unknown>) : null;
}

/** Rows the evaluation will produce: dataset rows x trials; null when that cannot be found out. */
async function expectedRows(store: Store, projectId: string, inputs: Record<string, unknown>): Promise<number | null> {
  const evaluation = await objectAt(store, projectId, inputs.self);
  const dataset = await objectAt(store, projectId, evaluation?.dataset);
  if (typeof dataset?.rows !== 'string') return null;
  const table = parseRef(dataset.rows);
  if (table.kind !== 'table') return null;
  const [stats] = await store.tables.tableStats({ projectId, digests: [table.digest], includeStorageSize: false });
  const trials = [inputs.nTrials, evaluation?.trials].find((t): t is number => Number.isInteger(t) && (t as number) > 0) ?? 1;
  return stats ? stats.count * trials : null;
}

export async function evaluationStatus(store: Store, req: { projectId: string; callId: string }): Promise<EvaluationStatus> {
  const call = await store.calls.readCall({ projectId: req.projectId, id: req.callId });
  if (!call) return { code: 'not_found' };
  if (!call.op_name.includes(EVALUATE_OP)) throw new BadRequestError(`Call ${req.callId} is not an evaluation (op ${call.op_name})`);
  if (call.exception != null) return { code: 'failed', error: call.exception };
  if (call.ended_at) return { code: 'complete', output: call.output ?? {} };
  const completed = await store.calls.countCalls({
    projectId: req.projectId,
    filter: { parent_ids: [call.id] },
    query: { $expr: { $not: [{ $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'running' }] }] } },
  });
  let total: number | null = null;
  try {
    total = await expectedRows(store, req.projectId, call.inputs);
  } catch {
    // A malformed ref on the way: report what is known.
  }
  return { code: 'running', completed_rows: completed, total_rows: Math.max(total ?? completed, completed) };
}
