/** The kinds of background job this server runs, each a domain function. */
import { ALERT_EVALUATE_JOB, runAlertEvaluateJob } from '../domain/alerts/alertEvaluation.js';
import { CALLS_SCORE_JOB, runCallsScoreJob } from '../domain/calls/callsScore.js';
import { EVALUATE_MODEL_JOB, runEvaluateModelJob } from '../domain/evaluations/evaluateModel.js';
import { RESCORE_JOB, runRescoreJob } from '../domain/evaluations/rescore.js';
import { systemClock } from '../core/clock.js';
import type { JobDeps } from '../domain/evaluations/evaluateModel.js';
import type { JobHandler } from './JobRunner.js';

/**
 * The handlers stamp what they write with `clock` (the services clock; the system clock when
 * absent) and hold each job to `limits` when it runs (the defaults when absent).
 */
export function createJobHandlers({
  clock = systemClock,
  ...rest
}: Omit<JobDeps, 'clock'> & { clock?: JobDeps['clock'] }): Record<string, JobHandler> {
  const deps: JobDeps = { ...rest, clock };
  return {
    [EVALUATE_MODEL_JOB]: (job, ctx) => runEvaluateModelJob(deps, job, ctx),
    [CALLS_SCORE_JOB]: (job, ctx) => runCallsScoreJob(deps, job, ctx),
    [RESCORE_JOB]: (job, ctx) => runRescoreJob(deps, job, ctx),
    [ALERT_EVALUATE_JOB]: (job, ctx) =>
      runAlertEvaluateJob({ store: deps.store, box: deps.registry.box, outbound: deps.registry.outbound }, job, ctx),
  };
}
