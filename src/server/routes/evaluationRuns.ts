/**
 * Evaluation runs, predictions and scores under `/v2/:entity/:project`: thin maps onto
 * domain/evaluationRuns.ts, predictions.ts and scores.ts. The project is the two path
 * segments, access-checked like every project.
 */
import { createPrediction, deletePredictions, finishPrediction, listPredictions, readPrediction } from '../domain/predictions.js';
import { createRun, deleteRuns, finishRun, listRuns, requireRun, toRunRead } from '../domain/evaluationRuns.js';
import { createScore, deleteScores, listScores, readScore } from '../domain/scores.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { v2ProjectId, v2Projects } from './v2Objects.js';

const writer = (input: { entity: string; project: string }, user: { username: string }) => ({
  projectId: v2ProjectId(input),
  userId: user.username,
});

export const evaluationRunRoutes = defineRoutes({
  evaluationRunCreate: { projects: v2Projects, handler: (req, { store, user }) => createRun(store, writer(req, user), req) },
  evaluationRunList: {
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
    projects: v2Projects,
    handler: async (req, { store }) => toRunRead(await requireRun(store, v2ProjectId(req), req.evaluation_run_id)),
  },
  evaluationRunDelete: {
    projects: v2Projects,
    handler: async (req, { store }) => ({ num_deleted: await deleteRuns(store, v2ProjectId(req), req.evaluation_run_ids) }),
  },
  evaluationRunFinish: {
    projects: v2Projects,
    handler: async (req, { store, user }) => {
      await finishRun(store, writer(req, user), { runId: req.evaluation_run_id, summary: req.summary });
      return { success: true };
    },
  },

  predictionCreate: { projects: v2Projects, handler: (req, { store, user }) => createPrediction(store, writer(req, user), req) },
  predictionList: {
    projects: v2Projects,
    handler: (req, { store }) =>
      listPredictions(store, { projectId: v2ProjectId(req), runId: req.evaluation_run_id, limit: req.limit, offset: req.offset }),
  },
  predictionRead: { projects: v2Projects, handler: (req, { store }) => readPrediction(store, v2ProjectId(req), req.prediction_id) },
  predictionDelete: {
    projects: v2Projects,
    handler: async (req, { store }) => ({ num_deleted: await deletePredictions(store, v2ProjectId(req), req.prediction_ids) }),
  },
  predictionFinish: {
    projects: v2Projects,
    handler: async (req, { store, user }) => {
      await finishPrediction(store, writer(req, user), req.prediction_id);
      return { success: true };
    },
  },

  scoreCreate: { projects: v2Projects, handler: (req, { store, user }) => createScore(store, writer(req, user), req) },
  scoreList: {
    projects: v2Projects,
    handler: (req, { store }) =>
      listScores(store, { projectId: v2ProjectId(req), runId: req.evaluation_run_id, limit: req.limit, offset: req.offset }),
  },
  scoreRead: { projects: v2Projects, handler: (req, { store }) => readScore(store, v2ProjectId(req), req.score_id) },
  scoreDelete: {
    projects: v2Projects,
    handler: async (req, { store }) => ({ num_deleted: await deleteScores(store, v2ProjectId(req), req.score_ids) }),
  },
});
