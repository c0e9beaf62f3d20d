/**
 * Evaluation runs, predictions and scores under `/v2/:entity/:project`: thin maps onto
 * domain/evaluations/evaluationRuns.ts, predictions.ts and scores.ts. The project is the two path
 * segments, access-checked like every project.
 */
import {
  createPrediction,
  deletePredictions,
  finishPrediction,
  listPredictions,
  readPrediction,
} from '../domain/evaluations/predictions.js';
import { createRun, deleteRuns, finishRun, listRuns, requireRun, toRunRead } from '../domain/evaluations/evaluationRuns.js';
import { createScore, deleteScores, listScores, readScore } from '../domain/evaluations/scores.js';
import type { Clock } from '../core/clock.js';
import type { Writer } from '../domain/calls/writePlan.js';
import { PredictionCreateReq, PredictionFinishReq } from '../../contract/predictions.js';
import { ScoreCreateReq } from '../../contract/scores.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor, type AuditContext } from '../audit/auditTrail.js';
import { fastValidator } from '../http/fastValidator.js';
import { v2ProjectId, v2Projects } from './v2Objects.js';

/** Who writes, where and when: the request's project, user and the services clock's now. */
const writer = (input: { entity: string; project: string }, { user, clock }: { user: { username: string }; clock: Clock }): Writer => ({
  projectId: v2ProjectId(input),
  userId: user.username,
  now: clock.nowMicros(),
});

export const evaluationRunRoutes = defineRoutes({
  evaluationRunCreate: {
    runs: 'write',
    projects: v2Projects,
    handler: (req, context) => createRun(context.store, writer(req, context), req),
  },
  evaluationRunList: {
    runs: 'read',
    projects: v2Projects,
    handler: (req, { store }) =>
      listRuns(store, {
        projectId: v2ProjectId(req),
        evaluations: req.evaluations,
        models: req.models,
        runIds: req.evaluation_run_ids,
        limit: req.limit,
        offset: req.offset,
      }),
  },
  evaluationRunRead: {
    runs: 'read',
    projects: v2Projects,
    handler: async (req, { store }) => toRunRead(await requireRun(store, v2ProjectId(req), req.evaluation_run_id)),
  },
  evaluationRunDelete: {
    runs: 'write',
    projects: v2Projects,
    handler: async (req, ctx) => {
      const num_deleted = await deleteRuns(ctx.store, v2ProjectId(req), req.evaluation_run_ids, ctx.clock.nowMicros());
      await recordDeleted(ctx, v2ProjectId(req), 'evaluation_run', req.evaluation_run_ids.length, num_deleted);
      return { num_deleted };
    },
  },
  evaluationRunFinish: {
    runs: 'write',
    projects: v2Projects,
    handler: async (req, context) => {
      await finishRun(context.store, writer(req, context), {
        runId: req.evaluation_run_id,
        summary: req.summary,
        exception: req.exception,
      });
      return { success: true };
    },
  },

  predictionCreate: {
    runs: 'main-when-small',
    projects: v2Projects,
    fastInput: fastValidator(PredictionCreateReq),
    handler: (req, context) => createPrediction(context.store, writer(req, context), req),
  },
  predictionList: {
    runs: 'read',
    projects: v2Projects,
    handler: (req, { store }) =>
      listPredictions(store, { projectId: v2ProjectId(req), runId: req.evaluation_run_id, limit: req.limit, offset: req.offset }),
  },
  predictionRead: {
    runs: 'read',
    projects: v2Projects,
    handler: (req, { store }) => readPrediction(store, v2ProjectId(req), req.prediction_id),
  },
  predictionDelete: {
    runs: 'write',
    projects: v2Projects,
    handler: async (req, ctx) => {
      const num_deleted = await deletePredictions(ctx.store, v2ProjectId(req), req.prediction_ids, ctx.clock.nowMicros());
      await recordDeleted(ctx, v2ProjectId(req), 'prediction', req.prediction_ids.length, num_deleted);
      return { num_deleted };
    },
  },
  predictionFinish: {
    runs: 'main-when-small',
    projects: v2Projects,
    fastInput: fastValidator(PredictionFinishReq),
    handler: async (req, context) => {
      await finishPrediction(context.store, writer(req, context), req.prediction_id, { output: req.output });
      return { success: true };
    },
  },

  scoreCreate: {
    runs: 'main-when-small',
    projects: v2Projects,
    fastInput: fastValidator(ScoreCreateReq),
    handler: (req, context) => createScore(context.store, writer(req, context), req),
  },
  scoreList: {
    runs: 'read',
    projects: v2Projects,
    handler: (req, { store }) =>
      listScores(store, { projectId: v2ProjectId(req), runId: req.evaluation_run_id, limit: req.limit, offset: req.offset }),
  },
  scoreRead: { runs: 'read', projects: v2Projects, handler: (req, { store }) => readScore(store, v2ProjectId(req), req.score_id) },
  scoreDelete: {
    runs: 'write',
    projects: v2Projects,
    handler: async (req, ctx) => {
      const num_deleted = await deleteScores(ctx.store, v2ProjectId(req), req.score_ids, ctx.clock.nowMicros());
      await recordDeleted(ctx, v2ProjectId(req), 'score', req.score_ids.length, num_deleted);
      return { num_deleted };
    },
  },
});

/** Runs, predictions and scores are calls: their deletes are `calls.deleted` rows, with the kind. */
function recordDeleted(ctx: AuditContext, projectId: string, kind: string, requested: number, deleted: number): Promise<void> {
  return recordFor(ctx, {
    action: 'calls.deleted',
    target: projectId,
    entity: entityOf(projectId),
    projectId,
    details: { kind, requested, deleted },
  });
}
