/**
 * Annotation data through react-query: a project's queues and their stats, one queue, its
 * items, its questions (AnnotationSpec objects, resolved through their refs), and what the
 * signed-in reviewer already answered. Keys nest by project, so `invalidateQueries({queryKey:
 * annotationKeys.project(id)})` refreshes everything.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AnnotationQueueResultRow } from '../../../contract/annotationQueueLeads.js';
import type { AnnotationQueueItemSchema } from '../../../contract/annotationQueues.js';
import { api } from '../../lib/api.js';
import { annotationKeys } from '../../entities/annotationQueues/queueQueries.js';
import { toQueueField, type QueueField } from './queueFields.js';

// The keys and the queue list live in entities/ because Threads and Calls add to queues too.
export { annotationKeys, queuesQueryOptions, type Queue } from '../../entities/annotationQueues/queueQueries.js';

/** A queue item with its aggregated state. */
export type QueueItem = AnnotationQueueItemSchema;

/** An item with every reviewer's state and answers. */
export type QueueResultRow = AnnotationQueueResultRow;

/** One answer the reviewer gave earlier (a `wandb.annotation.*` feedback row). */
export interface MyAnswer {
  callId: string;
  annotationRef: string;
  value: unknown;
}

/** Total and reviewed items per queue, keyed by queue id. */
export function queueStatsQueryOptions({ projectId, queueIds }: { projectId: string; queueIds: string[] }) {
  return queryOptions({
    queryKey: annotationKeys.stats(projectId, queueIds),
    queryFn: async ({ signal }) => {
      if (queueIds.length === 0) return new Map<string, { total: number; reviewed: number }>();
      const { stats } = await api.annotationQueuesStats({ project_id: projectId, queue_ids: queueIds }, { signal });
      // Reviewed (every review the queue wants), not the reference's "anyone finished": see reviewProgress.ts.
      return new Map(stats.map((s) => [s.queue_id, { total: s.total_items, reviewed: s.reviewed_items }]));
    },
  });
}

/** One queue; 404 when it is unknown or deleted. */
export function queueQueryOptions({ projectId, queueId }: { projectId: string; queueId: string }) {
  return queryOptions({
    queryKey: annotationKeys.queue(projectId, queueId),
    queryFn: async ({ signal }) => (await api.annotationQueueRead({ project_id: projectId, queue_id: queueId }, { signal })).queue,
  });
}

/** Every item of a queue in queue order (oldest added first), with its position. */
export function queueItemsQueryOptions({ projectId, queueId }: { projectId: string; queueId: string }) {
  return queryOptions({
    queryKey: annotationKeys.items(projectId, queueId),
    queryFn: async ({ signal }) =>
      (await api.annotationQueueItemsQuery({ project_id: projectId, queue_id: queueId, include_position: true }, { signal })).items,
  });
}

/** A queue's questions, resolved from its scorer refs in one request. */
export function queueFieldsQueryOptions(refs: string[]) {
  return queryOptions({
    queryKey: annotationKeys.fields(refs),
    queryFn: async ({ signal }): Promise<QueueField[]> => {
      if (refs.length === 0) return [];
      const { vals } = await api.refsReadBatch({ refs }, { signal });
      return refs.map((ref, i) => toQueueField(ref, vals[i]));
    },
    staleTime: Infinity,
  });
}

/** The latest version of every AnnotationSpec in the project, as pickable questions. */
export function specsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: annotationKeys.specs(projectId),
    queryFn: async ({ signal }) => {
      const { objs } = await api.objsQuery(
        {
          project_id: projectId,
          filter: { leaf_object_classes: ['AnnotationSpec'], latest_only: true },
          sort_by: [{ field: 'object_id', direction: 'asc' }],
        },
        { signal },
      );
      return objs.map((o) => toQueueField(`weave:///${projectId}/object/${o.object_id}:${o.digest}`, o.val));
    },
  });
}

const eq = (field: string, value: string) => ({ $eq: [{ $getField: field }, { $literal: value }] });

/** The answers `user` gave in this queue (feedback rows the submit endpoint wrote). */
export function myAnswersQueryOptions({ projectId, queueId, user }: { projectId: string; queueId: string; user: string }) {
  return queryOptions({
    queryKey: annotationKeys.mine(projectId, queueId, user),
    queryFn: async ({ signal }): Promise<MyAnswer[]> => {
      const { result } = await api.feedbackQuery(
        {
          project_id: projectId,
          query: { $expr: { $and: [eq('queue_id', queueId), eq('wb_user_id', user)] } },
          fields: ['weave_ref', 'annotation_ref', 'payload'],
          sort_by: [{ field: 'created_at', direction: 'asc' }],
        },
        { signal },
      );
      return result.flatMap((row) => {
        const callId = /\/call\/([^/]+)$/.exec(String(row.weave_ref ?? ''))?.[1];
        const payload = row.payload as { value?: unknown } | null;
        return callId && typeof row.annotation_ref === 'string'
          ? [{ callId, annotationRef: row.annotation_ref, value: payload?.value }]
          : [];
      });
    },
  });
}

/** Progress per reviewer and answer distributions per question. */
export function queueSummaryQueryOptions({ projectId, queueId }: { projectId: string; queueId: string }) {
  return queryOptions({
    queryKey: annotationKeys.summary(projectId, queueId),
    queryFn: ({ signal }) => api.annotationQueueSummary({ project_id: projectId, queue_id: queueId }, { signal }),
  });
}

/** Items shown on the queue page at most; the export has them all. */
export const RESULTS_LIMIT = 2000;

/** Items in queue order with every reviewer's state and answers (the first RESULTS_LIMIT). */
export function queueResultsQueryOptions({ projectId, queueId }: { projectId: string; queueId: string }) {
  return queryOptions({
    queryKey: annotationKeys.results(projectId, queueId),
    queryFn: ({ signal }) => api.annotationQueueResults({ project_id: projectId, queue_id: queueId, limit: RESULTS_LIMIT }, { signal }),
  });
}

/** Every answer given on one item, current and superseded. */
export function itemHistoryQueryOptions({ projectId, queueId, itemId }: { projectId: string; queueId: string; itemId: string }) {
  return queryOptions({
    queryKey: annotationKeys.history(projectId, queueId, itemId),
    queryFn: ({ signal }) => api.annotationItemHistory({ project_id: projectId, queue_id: queueId, item_id: itemId }, { signal }),
  });
}

/**
 * The item the server reserves for me next (after `after` in queue order when given). A POST with an effect (the reservation), read as a
 * query because asking again only renews my hold on the same item; never cached.
 */
export function nextItemQueryOptions({ projectId, queueId, after }: { projectId: string; queueId: string; after: string | null }) {
  return queryOptions({
    queryKey: annotationKeys.next(projectId, queueId, after),
    queryFn: ({ signal }) => api.annotationQueueNextItem({ project_id: projectId, queue_id: queueId, after_item_id: after }, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
