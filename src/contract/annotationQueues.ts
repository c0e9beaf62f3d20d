/**
 * Annotation queues: named lists of calls that reviewers work through, each reviewer keeping
 * their own progress per item. Shapes follow the Weave trace server (`AnnotationQueueCreateReq`,
 * ...); see docs/api/evaluations.md §1. The submit endpoint is Weft's own: it writes the
 * reviewer's annotations as feedback and records their progress in one step.
 */
import { z } from 'zod';
import { JsonValue, Limit, Offset, ProjectId, SortBy } from './common.js';
import { FeedbackCreateRes } from './feedback.js';

/** Aggregated state of an item: the state of its most recently updated progress record. */
export const AnnotationState = z.enum(['unstarted', 'in_progress', 'completed', 'skipped']);
export type AnnotationState = z.infer<typeof AnnotationState>;

export const AnnotationQueueSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  description: z.string(),
  scorer_refs: z.array(z.string()).describe('weave:/// refs to the AnnotationSpec objects reviewers fill in'),
  display_fields: z
    .array(z.string())
    .nullable()
    .describe('Weft: call paths reviewers see, e.g. inputs.prompt; null when none were chosen (items then use their own)'),
  reviewers_per_item: z
    .number()
    .int()
    .describe('Weft: how many reviewers should complete each item; fetch-next stops offering an item once it has that many'),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type AnnotationQueueSchema = z.infer<typeof AnnotationQueueSchema>;

export const AnnotationQueueItemSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  queue_id: z.string(),
  call_id: z.string(),
  call_started_at: z.string().describe('Copied from the call when it was added'),
  call_ended_at: z.string().nullable(),
  call_op_name: z.string(),
  call_trace_id: z.string(),
  display_fields: z.array(z.string()).describe('JSON paths shown to annotators, e.g. inputs.prompt'),
  added_by: z.string().nullable(),
  annotation_state: AnnotationState,
  annotator_user_id: z.string().nullable().describe('Owner of the most recent progress record; null while unstarted'),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  position_in_queue: z.number().int().nullable().describe('1-based, only with include_position'),
  thread_id: z
    .string()
    .nullable()
    .describe("Weft: set when the item is a whole conversation; call_id is then the thread's first turn, where answers land"),
  completed_reviews: z.number().int().describe('Weft: reviewers who completed the item (skips not counted)'),
  reserved_by: z.string().nullable().describe('Weft: the reviewer holding an unexpired reservation on the item, if any'),
});
export type AnnotationQueueItemSchema = z.infer<typeof AnnotationQueueItemSchema>;

const QueuePath = { project_id: ProjectId, queue_id: z.string().min(1) };
const QueueRes = z.object({ queue: AnnotationQueueSchema });
const wbUserId = z.string().nullish().describe('Ignored: the server sets the authenticated user');
/** A Weft extension: Weave clients neither send nor read it. */
const displayFields = z.array(z.string()).nullish();
/** A Weft extension: how many reviewers each item should get (1 to 20). */
const reviewersPerItem = z.number().int().min(1).max(20).nullish();

// POST /annotation_queues
export const AnnotationQueueCreateReq = z.object({
  project_id: ProjectId,
  name: z.string().min(1),
  scorer_refs: z.array(z.string()),
  description: z.string().nullish().describe('Default ""'),
  display_fields: displayFields.describe('Weft: call paths reviewers see; default null (none chosen)'),
  reviewers_per_item: reviewersPerItem.describe('Weft: reviewers wanted per item; default 1'),
  wb_user_id: wbUserId,
});
export const AnnotationQueueCreateRes = z.object({ id: z.string() });

// POST /annotation_queues/query
export const AnnotationQueuesQueryReq = z.object({
  project_id: ProjectId,
  name: z.string().nullish().describe('Case-insensitive substring of the name'),
  sort_by: z.array(SortBy).nullish().describe('Fields id, name, created_at, updated_at; others are ignored'),
  limit: Limit,
  offset: Offset,
});

