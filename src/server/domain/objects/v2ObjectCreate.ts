/**
 * Creating the v2 object kinds (docs/api/evaluations.md §2.1), each as the SDKs would
 * publish it: source code as the file obj.py, dataset rows as a table, ops as
 * `CustomWeaveType` objects. Everything one create writes (files, table, ops, the object)
 * goes through one WritePlan, so it lands in one transaction. Creating the same content again
 * is the same version, as with `/obj/create`.
 */
import type { z } from 'zod';
import type { DatasetCreateReq, EvaluationCreateReq, ModelCreateReq, OpCreateReq, ScorerCreateReq } from '../../../contract/v2Objects.js';
import type { Store } from '../../store/Store.js';
import { requireLiveRef } from '../calls/liveRefs.js';
import { losslessAt, type LosslessValue } from './losslessJson.js';
import { formatObjectRef } from './refs.js';
import { datasetVal, evaluationVal, modelVal, objectIdFor, PLACEHOLDER_SOURCE, scorerVal } from './v2ObjectValues.js';
import { SOURCE_FILE_NAME, WritePlan, type Writer } from '../calls/writePlan.js';

/** Who creates, and the request body read losslessly (for rows and attributes). */
export interface CreateContext extends Writer {
  body: LosslessValue;
}

export interface Created {
  digest: string;
  object_id: string;
  version_index: number;
}

/** Applies the plan; the object written last is the one created, and answers for it. */
export async function applyCreated(store: Store, plan: WritePlan): Promise<Created> {
  await plan.apply(store);
  const main = plan.objects.at(-1)!;
  const record = await store.objects.readObject({
    projectId: main.projectId,
    objectId: main.objectId,
    version: { digest: main.digest },
    metadataOnly: true,
  });
  return { digest: main.digest, object_id: main.objectId, version_index: record!.versionIndex };
}

const refTo = (ctx: CreateContext, created: Created) =>
  formatObjectRef({ kind: 'object', projectId: ctx.projectId, name: created.object_id, digest: created.digest });

export async function createOp(store: Store, ctx: CreateContext, req: z.infer<typeof OpCreateReq>): Promise<Created> {
  const plan = new WritePlan(ctx);
  plan.op(objectIdFor(req.name, 'Op'), req.source_code ?? PLACEHOLDER_SOURCE.op);
  return applyCreated(store, plan);
}

export async function createDataset(store: Store, ctx: CreateContext, req: z.infer<typeof DatasetCreateReq>): Promise<Created> {
  const plan = new WritePlan(ctx);
  const objectId = objectIdFor(req.name, 'Dataset');
  const rows = losslessAt(ctx.body, ['rows']);
  const tableRef = `weave:///${ctx.projectId}/table/${plan.table(Array.isArray(rows) ? rows : [])}`;
  plan.object(objectId, datasetVal({ name: req.name ?? null, description: req.description ?? null, tableRef }));
  return applyCreated(store, plan);
}

/** A scorer object with its two ops, `<id>_score` (the given code) and `<id>_summarize`. */
export async function createScorer(store: Store, ctx: CreateContext, req: z.infer<typeof ScorerCreateReq>) {
  const plan = new WritePlan(ctx);
  const objectId = objectIdFor(req.name, 'Scorer');
  const scoreRef = plan.op(`${objectId}_score`, req.op_source_code);
  const summarizeRef = plan.op(`${objectId}_summarize`, PLACEHOLDER_SOURCE.scorerSummarize);
  plan.object(objectId, scorerVal({ name: req.name, description: req.description ?? null, scoreRef, summarizeRef }));
  const created = await applyCreated(store, plan);
  return { ...created, scorer: refTo(ctx, created) };
}

export async function createModel(store: Store, ctx: CreateContext, req: z.infer<typeof ModelCreateReq>) {
  const plan = new WritePlan(ctx);
  const objectId = objectIdFor(req.name, 'Model');
  const sourceDigest = plan.file(SOURCE_FILE_NAME, req.source_code);
  const attributes = req.attributes ? losslessAt(ctx.body, ['attributes']) : undefined;
  plan.object(objectId, modelVal({ name: req.name, description: req.description ?? null, sourceDigest, attributes }));
  const created = await applyCreated(store, plan);
  return { ...created, model_ref: refTo(ctx, created) };
}

/**
 * An evaluation object with placeholder `<id>_evaluate`, `<id>_predict_and_score` and
 * `<id>_summarize` ops. Unlike the reference, its dataset and scorers must be live refs of
 * this project (400 / 404): an evaluation of nothing cannot be run or read back.
 */
export async function createEvaluation(store: Store, ctx: CreateContext, req: z.infer<typeof EvaluationCreateReq>) {
  await requireLiveRef(store, { projectId: ctx.projectId, ref: req.dataset, field: 'dataset', kinds: ['object'] });
  const scorers = req.scorers ?? [];
  for (const ref of scorers) await requireLiveRef(store, { projectId: ctx.projectId, ref, field: 'scorers' });
  const plan = new WritePlan(ctx);
  const objectId = objectIdFor(req.name, 'Evaluation');
  const ops = {
    evaluate: plan.op(`${objectId}_evaluate`, PLACEHOLDER_SOURCE.evaluate),
    predictAndScore: plan.op(`${objectId}_predict_and_score`, PLACEHOLDER_SOURCE.predictAndScore),
    summarize: plan.op(`${objectId}_summarize`, PLACEHOLDER_SOURCE.summarize),
  };
  const val = evaluationVal({
    name: req.name,
    description: req.description ?? null,
    dataset: req.dataset,
    scorers,
    trials: req.trials ?? 1,
    evaluationName: req.evaluation_name ?? null,
    ops,
    evalAttributes: req.eval_attributes ? losslessAt(ctx.body, ['eval_attributes']) : undefined,
  });
  plan.object(objectId, val);
  const created = await applyCreated(store, plan);
  return { ...created, evaluation_ref: refTo(ctx, created) };
}
