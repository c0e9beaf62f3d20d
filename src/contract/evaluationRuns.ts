/**
 * Evaluation runs (`/v2/{entity}/{project}/evaluation_runs`): an evaluation of one model,
 * stored as an `Evaluation.evaluate` call whose children are the per-row
 * `Evaluation.predict_and_score` calls; see docs/api/evaluations.md §2.2.
 */
import { z } from 'zod';
import { JsonObject, Limit, Offset } from './common.js';
import { V2Path } from './v2Objects.js';

const RunId = z.string().min(1);

export const EvaluationRunStatus = z.enum(['running', 'completed', 'failed']);

export const EvaluationRunRead = z.object({
  evaluation_run_id: z.string(),
  evaluation: z.string().describe('Evaluation ref'),
  model: z.string().describe('Model ref'),
  status: EvaluationRunStatus.describe('running until finished; failed when the call ended with an exception'),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  summary: JsonObject.nullable().describe("The run call's summary"),
  source_evaluation_run_id: z.string().nullable().describe('The run this one rescored, if any'),
});
export type EvaluationRunRead = z.infer<typeof EvaluationRunRead>;

// POST /v2/:entity/:project/evaluation_runs
export const EvaluationRunCreateReq = z.object({
  ...V2Path,
  evaluation: z
    .string()
    .min(1)
    .describe('Evaluation object ref (a weave:/// ref must be a live version here); any other string is kept as given'),
  model: z
    .string()
    .min(1)
    .describe('Model object (or op) ref (a weave:/// ref must be a live version here); any other string is kept as given'),
  source_evaluation_run_id: z.string().nullish().describe('Provenance when this run rescores another'),
});
export const EvaluationRunCreateRes = z.object({ evaluation_run_id: z.string() });

// GET /v2/:entity/:project/evaluation_runs
export const EvaluationRunListReq = z.object({
  ...V2Path,
  evaluations: z.array(z.string()).nullish().describe('Only runs of these evaluation refs'),
  models: z.array(z.string()).nullish().describe('Only runs of these model refs'),
  evaluation_run_ids: z.array(z.string()).nullish(),
  limit: Limit,
  offset: Offset,
});

// GET /v2/:entity/:project/evaluation_runs/:evaluation_run_id
export const EvaluationRunReadReq = z.object({ ...V2Path, evaluation_run_id: RunId });

// DELETE /v2/:entity/:project/evaluation_runs
export const EvaluationRunDeleteReq = z.object({ ...V2Path, evaluation_run_ids: z.array(z.string()).min(1).max(1000) });
export const NumDeletedRes = z.object({ num_deleted: z.number().int().describe('Calls deleted, descendants included') });

// POST /v2/:entity/:project/evaluation_runs/:evaluation_run_id/finish
export const EvaluationRunFinishReq = z.object({
  ...V2Path,
  evaluation_run_id: RunId,
  summary: JsonObject.nullish().describe("Stored as the run call's summary"),
  exception: z
    .string()
    .nullish()
    .describe(
      "Why the run failed (the Python SDK's EvaluationLoggerV2.fail sends str(exception)): the run ends with it and reads as failed",
    ),
});
export const SuccessRes = z.object({ success: z.boolean() });
