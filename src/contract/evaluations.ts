/**
 * Evaluation orchestration (docs/api/evaluations.md §3): the status of an evaluation call,
 * and the two endpoints that need a model provider and a job queue, which Weft does not run
 * (`/evaluations/evaluate_model` and `/calls/score` answer 400 saying so).
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

const wbUserId = z.string().nullish().describe('Ignored: the server sets the authenticated user');

// POST /evaluations/status
export const EvaluationStatusReq = z.object({ project_id: ProjectId, call_id: z.string().min(1) });
export const EvaluationStatus = z.discriminatedUnion('code', [
  z.object({ code: z.literal('not_found') }),
  z.object({
    code: z.literal('running'),
    completed_rows: z.number().int().describe('Direct children no longer running'),
    total_rows: z.number().int().describe("Rows of the evaluation's dataset (x trials), at least completed_rows"),
  }),
  z.object({ code: z.literal('failed'), error: z.string().nullable() }),
  z.object({ code: z.literal('complete'), output: z.unknown() }),
]);
export type EvaluationStatus = z.infer<typeof EvaluationStatus>;
export const EvaluationStatusRes = z.object({ status: EvaluationStatus });

// POST /evaluations/evaluate_model
export const EvaluateModelReq = z.object({
  project_id: ProjectId,
  evaluation_ref: z.string().min(1),
  model_ref: z.string().min(1),
  wb_user_id: wbUserId,
});
export const EvaluateModelRes = z.object({ call_id: z.string() });

// POST /calls/score
export const CallsScoreReq = z.object({
  project_id: ProjectId,
  call_ids: z.array(z.string()).min(1),
  scorer_refs: z.array(z.string()).min(1),
  wb_user_id: wbUserId,
});
export const CallsScoreRes = z.object({});
// POST /weft/calls/score: the same request; Weft's own answer names the job, so the dashboard can follow it
// (`/calls/score` keeps the reference's answer, `{}`, unchanged, so no reference client sees a field it does not expect).
export const WeftCallsScoreRes = z.object({ job_id: z.string().describe('The scoring job, at /weft/jobs/:job_id') });

// POST /weft/judges/try: one LLM judge on one ended call, answered at once; its calls are written
// (as a scoring job writes them) but no feedback is stored, so a judge can be tried before it is saved.
export const JudgeTryReq = z
  .object({
    project_id: ProjectId,
    call_id: z.string().min(1).describe('An ended call of the project: its output and inputs fill the scoring prompt'),
    scorer_ref: z.string().min(1).optional().describe('A saved LLMAsAJudgeScorer'),
    scorer: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('An LLMAsAJudgeScorer value not saved yet, as the judge editor would save it'),
  })
  .refine((r) => (r.scorer_ref === undefined) !== (r.scorer === undefined), 'give exactly one of scorer_ref and scorer');
export const JudgeTryRes = z.object({
  output: z.unknown().describe("The judge's answer, parsed as JSON when its model answers JSON"),
  error: z.string().nullable().describe("The provider's error, when the judge's model failed"),
  scorer_call_id: z.string().describe("The judge's own call, with its model and completion calls under it"),
  latency_seconds: z.number(),
});

// POST /evaluations/rescore (newest clients: EvaluationRescoreParams / EvaluationRescoreResponse)
export const EvaluationRescoreReq = z.object({
  project_id: ProjectId,
  source_evaluation_run_id: z.string().min(1).describe('The run whose predictions are scored again'),
  scorer_refs: z.array(z.string().min(1)).min(1),
  wb_user_id: wbUserId,
});
export const EvaluationRescoreRes = z.object({
  call_id: z.string().describe('Call ID for /evaluations/status polling'),
  evaluation_run_id: z.string().describe('The newly created evaluation run'),
});
