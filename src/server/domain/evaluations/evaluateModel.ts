/**
 * `/evaluations/evaluate_model` (docs/api/evaluations.md §3; the reference's
 * evaluate_model_worker.py): load the Evaluation (its scorers must be LLMAsAJudgeScorers) and
 * the LLMStructuredCompletionModel, answer the root call id at once, and run the evaluation in
 * a background job that writes the call tree an SDK evaluation writes:
 *
 *   Evaluation.evaluate (id = the answered call_id; inputs {self, model})
 *   └ Evaluation.predict_and_score, per dataset row and trial (inputs {self, model, example})
 *     ├ LLMStructuredCompletionModel.predict (the row's fields as template vars)
 *     └ LLMAsAJudgeScorer.score, per scorer
 *   └ Evaluation.summarize
 *
 * Decisions: the refs are checked before anything is queued (a wrong ref or a model no
 * provider serves is a 400 at once, where the reference fails later in its worker); the root
 * carries the reference worker's marker `attributes._weave_eval_meta.evaluate_model_worker`;
 * a resumed job (after a restart) keeps the rows already finished, drops the half-done ones and
 * runs the rest; an evaluation whose every prediction failed ends failed with the first error.
 * Its size (trials, scorers, rows × trials × (1 + scorers) model requests) is held to the job
 * limits before it is queued and again when it runs, and its trials are walked one at a time,
 * never listed (docs/security/bounded-work.md).
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { JobContext } from '../../jobs/JobRunner.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import { NoProviderError } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import { BadRequestError } from '../../errors.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { checkModelCalls } from './jobBounds.js';
import { childrenOf, isPredictAndScore } from './evaluationCalls.js';
import { summarizeRun, type RowResult } from './evaluationSummary.js';
import { uuidv7 } from '../../core/ids.js';
import { loadEvaluation, loadStructuredModel, type LoadedEvaluation, type StructuredModel } from '../llm/llmObjects.js';
import { addUsage, CallWriter, ensureOps, runJudge, runPredict, type ModelRunDeps, type RunContext, type UsageMap } from '../llm/llmRun.js';
import { weftMade } from '../calls/weftMade.js';

export const EVALUATE_MODEL_JOB = 'evaluate_model';
const ROW_CONCURRENCY = 4;

export interface EvaluateModelPayload {
  evaluation_ref: string;
  model_ref: string;
  call_id: string;
  /** Rescoring: the run whose predictions are scored again instead of predicting. */
  source_evaluation_run_id?: string;
  scorer_refs?: string[];
}

/** 400 unless the model's provider can be found. */
export async function checkModelServed(registry: ProviderRegistry, projectId: string, model: StructuredModel, what: string) {
  try {
    await registry.resolve(projectId, model.llmModelId);
  } catch (err) {
    if (err instanceof NoProviderError) throw new BadRequestError(`${what} uses ${model.llmModelId}: ${err.message}`);
    throw err;
  }
}

/** The job handlers' dependencies: model runs, and the limits a job is held to when it runs. */
export type JobDeps = ModelRunDeps & { limits?: Limits };

/** 400 when running the evaluation over `rows` dataset rows would pass `maxJobModelCalls`. */
function checkEvaluationSize(evaluation: LoadedEvaluation, rows: number, limits: Limits): void {
  const perTrial = 1 + evaluation.scorers.length;
  checkModelCalls(
    rows * evaluation.trials * perTrial,
    `${rows} rows × ${evaluation.trials} trials × (1 prediction + ${evaluation.scorers.length} scorers)`,
    limits,
  );
}