// POST /annotation_queues/stats
export const AnnotationQueuesStatsReq = z.object({ project_id: ProjectId, queue_ids: z.array(z.string()) });
export const AnnotationQueueStatsSchema = z.object({
  queue_id: z.string(),
  total_items: z.number().int(),
  completed_items: z.number().int().describe('Items completed or skipped by at least one annotator'),
  reviewed_items: z
    .number()
    .int()
    .describe(
      'Weft: items with the queue\'s reviewers_per_item completed reviews, the dashboard\'s "reviewed" (docs/api/evaluations.md §1)',
    ),
});
export const AnnotationQueuesStatsRes = z.object({ stats: z.array(AnnotationQueueStatsSchema) });

// GET /annotation_queues/:queue_id
export const AnnotationQueueReadReq = z.object(QueuePath);
export const AnnotationQueueReadRes = QueueRes;

// PUT /annotation_queues/:queue_id
export const AnnotationQueueUpdateReq = z.object({
  ...QueuePath,
  name: z.string().min(1).nullish(),
  description: z.string().nullish(),
  scorer_refs: z.array(z.string()).nullish().describe('Replaces the list when given'),
  display_fields: displayFields.describe('Weft: replaces the list when given'),
  reviewers_per_item: reviewersPerItem.describe('Weft: replaces the number when given'),
  wb_user_id: wbUserId,
});
export const AnnotationQueueUpdateRes = QueueRes;

// DELETE /annotation_queues/:queue_id
export const AnnotationQueueDeleteReq = z.object(QueuePath);
export const AnnotationQueueDeleteRes = QueueRes;

// POST /annotation_queues/:queue_id/items
export const AnnotationQueueAddCallsReq = z.object({
  ...QueuePath,
  call_ids: z.array(z.string()),
  display_fields: z.array(z.string()),
  wb_user_id: wbUserId,
});
export const AnnotationQueueAddCallsRes = z.object({
  added_count: z.number().int().describe('Calls found and added'),
  duplicates: z.number().int().describe('Calls already in the queue (skipped); unknown calls count in neither'),
});

// POST /annotation_queues/:queue_id/items/query
export const AnnotationQueueItemsFilter = z.object({
  id: z.string().nullish(),
  call_id: z.string().nullish(),
  call_op_name: z.string().nullish(),
  call_trace_id: z.string().nullish(),
  added_by: z.string().nullish(),
  annotation_states: z.array(AnnotationState).nullish(),
});
export type AnnotationQueueItemsFilter = z.infer<typeof AnnotationQueueItemsFilter>;
export const AnnotationQueueItemsQueryReq = z.object({
  ...QueuePath,
  filter: AnnotationQueueItemsFilter.nullish(),
  sort_by: z.array(SortBy).nullish().describe('Fields call_started_at, call_op_name, created_at, updated_at'),
  limit: Limit,
  offset: Offset,
  include_position: z.boolean().nullish(),
});
export const AnnotationQueueItemsQueryRes = z.object({ items: z.array(AnnotationQueueItemSchema) });

const ItemPath = { ...QueuePath, item_id: z.string().min(1) };
const ItemRes = z.object({ item: AnnotationQueueItemSchema });

// POST /annotation_queues/:queue_id/items/:item_id/progress
export const AnnotatorQueueItemsProgressUpdateReq = z.object({
  ...ItemPath,
  // A plain string, as in the reference: a state outside the three below is a 400 that names them.
  annotation_state: z.string().describe('in_progress, completed or skipped'),
  wb_user_id: wbUserId,
});
export const AnnotatorQueueItemsProgressUpdateRes = ItemRes;

// POST /annotation_queues/:queue_id/items/:item_id/submit (Weft)
export const AnnotationQueueItemSubmitReq = z.object({
  ...ItemPath,
  annotations: z
    .array(z.object({ annotation_ref: z.string().min(1).describe("One of the queue's scorer_refs"), value: JsonValue }))
    .describe('At most one value per spec; each must satisfy its field_schema'),
  skip: z.boolean().nullish().describe('Mark the item skipped instead; then annotations must be empty'),
  replace: z
    .boolean()
    .nullish()
    .describe(
      'Edit an item you already answered or skipped: your earlier answers on it are superseded (kept in its history) ' +
        'and these take their place. Without it a second submit is a 400.',
    ),
});
export const AnnotationQueueItemSubmitRes = ItemRes.extend({
  feedback: z.array(FeedbackCreateRes).describe('The feedback rows written, in request order'),
});
