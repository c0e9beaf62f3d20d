/**
 * Annotation-queue endpoints: thin maps from endpoint name to domain and store calls.
 *
 * Where Weft differs from the reference, on purpose:
 * - adding calls to, listing items of, or progressing items in a missing or deleted queue is
 *   a 404 (the reference does not look at the queue and writes orphan rows);
 * - a deleted queue hides its items (they stay stored, unlisted) and its stats read as zeros;
 * - an unknown item is a 404, where the reference raises a plain ValueError (400); except in a
 *   progress update, which answers the reference's 400 (docs/reference/shapes.md).
 *
 * The endpoints after `annotationQueueItemSubmit` are Weft's own (annotationQueueLeads.ts).
 */
import { exportQueue, saveQueueAsDataset } from '../domain/annotation/annotationExport.js';
import { itemHistory, queueResults, queueSummary } from '../domain/annotation/annotationResults.js';
import { submitItem } from '../domain/annotation/annotationSubmit.js';
import {
  itemSortKeys,
  progressChange,
  queueSortKeys,
  readItem,
  toItemSchema,
  toQueueSchema,
} from '../domain/annotation/annotationQueues.js';
import { formatMicros } from '../core/datetime.js';
import { uuidv7 } from '../core/ids.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor } from '../audit/auditTrail.js';
import { BadRequestError, NotFoundError, QueueItemNotFoundError } from '../errors.js';
import type { QueueRecord } from '../store/AnnotationQueuesStore.js';
import type { Store } from '../store/Store.js';

/** How long fetch-next holds an item for a reviewer unless they say otherwise. */
const DEFAULT_RESERVATION_SECONDS = 900;

const queueNotFound = (queueId: string) => new NotFoundError(`Queue ${queueId} not found`);

/** The live queue, or 404. */
async function requireQueue(store: Store, req: { project_id: string; queue_id: string }): Promise<QueueRecord> {
  const queue = await store.annotationQueues.readQueue({ projectId: req.project_id, queueId: req.queue_id });
  if (!queue) throw queueNotFound(req.queue_id);
  return queue;
}

