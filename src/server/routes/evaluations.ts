/**
 * Evaluation results and orchestration: eval_results/query (under `/v2/:entity/:project`),
 * evaluation status, and the two endpoints Weft cannot serve.
 *
 * `/evaluations/evaluate_model` runs a model over a dataset in a background job and
 * `/calls/score` queues scorer runs; both need a model provider (LLM credentials, code
 * execution) and a job queue, which Weft does not have. They are in the endpoint table so
 * clients get a clear answer: 400 `{"reason": ...}` saying what is missing (the reference also
 * answers an error when no queue is configured), after the usual 422 and 403 checks.
 */
import { queryEvalResults } from '../domain/evalResults.js';
import { evaluationStatus } from '../domain/evaluationStatus.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { BadRequestError } from '../errors.js';
import { v2ProjectId, v2Projects } from './v2Objects.js';

const NO_RUNNER =
  'Weft stores and compares evaluations but does not run models or scorers: that needs a model provider and a job queue, which it does not have.';

export const evaluationRoutes = defineRoutes({
  evalResultsQuery: { projects: v2Projects, handler: (req, { store }) => queryEvalResults(store, v2ProjectId(req), req) },

  evaluationStatus: {
    handler: async (req, { store }) => ({ status: await evaluationStatus(store, { projectId: req.project_id, callId: req.call_id }) }),
  },

  evaluateModel: {
    handler: async () => {
      throw new BadRequestError(
        `${NO_RUNNER} Run the evaluation with a Weave SDK (Evaluation.evaluate) or record it through /v2/{entity}/{project}/evaluation_runs.`,
      );
    },
  },

  callsScore: {
    handler: async () => {
      throw new BadRequestError(
        `${NO_RUNNER} Score the calls with a Weave SDK, or record scores as feedback (/feedback/create) or through /v2/{entity}/{project}/scores.`,
      );
    },
  },
});
