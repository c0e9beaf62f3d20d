/**
 * Evaluation results and orchestration, as two tables:
 * - `evaluationRoutes`, reads of the store: eval_results/query (under `/v2/:entity/:project`),
 *   `/evaluations/status` and the judges' agreement with reviewers (`/weft/judges/agreement`).
 *   A threaded server serves them on its read threads (readEndpoints.ts);
 * - `evaluationJobRoutes`, the model-backed jobs: `/evaluations/evaluate_model`,
 *   `/evaluations/rescore` and `/calls/score` validate their refs, queue a background job
 *   (jobs/JobRunner.ts) and answer at once. They need the providers and the job runner, which
 *   live on the main thread (threads/threadedApp.ts). `/evaluations/status` and `/weft/jobs`
 *   report progress.
 */
import { queryEvalResults } from '../domain/evaluations/evalResults.js';
import { judgeAgreement } from '../domain/feedback/judgeAgreement.js';
import { startCallsScore, tryJudge } from '../domain/calls/callsScore.js';
import { judgeFromValue, loadJudge } from '../domain/llm/llmObjects.js';
import { startEvaluateModel } from '../domain/evaluations/evaluateModel.js';
import { evaluationStatus } from '../domain/evaluations/evaluationStatus.js';
import { startRescore } from '../domain/evaluations/rescore.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor, type AuditContext } from '../audit/auditTrail.js';
import { v2ProjectId, v2Projects } from './v2Objects.js';

export const evaluationRoutes = defineRoutes({
  evalResultsQuery: {
    runs: 'read',
    readYourWrites: true,
    projects: v2Projects,
    handler: (req, { store }) => queryEvalResults(store, v2ProjectId(req), req),
  },

  evaluationStatus: {
    runs: 'read',
    handler: async (req, { store }) => ({ status: await evaluationStatus(store, { projectId: req.project_id, callId: req.call_id }) }),
  },

  judgeAgreement: { runs: 'read', handler: (req, { store }) => judgeAgreement(store, req.project_id) },
});

export const evaluationJobRoutes = defineRoutes({
  evaluateModel: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, limits } = ctx;
      const answer = await startEvaluateModel(
        { store, registry: inference.registry, limits, enqueue: (job) => inference.jobs.enqueue(job) },
        { projectId: req.project_id, userId: user.username, evaluationRef: req.evaluation_ref, modelRef: req.model_ref },
      );
      await recordJob(ctx, req.project_id, 'evaluate_model', { call_id: answer.call_id });
      return answer;
    },
  },

  evaluationRescore: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, limits } = ctx;
      const answer = await startRescore(
        { store, registry: inference.registry, limits, enqueue: (job) => inference.jobs.enqueue(job) },
        { projectId: req.project_id, userId: user.username, sourceRunId: req.source_evaluation_run_id, scorerRefs: req.scorer_refs },
      );
      await recordJob(ctx, req.project_id, 'rescore', { call_id: answer.call_id, scorers: req.scorer_refs.length });
      return answer;
    },
  },

  callsScore: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, limits } = ctx;
      const jobId = await startCallsScore(
        { store, registry: inference.registry, limits, enqueue: (job) => inference.jobs.enqueue(job) },
        { projectId: req.project_id, userId: user.username, callIds: req.call_ids, scorerRefs: req.scorer_refs },
      );
      await recordJob(ctx, req.project_id, 'score_calls', { job_id: jobId, calls: req.call_ids.length, scorers: req.scorer_refs.length });
      return {};
    },
  },

  judgeTry: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, clock } = ctx;
      const judge = req.scorer_ref
        ? await loadJudge(store, req.project_id, req.scorer_ref)
        : await judgeFromValue(store, req.project_id, req.scorer!, { ref: null, name: String(req.scorer!.name ?? 'judge') });
      return tryJudge(
        { store, registry: inference.registry, clock },
        { projectId: req.project_id, userId: user.username, callId: req.call_id, judge },
      );
    },
  },

  callsScoreJob: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, limits } = ctx;
      const jobId = await startCallsScore(
        { store, registry: inference.registry, limits, enqueue: (job) => inference.jobs.enqueue(job) },
        { projectId: req.project_id, userId: user.username, callIds: req.call_ids, scorerRefs: req.scorer_refs },
      );
      await recordJob(ctx, req.project_id, 'score_calls', { job_id: jobId, calls: req.call_ids.length, scorers: req.scorer_refs.length });
      return { job_id: jobId };
    },
  },
});

/** A job started, as an audit row: its kind and sizes, never its inputs. */
function recordJob(ctx: AuditContext, projectId: string, kind: string, details: Record<string, string | number>): Promise<void> {
  return recordFor(ctx, {
    action: 'job.started',
    target: projectId,
    entity: entityOf(projectId),
    projectId,
    details: { kind, ...details },
  });
}
