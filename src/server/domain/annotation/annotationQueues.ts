/**
 * Annotation-queue rules that do not touch storage: which sort keys count, the per-annotator
 * progress state machine, and records in wire form.
 *
 * Progress (docs/api/evaluations.md §1), applied to the caller's own record:
 * - none → in_progress, completed or skipped;
 * - in_progress → completed or skipped;
 * - the same state again → nothing changes, the item is answered (the newest reference made
 *   this idempotent so a retried request is harmless; older builds refused it);
 * - anything else (back to in_progress, completed ↔ skipped, unstarted, unknown) → 400 naming
 *   the current and requested states, with nothing written.
 * The Weft submit endpoint is stricter: it writes feedback, so it only accepts a first
 * completion (none or in_progress → completed/skipped); a repeat is a 400, not a no-op.
 */
import type { AnnotationQueueItemSchema, AnnotationQueueSchema } from '../../../contract/annotationQueues.js';
import type { SortBy } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';
import type {
  CurrentProgress,
  ItemSortField,
  ProgressChange,
  ProgressOutcome,
  ProgressState,
  QueueItemRecord,
  QueueRecord,
  QueueSort,
  QueueSortField,
} from '../../store/AnnotationQueuesStore.js';
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import type { Store } from '../../store/Store.js';

const QUEUE_SORT_FIELDS: readonly QueueSortField[] = ['id', 'name', 'created_at', 'updated_at'];
const ITEM_SORT_FIELDS: readonly ItemSortField[] = ['call_started_at', 'call_op_name', 'created_at', 'updated_at'];
const PROGRESS_STATES: readonly ProgressState[] = ['in_progress', 'completed', 'skipped'];

/** Sort keys on allowed fields; the rest are dropped silently, as the reference does. */
function keepSortable<F extends string>(sortBy: SortBy[] | null | undefined, fields: readonly F[]): QueueSort<F>[] {
  return (sortBy ?? []).filter((s): s is QueueSort<F> => (fields as readonly string[]).includes(s.field));
}

export const queueSortKeys = (sortBy: SortBy[] | null | undefined) => keepSortable(sortBy, QUEUE_SORT_FIELDS);
export const itemSortKeys = (sortBy: SortBy[] | null | undefined) => keepSortable(sortBy, ITEM_SORT_FIELDS);

const shown = (state: ProgressState | null) => (state === null ? "no progress ('unstarted')" : `'${state}'`);

function refuse(current: ProgressState | null, requested: string, why: string): never {
  throw new BadRequestError(`Invalid state transition from ${shown(current)} to '${requested}': ${why}`);
}

/** A transition rule: the state to write from the current one (null: keep), or a thrown 400. */
type Transition = (current: ProgressState | null) => ProgressState | null;

const CURRENT_STATES: readonly CurrentProgress[] = ['none', ...PROGRESS_STATES];

/**
 * The rule as data: its outcome from every current state, worked out here so the store applies
 * it without running code (and it crosses to the writer thread as a plain value).
 */
function tabulate(rule: Transition): ProgressChange {
  const outcome = (current: CurrentProgress): ProgressOutcome => {
    try {
      const next = rule(current === 'none' ? null : current);
      return next === null ? { keep: true } : { write: next };
    } catch (err) {
      if (err instanceof BadRequestError) return { refuse: err.message };
      throw err;
    }
  };
  return Object.fromEntries(CURRENT_STATES.map((c) => [c, outcome(c)])) as Record<CurrentProgress, ProgressOutcome>;
}

/** The change `POST .../progress` applies for `requested`. */
export function progressChange(requested: string): ProgressChange {
  return tabulate((current) => {
    if (!(PROGRESS_STATES as readonly string[]).includes(requested)) {
      // "Invalid annotation_state" and "Cannot transition to ..." below are the reference's words.
      refuse(current, requested, `Invalid annotation_state, must be one of ${PROGRESS_STATES.join(', ')}`);
    }
    const next = requested as ProgressState;
    if (current === next) return null;
    if (next === 'in_progress' && current !== null) {
      refuse(current, next, "Cannot transition to 'in_progress' when a record already exists (only items you have not started)");
    }
    if (current !== null && current !== 'in_progress') refuse(current, next, `the item is already ${current}`);
    return next;
  });
}

/**
 * The change an edit (`replace: true`) applies: whatever the reviewer did before, the item
 * becomes completed or skipped for them; their earlier answers move to the item's history.
 */
export function replaceChange(next: 'completed' | 'skipped'): ProgressChange {
  return tabulate(() => next);
}

/** The change a submit applies: a first completion (or skip) only. */
export function submitChange(next: 'completed' | 'skipped'): ProgressChange {
  return tabulate((current) => {
    if (current !== null && current !== 'in_progress')
      refuse(current, next, `you already ${current === 'completed' ? 'completed' : 'skipped'} this item`);
    return next;
  });
}

export const toQueueSchema = (q: QueueRecord): AnnotationQueueSchema => ({
  id: q.id,
  project_id: q.projectId,
  name: q.name,
  description: q.description,
  scorer_refs: q.scorerRefs,
  display_fields: q.displayFields,
  reviewers_per_item: q.reviewersPerItem,
  created_at: formatMicros(q.createdAt),
  created_by: q.createdBy,
  updated_at: formatMicros(q.updatedAt),
  deleted_at: formatMicrosOrNull(q.deletedAt),
});

export const toItemSchema = (i: QueueItemRecord): AnnotationQueueItemSchema => ({
  id: i.id,
  project_id: i.projectId,
  queue_id: i.queueId,
  call_id: i.callId,
  call_started_at: formatMicros(i.callStartedAt),
  call_ended_at: formatMicrosOrNull(i.callEndedAt),
  call_op_name: i.callOpName,
  call_trace_id: i.callTraceId,
  display_fields: i.displayFields,
  added_by: i.addedBy,
  annotation_state: i.annotationState,
  // The ClickHouse reference answers "" for unstarted items (an argMax default); the schema
  // says string | null and null says "nobody" plainly, so Weft answers null.
  annotator_user_id: i.annotatorUserId,
  created_at: formatMicros(i.createdAt),
  created_by: i.createdBy,
  updated_at: formatMicros(i.updatedAt),
  // Items are never deleted one by one; a deleted queue hides them instead.
  deleted_at: null,
  position_in_queue: i.positionInQueue,
  thread_id: i.threadId,
  completed_reviews: i.completedReviews,
  reserved_by: i.reservedBy,
});

/** An item of a live queue as read now, or null when the queue or item is not live. */
export async function readItem(store: Store, req: { projectId: string; queueId: string; itemId: string }): Promise<QueueItemRecord | null> {
  const items = await store.annotationQueues.queryItems({
    projectId: req.projectId,
    queueId: req.queueId,
    filter: { id: req.itemId },
    sortBy: [],
    includePosition: false,
  });
  return items?.[0] ?? null;
}