/** Validates the request and queues the job; answers the root call id. */
export async function startEvaluateModel(
  deps: {
    store: Store;
    registry: ProviderRegistry;
    limits?: Limits;
    enqueue: (job: { projectId: string; kind: string; payload: Record<string, unknown>; createdBy: string }) => Promise<string>;
  },
  req: { projectId: string; userId: string; evaluationRef: string; modelRef: string },
): Promise<{ call_id: string }> {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const evaluation = await loadEvaluation(deps.store, req.projectId, req.evaluationRef, limits);
  const [stats] = await deps.store.tables.tableStats({
    projectId: req.projectId,
    digests: [evaluation.tableDigest],
    includeStorageSize: false,
  });
  checkEvaluationSize(evaluation, stats?.count ?? 0, limits);
  const model = await loadStructuredModel(deps.store, req.projectId, req.modelRef);
  await checkModelServed(deps.registry, req.projectId, model, 'The model');
  for (const s of evaluation.scorers) await checkModelServed(deps.registry, req.projectId, s.model, `Scorer ${s.name}`);
  const callId = uuidv7();
  const payload: EvaluateModelPayload = { evaluation_ref: req.evaluationRef, model_ref: req.modelRef, call_id: callId };
  await deps.enqueue({ projectId: req.projectId, kind: EVALUATE_MODEL_JOB, payload: { ...payload }, createdBy: req.userId });
  return { call_id: callId };
}

interface Example {
  ref: string;
  row: Record<string, unknown>;
  digest: string;
}

async function readExamples(store: Store, projectId: string, evaluation: LoadedEvaluation): Promise<Example[]> {
  const out: Example[] = [];
  for await (const r of store.tables.queryRows({ projectId, digest: evaluation.tableDigest })) {
    const row = JSON.parse(r.valJson);
    out.push({
      ref: `${evaluation.tableRef}/id/${r.digest}`,
      row: row && typeof row === 'object' && !Array.isArray(row) ? row : { input: row },
      digest: r.digest,
    });
  }
  return out;
}

