/** The kinds of background job this server runs, each a domain function. */
import { CALLS_SCORE_JOB, runCallsScoreJob } from '../domain/callsScore.js';
import { EVALUATE_MODEL_JOB, runEvaluateModelJob } from '../domain/evaluateModel.js';
import { RESCORE_JOB, runRescoreJob } from '../domain/rescore.js';
import type { ProviderRegistry } from '../providers/providerRegistry.js';
import type { Store } from '../store/Store.js';
import type { JobHandler } from './JobRunner.js';

export function createJobHandlers(deps: { store: Store; registry: ProviderRegistry }): Record<string, JobHandler> {
  return {
    [EVALUATE_MODEL_JOB]: (job, ctx) => runEvaluateModelJob(deps, job, ctx),
    [CALLS_SCORE_JOB]: (job, ctx) => runCallsScoreJob(deps, job, ctx),
    [RESCORE_JOB]: (job, ctx) => runRescoreJob(deps, job, ctx),
  };
}
