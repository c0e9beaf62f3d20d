/**
 * Weft's additions to annotation queues, for the people who run them and the people who
 * review: fetch-next with reservations, whole conversations as items, a queue's results
 * (every item with every reviewer's answers), its summary (progress per reviewer, answer
 * distributions per question), an item's answer history, export and "save as dataset".
 * The Weave clients know none of these; the reference shapes in annotationQueues.ts are
 * unchanged apart from optional extra fields.
 */
import { z } from 'zod';
import { JsonValue, Limit, Offset, ProjectId } from './common.js';
import { AnnotationQueueItemSchema, AnnotationState } from './annotationQueues.js';

const QueuePath = { project_id: ProjectId, queue_id: z.string().min(1) };

// POST /annotation_queues/:queue_id/items/next
export const AnnotationQueueNextItemReq = z.object({
  ...QueuePath,
  reservation_seconds: z
    .number()
    .int()
    .min(10)
    .max(86_400)
    .nullish()
    .describe('How long the item stays reserved for the caller; default 900 (15 minutes)'),
  after_item_id: z
    .string()
    .nullish()
    .describe('Offer an item after this one in queue order first (wrapping), e.g. to move past an item the caller left open'),
});
export const AnnotationQueueNextItemRes = z.object({
  item: AnnotationQueueItemSchema.nullable().describe('The item now reserved for the caller; null when nothing is left for them'),
  reserved_until: z.string().nullable(),
  available: z.number().int().describe('Items the caller could still be given, this one included'),
});

// POST /annotation_queues/:queue_id/threads
export const AnnotationQueueAddThreadsReq = z.object({
  ...QueuePath,
  thread_ids: z.array(z.string().min(1)).min(1),
  display_fields: z.array(z.string()).nullish(),
});
export const AnnotationQueueAddThreadsRes = z.object({
  added_count: z.number().int().describe('Threads found and added'),
  duplicates: z.number().int().describe('Threads (or their first turn) already in the queue; unknown threads count in neither'),
});

/** One reviewer's current work on an item. */
export const AnnotationReviewSchema = z.object({
  annotator: z.string(),
  annotation_state: AnnotationState.exclude(['unstarted']),
  updated_at: z.string(),
  answers: z.record(z.string(), JsonValue).describe('Current answer per AnnotationSpec ref'),
});
export type AnnotationReviewSchema = z.infer<typeof AnnotationReviewSchema>;

// POST /annotation_queues/:queue_id/results
export const AnnotationQueueResultsReq = z.object({
  ...QueuePath,
  annotation_states: z.array(AnnotationState).nullish().describe('Only items in these aggregated states'),
  limit: Limit,
  offset: Offset,
});
export const AnnotationQueueResultRow = z.object({ item: AnnotationQueueItemSchema, reviews: z.array(AnnotationReviewSchema) });
export type AnnotationQueueResultRow = z.infer<typeof AnnotationQueueResultRow>;
export const AnnotationQueueResultsRes = z.object({ rows: z.array(AnnotationQueueResultRow), total: z.number().int() });

/**
 * An item's review progress, the one definition the server's counts and the dashboard share: it
 * is `reviewed` once `reviewers_per_item` reviewers completed it (when fetch-next stops offering
 * it), `partly_reviewed` while some but fewer did, else its aggregated state. Skips never count
 * towards it (docs/api/evaluations.md §1).
 */
export const ReviewProgress = z.enum(['reviewed', 'partly_reviewed', 'in_progress', 'skipped', 'unstarted']);
export type ReviewProgress = z.infer<typeof ReviewProgress>;

/** The review progress of an item with `completedReviews` completed reviews in a queue wanting `reviewersPerItem`. */
export function reviewProgress(
  item: { annotation_state: AnnotationState; completed_reviews: number },
  reviewersPerItem: number,
): ReviewProgress {
  if (item.completed_reviews >= reviewersPerItem) return 'reviewed';
  if (item.completed_reviews > 0 || item.annotation_state === 'completed') return 'partly_reviewed';
  return item.annotation_state;
}

// POST /annotation_queues/:queue_id/summary
export const AnnotationQueueSummaryReq = z.object(QueuePath);
export const AnnotationReviewerProgress = z.object({
  annotator: z.string(),
  completed: z.number().int(),
  skipped: z.number().int(),
  in_progress: z.number().int(),
  reserved: z.number().int().describe('Items the reviewer holds an unexpired reservation on'),
});
export const AnnotationAnswerCount = z.object({ value: JsonValue, count: z.number().int() });
export const AnnotationQuestionSummary = z.object({
  annotation_ref: z.string(),
  answered: z.number().int().describe('Current answers, over every reviewer'),
  counts: z.array(AnnotationAnswerCount).describe('Distinct values, most frequent first (at most 50; text answers are not counted)'),
  mean: z.number().nullable().describe('For numeric answers'),
  min: z.number().nullable(),
  max: z.number().nullable(),
  agreement: z.number().nullable().describe('Share of items with two or more answers where every answer agrees; null when no item has two'),
  kappa: z
    .number()
    .nullable()
    .describe("Weft: Cohen's κ between the two reviewers, on items both answered; null unless exactly two answered"),
  alpha: z.number().nullable().describe("Weft: Krippendorff's α (nominal) over every item's answers; null when undefined"),
});
export const AnnotationQueueSummaryRes = z.object({
  total_items: z.number().int(),
  reviewers_per_item: z.number().int(),
  fully_reviewed_items: z.number().int().describe('Items with at least reviewers_per_item completed reviews'),
  items_by_state: z.record(AnnotationState, z.number().int()).describe("Items per aggregated state (the latest reviewer's state)"),
  items_by_progress: z
    .record(ReviewProgress, z.number().int())
    .describe('Weft: items per review progress (reviewProgress); items_by_progress.reviewed is fully_reviewed_items'),
  reviewers: z.array(AnnotationReviewerProgress),
  questions: z.array(AnnotationQuestionSummary),
});

// POST /annotation_queues/:queue_id/items/:item_id/history
export const AnnotationItemHistoryReq = z.object({ ...QueuePath, item_id: z.string().min(1) });
export const AnnotationHistoryEntry = z.object({
  feedback_id: z.string(),
  annotator: z.string(),
  annotation_ref: z.string(),
  value: JsonValue,
  created_at: z.string(),
  superseded_at: z.string().nullable().describe('null: the current answer'),
});
export const AnnotationItemHistoryRes = z.object({ entries: z.array(AnnotationHistoryEntry).describe('Oldest first') });

// POST /annotation_queues/:queue_id/export
export const AnnotationQueueExportReq = z.object({
  ...QueuePath,
  format: z.enum(['jsonl', 'csv']).default('jsonl'),
});
/** JSON lines: one object per (item, reviewer) with the call's inputs and output; CSV: the same, flattened. */
export const AnnotationQueueExportRes = z.string();

// POST /annotation_queues/:queue_id/dataset
export const AnnotationQueueDatasetReq = z.object({
  ...QueuePath,
  name: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w.-]+$/, 'letters, digits, _, - and . only'),
  description: z.string().nullish(),
  include_skipped: z.boolean().nullish().describe('Keep items nobody answered; default false'),
});
export const AnnotationQueueDatasetRes = z.object({
  ref: z.string().describe('weave:/// ref of the new Dataset version'),
  digest: z.string(),
  row_count: z.number().int(),
});
