/**
 * The annotation routes' loaders. They live outside the lazily loaded pages so the router starts
 * each page's queries at once, in parallel with downloading the page's code.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router-dom';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import {
  myAnswersQueryOptions,
  queueFieldsQueryOptions,
  queueItemsQueryOptions,
  queueQueryOptions,
  queueResultsQueryOptions,
  queuesQueryOptions,
  queueSummaryQueryOptions,
  queueStatsQueryOptions,
} from './annotationQueries.js';

/** Prefetches only: the pages read the cache and report failures themselves. */
const ignore = () => undefined;

/** Starts the queue list and, once it is in, their stats. */
export function queuesLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    void queryClient
      .ensureQueryData(queuesQueryOptions(projectId))
      .then((queues) => queryClient.prefetchQuery(queueStatsQueryOptions({ projectId, queueIds: queues.map((q) => q.id) })), ignore);
    return null;
  };
}

/** Starts the queue page's queries: the queue and its questions, the summary and the items. */
export function queueLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const queueId = params.queueId ?? '';
    void queryClient
      .ensureQueryData(queueQueryOptions({ projectId, queueId }))
      .then((q) => queryClient.prefetchQuery(queueFieldsQueryOptions(q.scorer_refs)), ignore);
    void queryClient.prefetchQuery(queueSummaryQueryOptions({ projectId, queueId }));
    void queryClient.prefetchQuery(queueResultsQueryOptions({ projectId, queueId }));
    return null;
  };
}

/** Starts every query the review page reads; the questions as soon as the queue is in. */
export function reviewLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const queueId = params.queueId ?? '';
    void queryClient
      .ensureQueryData(queueQueryOptions({ projectId, queueId }))
      .then((q) => queryClient.prefetchQuery(queueFieldsQueryOptions(q.scorer_refs)), ignore);
    void queryClient.prefetchQuery(queueItemsQueryOptions({ projectId, queueId }));
    void queryClient
      .ensureQueryData(whoamiQueryOptions())
      .then((u) => queryClient.prefetchQuery(myAnswersQueryOptions({ projectId, queueId, user: u.username })), ignore);
    return null;
  };
}

/** Moving between items changes only `?item=`: nothing to prefetch again. */
export function reviewShouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;
}
