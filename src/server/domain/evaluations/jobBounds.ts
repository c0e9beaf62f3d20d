/**
 * What one background job may cost, checked before it is queued and again when it runs (a job
 * queued by an older server, or a monitor's, had no request to refuse): the limits
 * `maxEvalTrials`, `maxJobScorers` and `maxJobModelCalls` (limits.ts). Why, and how each job
 * counts its model requests: docs/security/bounded-work.md.
 */
import { BadRequestError } from '../../errors.js';
import { DEFAULT_LIMITS, limitText, type Limits } from '../../limits.js';

/** The refs once each, first occurrence first: a scorer named twice would only score twice. */
export function uniqueRefs<T>(refs: readonly T[]): T[] {
  return [...new Set(refs)];
}

/** 400 past `maxJobScorers` (distinct scorers). */
export function checkScorerCount(count: number, limits: Limits = DEFAULT_LIMITS): void {
  if (count > limits.maxJobScorers) {
    throw new BadRequestError(`${count} distinct scorers is too many for one job; ${limitText('maxJobScorers', limits)}`);
  }
}

/** 400 past `maxEvalTrials`. */
export function checkTrials(trials: number, limits: Limits = DEFAULT_LIMITS): void {
  if (trials > limits.maxEvalTrials) {
    throw new BadRequestError(`The Evaluation asks for ${trials} trials; ${limitText('maxEvalTrials', limits)}`);
  }
}

/** 400 when a job would make more than `maxJobModelCalls` model requests; `how` says how they were counted. */
export function checkModelCalls(calls: number, how: string, limits: Limits = DEFAULT_LIMITS): void {
  if (calls > limits.maxJobModelCalls) {
    throw new BadRequestError(
      `This job would make ${calls} model requests (${how}); ${limitText('maxJobModelCalls', limits)}. Use fewer rows, trials, calls or scorers per job.`,
    );
  }
}