export const annotationQueueRoutes = defineRoutes({
  annotationQueueCreate: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const now = clock.nowMicros();
      const id = uuidv7();
      await store.annotationQueues.createQueue({
        projectId: req.project_id,
        id,
        name: req.name,
        description: req.description ?? '',
        scorerRefs: req.scorer_refs,
        displayFields: req.display_fields ?? null,
        reviewersPerItem: req.reviewers_per_item ?? 1,
        createdBy: user.username,
        createdAt: now,
        updatedAt: now,
      });
      return { id };
    },
  },

  annotationQueuesQuery: {
    runs: 'read',
    handler: async function* (req, { store }) {
      const queues = store.annotationQueues.queryQueues({
        projectId: req.project_id,
        name: req.name,
        sortBy: queueSortKeys(req.sort_by),
        limit: req.limit,
        offset: req.offset,
      });
      for await (const queue of queues) yield toQueueSchema(queue);
    },
  },

  annotationQueuesStats: {
    runs: 'read',
    handler: async (req, { store }) => {
      const stats = await store.annotationQueues.queueStats({ projectId: req.project_id, queueIds: req.queue_ids });
      // One entry per requested id, in request order; unknown and deleted queues read as zeros.
      return {
        stats: req.queue_ids.map((id) => ({
          queue_id: id,
          total_items: stats.get(id)?.total ?? 0,
          completed_items: stats.get(id)?.completed ?? 0,
          reviewed_items: stats.get(id)?.reviewed ?? 0,
        })),
      };
    },
  },

  annotationQueueRead: {
    runs: 'read',
    handler: async (req, { store }) => ({ queue: toQueueSchema(await requireQueue(store, req)) }),
  },

  annotationQueueUpdate: {
    runs: 'write',
    handler: async (req, { store, clock }) => {
      const queue = await store.annotationQueues.updateQueue({
        projectId: req.project_id,
        queueId: req.queue_id,
        name: req.name ?? undefined,
        description: req.description ?? undefined,
        scorerRefs: req.scorer_refs ?? undefined,
        displayFields: req.display_fields ?? undefined,
        reviewersPerItem: req.reviewers_per_item ?? undefined,
        updatedAt: clock.nowMicros(),
      });
      if (!queue) throw queueNotFound(req.queue_id);
      return { queue: toQueueSchema(queue) };
    },
  },

  annotationQueueDelete: {
    runs: 'write',
    handler: async (req, ctx) => {
      const queue = await ctx.store.annotationQueues.deleteQueue({
        projectId: req.project_id,
        queueId: req.queue_id,
        deletedAt: ctx.clock.nowMicros(),
      });
      if (!queue) throw queueNotFound(req.queue_id);
      await recordFor(ctx, {
        action: 'queue.deleted',
        target: req.queue_id,
        entity: entityOf(req.project_id),
        projectId: req.project_id,
        details: { name: queue.name },
      });
      return { queue: toQueueSchema(queue) };
    },
  },

  annotationQueueAddCalls: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const result = await store.annotationQueues.addCalls({
        projectId: req.project_id,
        queueId: req.queue_id,
        callIds: req.call_ids,
        displayFields: req.display_fields,
        addedBy: user.username,
        createdAt: clock.nowMicros(),
      });
      if (!result) throw queueNotFound(req.queue_id);
      return { added_count: result.added, duplicates: result.duplicates };
    },
  },

  annotationQueueItemsQuery: {
    runs: 'read',
    handler: async (req, { store }) => {
      const items = await store.annotationQueues.queryItems({
        projectId: req.project_id,
        queueId: req.queue_id,
        filter: req.filter,
        sortBy: itemSortKeys(req.sort_by),
        limit: req.limit,
        offset: req.offset,
        includePosition: req.include_position ?? false,
      });
      if (!items) throw queueNotFound(req.queue_id);
      return { items: items.map(toItemSchema) };
    },
  },

  annotatorQueueItemsProgressUpdate: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      await requireQueue(store, req);
      const target = { projectId: req.project_id, queueId: req.queue_id, itemId: req.item_id };
      // The reference's answer and wording for an item that is not in the queue.
      const notInQueue = () => new BadRequestError(`Queue item '${req.item_id}' not found in queue '${req.queue_id}'`);
      try {
        await store.annotationQueues.recordProgress({
          ...target,
          annotator: user.username,
          change: progressChange(req.annotation_state),
          now: clock.nowMicros(),
        });
      } catch (err) {
        throw err instanceof QueueItemNotFoundError ? notInQueue() : err;
      }
      const item = await readItem(store, target);
      if (!item) throw notInQueue();
      return { item: toItemSchema(item) };
    },
  },

  annotationQueueItemSubmit: {
    runs: 'write',
    handler: async (req, { store, user, clock }) =>
      submitItem(store, { req, queue: await requireQueue(store, req), annotator: user.username, now: clock.nowMicros() }),
  },

  annotationQueueNextItem: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const now = clock.nowMicros();
      const expiresAt = now + (req.reservation_seconds ?? DEFAULT_RESERVATION_SECONDS) * 1_000_000;
      const next = await store.annotationQueues.reserveNext({
        projectId: req.project_id,
        queueId: req.queue_id,
        annotator: user.username,
        now,
        expiresAt,
        afterItemId: req.after_item_id,
      });
      if (!next) throw queueNotFound(req.queue_id);
      return {
        item: next.item && toItemSchema(next.item),
        reserved_until: next.item && formatMicros(expiresAt),
        available: next.available,
      };
    },
  },

  annotationQueueAddThreads: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const queue = await requireQueue(store, req);
      const result = await store.annotationQueues.addThreads({
        projectId: req.project_id,
        queueId: req.queue_id,
        threadIds: req.thread_ids,
        displayFields: req.display_fields ?? queue.displayFields ?? [],
        addedBy: user.username,
        createdAt: clock.nowMicros(),
      });
      if (!result) throw queueNotFound(req.queue_id);
      return { added_count: result.added, duplicates: result.duplicates };
    },
  },

  annotationQueueResults: {
    runs: 'write',
    handler: async (req, { store }) =>
      queueResults(store, { queue: await requireQueue(store, req), states: req.annotation_states, limit: req.limit, offset: req.offset }),
  },

  annotationQueueSummary: {
    runs: 'write',
    handler: async (req, { store, clock }) => queueSummary(store, await requireQueue(store, req), clock.nowMicros()),
  },

  annotationItemHistory: {
    runs: 'write',
    handler: async (req, { store }) => itemHistory(store, { queue: await requireQueue(store, req), itemId: req.item_id }),
  },

  annotationQueueExport: {
    runs: 'write',
    handler: async (req, ctx) => {
      const answer = await exportQueue(ctx.store, await requireQueue(ctx.store, req), req.format);
      await recordFor(ctx, {
        action: 'data.exported',
        target: req.queue_id,
        entity: entityOf(req.project_id),
        projectId: req.project_id,
        details: { kind: 'annotation_queue', format: req.format },
      });
      return answer;
    },
  },

  annotationQueueSaveDataset: {
    runs: 'write',
    handler: async (req, { store, user, clock }) =>
      saveQueueAsDataset(store, {
        queue: await requireQueue(store, req),
        userId: user.username,
        now: clock.nowMicros(),
        name: req.name,
        description: req.description,
        includeSkipped: req.include_skipped,
      }),
  },
});
