/**
 * `/calls/score` (docs/api/clients.md §5): a background job applies every scorer (LLMAsAJudgeScorer)
 * to every call and stores each result as runnable feedback on the call, as the reference's
 * scoring worker does: `feedback_type` `wandb.runnable.<scorer name>`, `runnable_ref` the scorer,
 * `call_ref` the scorer's own call, payload `{output}`. The scorer call (with its model and
 * completion calls under it) is a trace of its own, its inputs `{self, output: <call output>,
 * ...<call inputs>}` so the scoring prompt can use `{output}` and any input by name.
 *
 * Decisions: refs and providers are checked before anything is queued (400 at once); calls that
 * do not exist or have not ended are skipped (counted in the job result); a resumed job skips
 * the pairs that already have this scorer's feedback from this job.
 */
import type { JobContext } from '../../jobs/JobRunner.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { checkModelServed, type JobDeps } from '../evaluations/evaluateModel.js';
import { checkModelCalls, checkScorerCount, uniqueRefs } from '../evaluations/jobBounds.js';
import { toFeedbackWrite } from '../feedback/feedback.js';
import { uuidv7 } from '../../core/ids.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { loadJudge, type JudgeScorer } from '../llm/llmObjects.js';
import { CallWriter, ensureOps, runJudge, type ModelRunDeps } from '../llm/llmRun.js';
import { weftMade } from './weftMade.js';

export const CALLS_SCORE_JOB = 'calls_score';
/** The attributes that mark calls written by server-side scoring, so monitors never score them (domain/llm/monitors.ts). */
export const SCORER_SOURCE_ATTRIBUTES = weftMade('scorer');

export async function startCallsScore(
  deps: {
    store: Store;
    registry: ProviderRegistry;
    limits?: Limits;
    enqueue: (job: { projectId: string; kind: string; payload: Record<string, unknown>; createdBy: string }) => Promise<string>;
  },
  req: { projectId: string; userId: string; callIds: string[]; scorerRefs: string[]; source?: string },
): Promise<string> {
  // Each call and scorer once: repeats would only score the same pair again.
  const callIds = uniqueRefs(req.callIds);
  const scorerRefs = uniqueRefs(req.scorerRefs);
  checkScorerCount(scorerRefs.length, deps.limits);
  checkModelCalls(callIds.length * scorerRefs.length, `${callIds.length} calls × ${scorerRefs.length} scorers`, deps.limits);
  for (const ref of scorerRefs) {
    const judge = await loadJudge(deps.store, req.projectId, ref);
    await checkModelServed(deps.registry, req.projectId, judge.model, `Scorer ${judge.name}`);
  }
  return deps.enqueue({
    projectId: req.projectId,
    kind: CALLS_SCORE_JOB,
    payload: { call_ids: callIds, scorer_refs: scorerRefs, ...(req.source ? { source: req.source } : {}) },
    createdBy: req.userId,
  });
}

const callRef = (projectId: string, id: string) => `weave:///${projectId}/call/${id}`;

/** Applies one judge to one stored call and stores the feedback; answers whether it was scored. */
export async function scoreCall(
  deps: ModelRunDeps,
  req: {
    projectId: string;
    userId: string;
    callId: string;
    judge: JudgeScorer;
    ops: Record<string, string>;
    signal?: AbortSignal;
    jobId?: string;
    /** The monitor that asked for this score (feedback `trigger_ref`), if any. */
    triggerRef?: string | null;
  },
): Promise<'scored' | 'skipped' | 'failed'> {
  const call = await deps.store.calls.readCall({ projectId: req.projectId, id: req.callId });
  if (!call || !call.ended_at) return 'skipped';
  const writer = new CallWriter(deps, req.projectId, req.userId, SCORER_SOURCE_ATTRIBUTES);
  const traceId = uuidv7();
  const inputs = call.inputs && typeof call.inputs === 'object' ? (call.inputs as Record<string, unknown>) : {};
  const scored = await runJudge(
    { writer, registry: deps.registry, ops: req.ops, signal: req.signal },
    { judge: req.judge, traceId, parentId: null, output: call.output ?? null, row: inputs },
  );
  if (scored.error) return 'failed';
  const feedback = toFeedbackWrite(
    {
      project_id: req.projectId,
      weave_ref: callRef(req.projectId, req.callId),
      feedback_type: `wandb.runnable.${req.judge.name}`,
      payload: { output: scored.output as Record<string, unknown> },
      runnable_ref: req.judge.ref,
      call_ref: callRef(req.projectId, scored.callId),
      trigger_ref: req.triggerRef ?? null,
      annotation_ref: null,
      creator: req.jobId ? `job:${req.jobId}` : null,
    },
    req.userId,
    deps.clock.nowMicros(),
  );
  await deps.store.feedback.createFeedback([feedback]);
  return 'scored';
}

