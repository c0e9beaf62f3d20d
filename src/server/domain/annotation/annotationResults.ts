/**
 * What a queue produced, read for the people running it: every item with every reviewer's
 * state and current answers (results), progress per reviewer and answer distributions per
 * question (summary), and the full answer history of one item. Built from three reads of the
 * queue (items, progress records, answers); a queue of 10,000 items with a few reviewers is a
 * few megabytes, so aggregating here keeps the SQL plain and the store seam small.
 */
import type { z } from 'zod';
import type {
  AnnotationItemHistoryRes,
  AnnotationQueueResultRow,
  AnnotationQueueSummaryRes,
  AnnotationReviewSchema,
} from '../../../contract/annotationQueueLeads.js';
import { reviewProgress, type ReviewProgress } from '../../../contract/annotationQueueLeads.js';
import type { AnnotationState } from '../../../contract/annotationQueues.js';
import type { JsonValue } from '../../../contract/common.js';
import type { QueueAnswerRecord, QueueItemRecord, QueueRecord } from '../../store/AnnotationQueuesStore.js';
import type { Store } from '../../store/Store.js';
import { toItemSchema } from './annotationQueues.js';
import { itemNotFound } from './annotationSubmit.js';
import { callRef } from '../calls/callExtras.js';
import { formatMicros } from '../../core/datetime.js';
import { cohenKappa, krippendorffAlpha, labelOf } from '../feedback/agreement.js';

/** Distinct values listed per question; the long tail is summed into nothing (counts stay exact). */
const MAX_COUNTS = 50;

/** The value an answer row holds (`payload.value`), or null when the payload is not one. */
const answerValue = (a: QueueAnswerRecord): JsonValue => {
  const payload = JSON.parse(a.payloadJson) as { value?: JsonValue } | null;
  return payload && typeof payload === 'object' && 'value' in payload ? (payload.value ?? null) : null;
};

const callIdOf = (weaveRef: string) => weaveRef.slice(weaveRef.lastIndexOf('/') + 1);

/** Everything results and summary need, read once. */
async function readQueueWork(store: Store, queue: QueueRecord) {
  const key = { projectId: queue.projectId, queueId: queue.id };
  const items = (await store.annotationQueues.queryItems({ ...key, sortBy: [], includePosition: true })) ?? [];
  const progress = (await store.annotationQueues.queueProgress(key)) ?? [];
  const answers = await store.annotationQueues.queueAnswers(key);
  return { items, progress, answers };
}

/** Reviews per item id: one per annotator with a progress record, answers by spec ref. */
function reviewsByItem(
  items: QueueItemRecord[],
  progress: { itemId: string; annotator: string; state: AnnotationReviewSchema['annotation_state']; updatedAt: number }[],
  answers: QueueAnswerRecord[],
): Map<string, AnnotationReviewSchema[]> {
  const itemOfCall = new Map(items.map((i) => [i.callId, i.id]));
  const byKey = new Map<string, AnnotationReviewSchema>();
  const out = new Map<string, AnnotationReviewSchema[]>();
  for (const p of progress) {
    const review: AnnotationReviewSchema = {
      annotator: p.annotator,
      annotation_state: p.state,
      updated_at: formatMicros(p.updatedAt),
      answers: {},
    };
    byKey.set(`${p.itemId}\n${p.annotator}`, review);
    out.set(p.itemId, [...(out.get(p.itemId) ?? []), review]);
  }
  for (const a of answers) {
    const itemId = itemOfCall.get(callIdOf(a.weaveRef));
    const review = itemId && byKey.get(`${itemId}\n${a.annotator}`);
    // Answers written outside the submit (a plain feedback create naming the queue) have no
    // progress record; they are not part of anyone's review of the item.
    if (review && a.annotationRef) review.answers[a.annotationRef] = answerValue(a);
  }
  return out;
}

/** Items in queue order with their reviews; filtered by aggregated state, then paged. */
export async function queueResults(
  store: Store,
  req: { queue: QueueRecord; states?: AnnotationState[] | null; limit?: number | null; offset?: number | null },
): Promise<{ rows: AnnotationQueueResultRow[]; total: number }> {
  const { items, progress, answers } = await readQueueWork(store, req.queue);
  const reviews = reviewsByItem(items, progress, answers);
  const wanted = req.states?.length ? items.filter((i) => req.states!.includes(i.annotationState)) : items;
  const offset = req.offset ?? 0;
  const page = wanted.slice(offset, req.limit == null ? undefined : offset + req.limit);
  return { rows: page.map((i) => ({ item: toItemSchema(i), reviews: reviews.get(i.id) ?? [] })), total: wanted.length };
}

type Summary = z.infer<typeof AnnotationQueueSummaryRes>;