/** Runs `work` over what `items` yields, at most `limit` at a time, stopping early when `signal` aborts. */
async function pool<T>(items: Iterator<T>, limit: number, signal: AbortSignal, work: (item: T) => Promise<void>): Promise<void> {
  const worker = async () => {
    for (let next = items.next(); !next.done && !signal.aborted; next = items.next()) await work(next.value);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** Each example `trials` times, in dataset order, less the trials `done` counts as finished; never listed whole. */
function* pendingTrials(examples: Example[], trials: number, done: Map<string, number>): Generator<Example> {
  for (const example of examples) {
    let finished = done.get(example.digest) ?? 0;
    for (let t = 0; t < trials; t++) {
      if (finished > 0) finished--;
      else yield example;
    }
  }
}

/** The job: runs (or resumes) one evaluation. */
export async function runEvaluateModelJob(
  deps: JobDeps,
  job: { projectId: string; createdBy: string; payload: Record<string, unknown> },
  ctx: JobContext,
): Promise<unknown> {
  const payload = job.payload as unknown as EvaluateModelPayload;
  const { store } = deps;
  const projectId = job.projectId;
  const writer = new CallWriter(deps, projectId, job.createdBy, weftMade('evaluate_model'));
  const rootId = payload.call_id;

  const existing = await store.calls.readCall({ projectId, id: rootId });
  if (existing?.ended_at) return { call_id: rootId, resumed: true };

  let evaluation: LoadedEvaluation;
  let model: StructuredModel;
  const ops = await ensureOps(deps, projectId, job.createdBy, [
    'Evaluation.evaluate',
    'Evaluation.predict_and_score',
    'Evaluation.summarize',
    'LLMStructuredCompletionModel.predict',
    'LLMAsAJudgeScorer.score',
  ]);
  if (!existing) {
    await writer.start({
      id: rootId,
      traceId: rootId,
      parentId: null,
      opName: ops['Evaluation.evaluate']!,
      inputs: { self: payload.evaluation_ref, model: payload.model_ref },
      attributes: { _weave_eval_meta: { evaluate_model_worker: true } },
    });
  }
  try {
    // Held to the limits again: a job queued before they existed (or were lowered) fails here
    // with the reason rather than running, or exhausting the process, again at every start.
    const limits = deps.limits ?? DEFAULT_LIMITS;
    evaluation = await loadEvaluation(store, projectId, payload.evaluation_ref, limits);
    const [stats] = await store.tables.tableStats({ projectId, digests: [evaluation.tableDigest], includeStorageSize: false });
    checkEvaluationSize(evaluation, stats?.count ?? 0, limits);
    model = await loadStructuredModel(store, projectId, payload.model_ref);
  } catch (err) {
    await writer.end({ id: rootId, output: null, exception: (err as Error).message });
    throw err;
  }
  const run: RunContext = { writer, registry: deps.registry, ops, signal: ctx.signal };
  const examples = await readExamples(store, projectId, evaluation);
  const total = examples.length * evaluation.trials;

  // Resume: keep finished rows, drop the ones a lost process left half-done.
  const results: RowResult[] = [];
  const usage: UsageMap = {};
  const done = new Map<string, number>();
  if (existing) {
    const rows = ((await childrenOf(store, projectId, [rootId])).get(rootId) ?? []).filter(isPredictAndScore);
    const open = rows.filter((r) => !r.ended_at);
    if (open.length) await store.calls.deleteCalls({ projectId, ids: open.map((r) => r.id), deletedAt: deps.clock.nowMicros() });
    for (const r of rows.filter((r) => r.ended_at)) {
      results.push(r.output as RowResult);
      addUsage(usage, (r.summary?.usage ?? {}) as UsageMap);
      const digest = exampleDigest(r);
      if (digest) done.set(digest, (done.get(digest) ?? 0) + 1);
    }
  }
  await ctx.progress(results.length, total);

  let firstError: string | null = null;
  let predictions = 0;
  let failedPredictions = 0;
  await pool(pendingTrials(examples, evaluation.trials, done), ROW_CONCURRENCY, ctx.signal, async (example) => {
    const rowUsage: UsageMap = {};
    const rowId = await writer.start({
      traceId: rootId,
      parentId: rootId,
      opName: ops['Evaluation.predict_and_score']!,
      inputs: { self: payload.evaluation_ref, model: payload.model_ref, example: example.ref },
    });
    const predicted = await runPredict(run, {
      model,
      traceId: rootId,
      parentId: rowId,
      vars: example.row,
      attributes: { weave: { prediction: 'true' } },
    });
    addUsage(rowUsage, predicted.usage);
    predictions++;
    if (predicted.error) {
      failedPredictions++;
      firstError ??= predicted.error;
    }
    const scores: Record<string, unknown> = {};
    if (!predicted.error) {
      for (const judge of evaluation.scorers) {
        if (ctx.signal.aborted) break;
        const scored = await runJudge(run, {
          judge,
          traceId: rootId,
          parentId: rowId,
          output: predicted.output,
          row: example.row,
          attributes: { weave: { score: 'true', scorer: judge.ref } },
        });
        addUsage(rowUsage, scored.usage);
        if (!scored.error) scores[judge.name] = scored.output;
      }
    }
    // Stopped mid-row: leave the row open; a resumed run drops it and does it again.
    if (ctx.signal.aborted) return;
    const output: RowResult = { output: predicted.output, scores, model_latency: { mean: predicted.latencySeconds } } as RowResult;
    await writer.end({ id: rowId, output, usage: rowUsage });
    addUsage(usage, rowUsage);
    results.push(output);
    await ctx.progress(results.length, total);
  });

  if (ctx.signal.aborted) {
    if (ctx.signal.reason === 'cancelled') await writer.end({ id: rootId, output: null, usage, exception: 'Cancelled' });
    throw new Error('Evaluation stopped');
  }
  const summary = summarizeRun(results.filter((r) => r && typeof r === 'object'));
  const summarizeId = await writer.start({
    traceId: rootId,
    parentId: rootId,
    opName: ops['Evaluation.summarize']!,
    inputs: { self: payload.evaluation_ref },
  });
  await writer.end({ id: summarizeId, output: summary });
  const allFailed = predictions > 0 && failedPredictions === predictions;
  await writer.end({ id: rootId, output: summary, usage, exception: allFailed ? `Every prediction failed: ${firstError}` : null });
  if (allFailed) throw new Error(`Every prediction failed: ${firstError}`);
  return { call_id: rootId, rows: results.length };
}

/** The dataset-row digest of a predict_and_score call's example ref. */
function exampleDigest(call: CallSchema): string | null {
  const example = call.inputs?.example;
  return typeof example === 'string' ? (/\/id\/([^/]+)$/.exec(example)?.[1] ?? null) : null;
}