/**
 * "Try on a call": one judge, saved or still being edited, applied to one ended call as a
 * scoring job would, its calls written (marked as the scorer's) but no feedback stored.
 */
export async function tryJudge(
  deps: ModelRunDeps,
  req: { projectId: string; userId: string; callId: string; judge: JudgeScorer },
): Promise<{ output: unknown; error: string | null; scorer_call_id: string; latency_seconds: number }> {
  const call = await deps.store.calls.readCall({ projectId: req.projectId, id: req.callId });
  if (!call) throw new NotFoundError(`No call ${req.callId} in ${req.projectId}`);
  if (!call.ended_at) throw new BadRequestError(`Call ${req.callId} has not ended yet: a judge scores a call's output`);
  await checkModelServed(deps.registry, req.projectId, req.judge.model, `Scorer ${req.judge.name}`);
  const ops = await ensureOps(deps, req.projectId, req.userId, ['LLMStructuredCompletionModel.predict', 'LLMAsAJudgeScorer.score']);
  const writer = new CallWriter(deps, req.projectId, req.userId, SCORER_SOURCE_ATTRIBUTES);
  const inputs = call.inputs && typeof call.inputs === 'object' ? (call.inputs as Record<string, unknown>) : {};
  const scored = await runJudge(
    { writer, registry: deps.registry, ops },
    { judge: req.judge, traceId: uuidv7(), parentId: null, output: call.output ?? null, row: inputs },
  );
  return { output: scored.output, error: scored.error, scorer_call_id: scored.callId, latency_seconds: scored.latencySeconds };
}

export async function runCallsScoreJob(
  deps: JobDeps,
  job: { id: string; projectId: string; createdBy: string; payload: Record<string, unknown> },
  ctx: JobContext,
): Promise<unknown> {
  // Bounded again here: monitors queue these jobs from a stored Monitor, with no request to refuse.
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const callIds = uniqueRefs(job.payload.call_ids as string[]);
  const scorerRefs = uniqueRefs(job.payload.scorer_refs as string[]);
  checkScorerCount(scorerRefs.length, limits);
  checkModelCalls(callIds.length * scorerRefs.length, `${callIds.length} calls × ${scorerRefs.length} scorers`, limits);
  const judges: JudgeScorer[] = [];
  for (const ref of scorerRefs) {
    const judge = await loadJudge(deps.store, job.projectId, ref);
    // Checked again here: monitors queue jobs without a request to refuse, and a provider can
    // go away between queueing and running; the job fails saying what to configure.
    await checkModelServed(deps.registry, job.projectId, judge.model, `Scorer ${judge.name}`);
    judges.push(judge);
  }
  const triggerRef = typeof job.payload.trigger_ref === 'string' ? job.payload.trigger_ref : null;
  const ops = await ensureOps(deps, job.projectId, job.createdBy, ['LLMStructuredCompletionModel.predict', 'LLMAsAJudgeScorer.score']);
  const total = callIds.length * judges.length;
  const counts = { scored: 0, skipped: 0, failed: 0 };
  let done = 0;
  for (const judge of judges) {
    const already = await alreadyScored(deps.store, job, judge.name);
    for (const callId of callIds) {
      if (ctx.signal.aborted) throw new Error('Scoring stopped');
      if (!already.has(callId)) {
        counts[
          await scoreCall(deps, {
            projectId: job.projectId,
            userId: job.createdBy,
            callId,
            judge,
            ops,
            signal: ctx.signal,
            jobId: job.id,
            triggerRef,
          })
        ]++;
      } else counts.scored++;
      await ctx.progress(++done, total);
    }
  }
  return counts;
}

/** Calls this job already scored with this judge (before a restart). */
async function alreadyScored(store: Store, job: { id: string; projectId: string }, name: string): Promise<Set<string>> {
  const rows = await store.feedback.queryFeedback({
    projectId: job.projectId,
    query: {
      $expr: {
        $and: [
          { $eq: [{ $getField: 'feedback_type' }, { $literal: `wandb.runnable.${name}` }] },
          { $eq: [{ $getField: 'creator' }, { $literal: `job:${job.id}` }] },
        ],
      },
    },
    fields: ['weave_ref'],
  });
  const out = new Set<string>();
  for (const r of rows as { weave_ref?: string }[]) if (r.weave_ref) out.add(r.weave_ref.slice(r.weave_ref.lastIndexOf('/') + 1));
  return out;
}
