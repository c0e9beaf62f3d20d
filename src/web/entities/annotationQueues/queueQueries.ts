/**
 * The annotation query keys and a project's queue list, shared by the annotation pages and by
 * every "Add to queue" (Calls, Threads). Keys nest by project, so invalidating
 * `annotationKeys.project(id)` refreshes every annotation query of that project.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AnnotationQueueSchema } from '../../../contract/annotationQueues.js';
import { api, collect } from '../../lib/api.js';

/** A queue as listed. */
export type Queue = AnnotationQueueSchema;

/** Query keys for annotation queues and specs. */
export const annotationKeys = {
  all: ['annotation'] as const,
  project: (projectId: string) => [...annotationKeys.all, projectId] as const,
  queues: (projectId: string) => [...annotationKeys.project(projectId), 'queues'] as const,
  allStats: (projectId: string) => [...annotationKeys.project(projectId), 'stats'] as const,
  stats: (projectId: string, queueIds: string[]) => [...annotationKeys.allStats(projectId), queueIds] as const,
  queue: (projectId: string, queueId: string) => [...annotationKeys.project(projectId), 'queue', queueId] as const,
  items: (projectId: string, queueId: string) => [...annotationKeys.queue(projectId, queueId), 'items'] as const,
  mine: (projectId: string, queueId: string, user: string) => [...annotationKeys.queue(projectId, queueId), 'mine', user] as const,
  summary: (projectId: string, queueId: string) => [...annotationKeys.queue(projectId, queueId), 'summary'] as const,
  results: (projectId: string, queueId: string) => [...annotationKeys.queue(projectId, queueId), 'results'] as const,
  history: (projectId: string, queueId: string, itemId: string) =>
    [...annotationKeys.queue(projectId, queueId), 'history', itemId] as const,
  allNext: (projectId: string, queueId: string) => [...annotationKeys.queue(projectId, queueId), 'next'] as const,
  next: (projectId: string, queueId: string, after: string | null) => [...annotationKeys.allNext(projectId, queueId), after] as const,
  specs: (projectId: string) => [...annotationKeys.project(projectId), 'specs'] as const,
  /** Refs name exact versions, so resolved specs never change: keyed outside any project. */
  fields: (refs: string[]) => [...annotationKeys.all, 'fields', refs] as const,
};

/** The project's live queues, newest first. */
export function queuesQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: annotationKeys.queues(projectId),
    queryFn: ({ signal }) => collect<Queue>(api.annotationQueuesQuery({ project_id: projectId }, { signal })),
  });
}