/** Progress per reviewer, items per state, and per question the answer distribution and agreement. */
export async function queueSummary(store: Store, queue: QueueRecord, now: number): Promise<Summary> {
  const { items, progress, answers } = await readQueueWork(store, queue);
  const reservations = await store.annotationQueues.queueReservations({ projectId: queue.projectId, queueId: queue.id, now });
  const itemsByState: Record<AnnotationState, number> = { unstarted: 0, in_progress: 0, completed: 0, skipped: 0 };
  for (const i of items) itemsByState[i.annotationState] += 1;
  const itemsByProgress: Record<ReviewProgress, number> = { reviewed: 0, partly_reviewed: 0, in_progress: 0, skipped: 0, unstarted: 0 };
  for (const i of items) {
    itemsByProgress[
      reviewProgress({ annotation_state: i.annotationState, completed_reviews: i.completedReviews }, queue.reviewersPerItem)
    ] += 1;
  }

  const reviewers = new Map<string, Summary['reviewers'][number]>();
  const reviewer = (annotator: string) => {
    let r = reviewers.get(annotator);
    if (!r) reviewers.set(annotator, (r = { annotator, completed: 0, skipped: 0, in_progress: 0, reserved: 0 }));
    return r;
  };
  for (const p of progress) reviewer(p.annotator)[p.state] += 1;
  for (const r of reservations) reviewer(r.annotator).reserved += 1;

  const reviews = reviewsByItem(items, progress, answers);
  return {
    total_items: items.length,
    reviewers_per_item: queue.reviewersPerItem,
    fully_reviewed_items: itemsByProgress.reviewed,
    items_by_state: itemsByState,
    items_by_progress: itemsByProgress,
    reviewers: [...reviewers.values()].sort((a, b) => b.completed - a.completed || a.annotator.localeCompare(b.annotator)),
    questions: queue.scorerRefs.map((ref) => questionSummary(ref, [...reviews.values()])),
  };
}

/** One question's distribution over the current answers, and how often reviewers agree. */
function questionSummary(ref: string, reviewsPerItem: AnnotationReviewSchema[][]): Summary['questions'][number] {
  const counts = new Map<string, { value: JsonValue; count: number }>();
  const numbers: number[] = [];
  let answered = 0;
  let comparable = 0;
  let agreeing = 0;
  // Chance-corrected agreement: α over every item's answers; κ when exactly two people answered.
  const units: string[][] = [];
  const byAnnotator: Map<string, string>[] = [];
  const annotators = new Set<string>();
  for (const reviews of reviewsPerItem) {
    const answering = reviews.filter((r) => Object.hasOwn(r.answers, ref));
    const values = answering.map((r) => r.answers[ref]!);
    answered += values.length;
    units.push(values.map(labelOf));
    byAnnotator.push(new Map(answering.map((r) => [r.annotator, labelOf(r.answers[ref])])));
    for (const r of answering) annotators.add(r.annotator);
    for (const v of values) {
      if (typeof v === 'number') numbers.push(v);
      // Free text is almost always distinct: counting it would only list every answer once.
      if (typeof v === 'string' && v.length > 40) continue;
      const key = JSON.stringify(v);
      counts.set(key, { value: v, count: (counts.get(key)?.count ?? 0) + 1 });
    }
    if (values.length >= 2) {
      comparable += 1;
      if (values.every((v) => JSON.stringify(v) === JSON.stringify(values[0]))) agreeing += 1;
    }
  }
  const sorted = [...counts.values()].sort((a, b) => b.count - a.count || JSON.stringify(a.value).localeCompare(JSON.stringify(b.value)));
  return {
    annotation_ref: ref,
    answered,
    counts: sorted.slice(0, MAX_COUNTS),
    mean: numbers.length ? numbers.reduce((s, n) => s + n, 0) / numbers.length : null,
    min: numbers.length ? Math.min(...numbers) : null,
    max: numbers.length ? Math.max(...numbers) : null,
    agreement: comparable ? agreeing / comparable : null,
    kappa: annotators.size === 2 ? cohenKappa(pairsOf([...annotators] as [string, string], byAnnotator)) : null,
    alpha: krippendorffAlpha(units),
  };
}

/** The two annotators' labels on the items both answered. */
function pairsOf([a, b]: [string, string], byAnnotator: Map<string, string>[]): [string, string][] {
  return byAnnotator.filter((m) => m.has(a) && m.has(b)).map((m) => [m.get(a)!, m.get(b)!]);
}

/** Every answer on one item, current and superseded, oldest first; 404 for an unknown item. */
export async function itemHistory(
  store: Store,
  req: { queue: QueueRecord; itemId: string },
): Promise<z.infer<typeof AnnotationItemHistoryRes>> {
  const [item] =
    (await store.annotationQueues.queryItems({
      projectId: req.queue.projectId,
      queueId: req.queue.id,
      filter: { id: req.itemId },
      sortBy: [],
      includePosition: false,
    })) ?? [];
  if (!item) throw itemNotFound(req.itemId, req.queue.id);
  const rows = await store.annotationQueues.queueAnswers({
    projectId: req.queue.projectId,
    queueId: req.queue.id,
    weaveRef: callRef(req.queue.projectId, item.callId),
    withSuperseded: true,
  });
  return {
    entries: rows.map((a) => ({
      feedback_id: a.id,
      annotator: a.annotator,
      annotation_ref: a.annotationRef ?? '',
      value: answerValue(a),
      created_at: formatMicros(a.createdAt),
      superseded_at: a.supersededAt === null ? null : formatMicros(a.supersededAt),
    })),
  };
}
