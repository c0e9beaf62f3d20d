/**
 * `/evaluations/rescore` (newest clients' EvaluationRescoreParams / Response; the reference's
 * rescore_worker.py): score an evaluation run's predictions again with other scorers. The
 * answer names a new run at once (`call_id` = `evaluation_run_id`: in Weft a run is its root
 * `Evaluation.evaluate` call); a background job writes one `Evaluation.predict_and_score` row per
 * finished row of the source run, with the source's prediction as its output (the original
 * prediction call is kept, named by `inputs.prediction_call_id`, not re-run), the new judges'
 * score calls under it, and the summary. The new root carries
 * `attributes.weave.source_evaluation_run_id`, as runs made by `/v2/.../evaluation_runs` do.
 */
import type { JobContext } from '../../jobs/JobRunner.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { checkModelServed, type JobDeps } from './evaluateModel.js';
import { checkModelCalls, checkScorerCount, uniqueRefs } from './jobBounds.js';
import { childrenOf, isPredictAndScore, isPrediction } from './evaluationCalls.js';
import { requireRun, toRunRead } from './evaluationRuns.js';
import { summarizeRun, type RowResult } from './evaluationSummary.js';
import { uuidv7 } from '../../core/ids.js';
import { isRefString } from '../objects/refs.js';
import { readRefs } from '../objects/refsRead.js';
import { loadJudge } from '../llm/llmObjects.js';
import { addUsage, CallWriter, ensureOps, runJudge, type UsageMap } from '../llm/llmRun.js';
import { weftMade } from '../calls/weftMade.js';

export const RESCORE_JOB = 'evaluation_rescore';

export async function startRescore(
  deps: {
    store: Store;
    registry: ProviderRegistry;
    limits?: Limits;
    enqueue: (job: { projectId: string; kind: string; payload: Record<string, unknown>; createdBy: string }) => Promise<string>;
  },
  req: { projectId: string; userId: string; sourceRunId: string; scorerRefs: string[] },
): Promise<{ call_id: string; evaluation_run_id: string }> {
  await requireRun(deps.store, req.projectId, req.sourceRunId);
  // A scorer named twice scores once; the rows × scorers bound is checked when the job reads the rows.
  const scorerRefs = uniqueRefs(req.scorerRefs);
  checkScorerCount(scorerRefs.length, deps.limits);
  for (const ref of scorerRefs) {
    const judge = await loadJudge(deps.store, req.projectId, ref);
    await checkModelServed(deps.registry, req.projectId, judge.model, `Scorer ${judge.name}`);
  }
  const callId = uuidv7();
  await deps.enqueue({
    projectId: req.projectId,
    kind: RESCORE_JOB,
    payload: { source_evaluation_run_id: req.sourceRunId, scorer_refs: scorerRefs, call_id: callId },
    createdBy: req.userId,
  });
  return { call_id: callId, evaluation_run_id: callId };
}

export async function runRescoreJob(
  deps: JobDeps,
  job: { projectId: string; createdBy: string; payload: Record<string, unknown> },
  ctx: JobContext,
): Promise<unknown> {
  const { store } = deps;
  const projectId = job.projectId;
  const rootId = job.payload.call_id as string;
  const existing = await store.calls.readCall({ projectId, id: rootId });
  if (existing?.ended_at) return { call_id: rootId };
  if (existing) await store.calls.deleteCalls({ projectId, ids: [rootId], deletedAt: deps.clock.nowMicros() });
  const source = await requireRun(store, projectId, job.payload.source_evaluation_run_id as string);
  const run = toRunRead(source);
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const scorerRefs = uniqueRefs(job.payload.scorer_refs as string[]);
  checkScorerCount(scorerRefs.length, limits);
  const judges = await Promise.all(scorerRefs.map((r) => loadJudge(store, projectId, r)));
  const ops = await ensureOps(deps, projectId, job.createdBy, [
    'Evaluation.evaluate',
    'Evaluation.predict_and_score',
    'Evaluation.summarize',
    'LLMStructuredCompletionModel.predict',
    'LLMAsAJudgeScorer.score',
  ]);
  const writer = new CallWriter(deps, projectId, job.createdBy, weftMade('scorer'));
  // A resumed job starts the new run over under a fresh id: the old partial root was deleted above.
  const id = existing ? uuidv7() : rootId;
  await writer.start({
    id,
    traceId: id,
    parentId: null,
    opName: ops['Evaluation.evaluate']!,
    inputs: { self: run.evaluation, model: run.model },
    attributes: { weave: { evaluation_run: 'true', evaluation: run.evaluation, model: run.model, source_evaluation_run_id: source.id } },
  });
  const rows = ((await childrenOf(store, projectId, [source.id])).get(source.id) ?? []).filter((r) => isPredictAndScore(r) && r.ended_at);
  try {
    checkModelCalls(rows.length * judges.length, `${rows.length} rows × ${judges.length} scorers`, limits);
  } catch (err) {
    await writer.end({ id, output: null, exception: (err as Error).message });
    throw err;
  }
  const predictions = await childrenOf(
    store,
    projectId,
    rows.map((r) => r.id),
  );
  const results: RowResult[] = [];
  const usage: UsageMap = {};
  for (const row of rows) {
    if (ctx.signal.aborted) throw new Error('Rescoring stopped');
    const prev = (row.output ?? {}) as { output?: unknown; model_latency?: unknown };
    const prediction = (predictions.get(row.id) ?? []).find(isPrediction) ?? null;
    const example = row.inputs.example;
    const rowId = await writer.start({
      traceId: id,
      parentId: id,
      opName: ops['Evaluation.predict_and_score']!,
      inputs: { self: run.evaluation, model: run.model, example, prediction_call_id: prediction?.id ?? null },
    });
    const exampleRow = await exampleValue(store, example);
    const scores: Record<string, unknown> = {};
    const rowUsage: UsageMap = {};
    for (const judge of judges) {
      const scored = await runJudge(
        { writer, registry: deps.registry, ops, signal: ctx.signal },
        {
          judge,
          traceId: id,
          parentId: rowId,
          output: prev.output ?? null,
          row: exampleRow,
          attributes: { weave: { score: 'true', scorer: judge.ref } },
        },
      );
      addUsage(rowUsage, scored.usage);
      if (!scored.error) scores[judge.name] = scored.output;
    }
    const output = { output: prev.output ?? null, scores, model_latency: prev.model_latency ?? null } as RowResult;
    await writer.end({ id: rowId, output, usage: rowUsage });
    addUsage(usage, rowUsage);
    results.push(output);
    await ctx.progress(results.length, rows.length);
  }
  const summary = summarizeRun(results);
  const summarizeId = await writer.start({
    traceId: id,
    parentId: id,
    opName: ops['Evaluation.summarize']!,
    inputs: { self: run.evaluation },
  });
  await writer.end({ id: summarizeId, output: summary });
  await writer.end({ id, output: summary, usage });
  return { call_id: id, rows: results.length };
}

/** The dataset row an example stands for (a row ref is read); {} when it cannot be read. */
async function exampleValue(store: Store, example: unknown): Promise<Record<string, unknown>> {
  let value = example;
  if (isRefString(example)) {
    try {
      [value] = await readRefs(store, [example]);
    } catch {
      value = null;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
