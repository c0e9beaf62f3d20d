/**
 * Weft's submit of a queue item: the reviewer's answers become annotation feedback on the
 * item's call, and the item becomes completed (or skipped) for them — all or nothing.
 *
 * Each answer names one of the queue's `scorer_refs` (an AnnotationSpec object ref) and is
 * stored as the feedback the reference would store for it: type `wandb.annotation.<name>`,
 * `annotation_ref` = the spec ref, `payload = {value}`, `weave_ref` = the call's ref, plus the
 * queue id. Every answer is validated with the feedback rules (the value against the spec's
 * `field_schema`) before anything is written. Progress and feedback are then one write batch:
 * the progress write first (the store checks the state change, stated as data, against the
 * reviewer's record and refuses the whole batch when it does not apply), then the feedback, so
 * a refused submit leaves no trace. On ClickHouse two concurrent first submits by the same
 * reviewer can both pass the check (no row locks); the record converges to the later one.
 *
 * An edit (`replace: true`, a Weft extension) may follow a completion or a skip: the reviewer's
 * current answers on the item move to the superseded history (domain/annotation/annotationResults.ts
 * reads it back), the new ones take their place, and the item's state for them becomes what
 * this submit says. History lives outside the feedback table so `/feedback/query` keeps one
 * current answer per reviewer and question, as the reference's own edit (feedback/replace) does.
 */
import type { z } from 'zod';
import type { AnnotationQueueItemSubmitReq, AnnotationQueueItemSubmitRes } from '../../../contract/annotationQueues.js';
import type { FeedbackCreateReq } from '../../../contract/feedback.js';
import { BadRequestError } from '../../errors.js';
import type { QueueRecord } from '../../store/AnnotationQueuesStore.js';
import type { FeedbackWrite } from '../../store/FeedbackStore.js';
import type { Store } from '../../store/Store.js';
import { itemNotFound } from '../../store/progressChange.js';
import { readItem, replaceChange, submitChange, toItemSchema } from './annotationQueues.js';
import { callRef } from '../calls/callExtras.js';
import { metrics } from '../../metrics/hooks.js';
import { formatMicros } from '../../core/datetime.js';
import { checkAnnotationSpec, toFeedbackWrite } from '../feedback/feedback.js';
import { parseRef } from '../objects/refs.js';

type SubmitReq = z.output<typeof AnnotationQueueItemSubmitReq>;
type SubmitRes = z.output<typeof AnnotationQueueItemSubmitRes>;

export { itemNotFound };

/** The feedback request one answer stands for; 400 when its ref is not one the queue asks for. */
function answerToFeedback(req: SubmitReq, queue: QueueRecord, callId: string, answer: SubmitReq['annotations'][number]): FeedbackCreateReq {
  if (!queue.scorerRefs.includes(answer.annotation_ref)) {
    throw new BadRequestError(`annotation_ref ${answer.annotation_ref} is not one of the queue's scorer_refs`);
  }
  const ref = parseRef(answer.annotation_ref);
  if (ref.kind !== 'object')
    throw new BadRequestError(`annotation_ref ${answer.annotation_ref} must be an object ref to an AnnotationSpec`);
  return {
    project_id: req.project_id,
    weave_ref: callRef(req.project_id, callId),
    feedback_type: `wandb.annotation.${ref.name}`,
    annotation_ref: answer.annotation_ref,
    payload: { value: answer.value },
    queue_id: queue.id,
  };
}

/** Validates every answer, then records the submit atomically; answers the item and the feedback written. */
export async function submitItem(
  store: Store,
  { req, queue, annotator, now }: { req: SubmitReq; queue: QueueRecord; annotator: string; now: number },
): Promise<SubmitRes> {
  if (req.skip && req.annotations.length > 0)
    throw new BadRequestError('A skipped item takes no annotations: send skip or annotations, not both');
  const refs = req.annotations.map((a) => a.annotation_ref);
  const repeated = refs.find((ref, i) => refs.indexOf(ref) !== i);
  if (repeated) throw new BadRequestError(`annotation_ref ${repeated} is answered twice`);
  const item = await readItem(store, { projectId: req.project_id, queueId: queue.id, itemId: req.item_id });
  if (!item) throw itemNotFound(req.item_id, queue.id);

  const requests = req.annotations.map((answer) => answerToFeedback(req, queue, item.callId, answer));
  const rows: FeedbackWrite[] = requests.map((r) => toFeedbackWrite(r, annotator, now));
  for (const r of requests) await checkAnnotationSpec(store, r);

  const progress = {
    projectId: req.project_id,
    queueId: queue.id,
    itemId: req.item_id,
    annotator,
    change: (req.replace ? replaceChange : submitChange)(req.skip ? 'skipped' : 'completed'),
    supersede: req.replace ? { weaveRef: callRef(req.project_id, item.callId) } : undefined,
    now,
  };
  await store.apply([
    { kind: 'queues.progress', progress },
    { kind: 'feedback.create', rows },
  ]);
  metrics.feedbackWritten(rows.length);
  const updated = await readItem(store, { projectId: req.project_id, queueId: queue.id, itemId: req.item_id });
  if (!updated) throw itemNotFound(req.item_id, queue.id);
  return {
    item: toItemSchema(updated),
    feedback: rows.map((row) => ({
      id: row.id,
      created_at: formatMicros(row.createdAt),
      wb_user_id: row.wbUserId,
      payload: JSON.parse(row.payloadJson) as Record<string, unknown>,
    })),
  };
}
