/**
 * The annotation routes' loaders. They live outside the lazily loaded pages so the router starts
 * each page's queries at once, in parallel with downloading the page's code.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router-dom';
import { callQueryOptions } from '../../entities/calls/callQueries.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import {
  myAnswersQueryOptions,
  nextItemQueryOptions,
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

/**
 * What the loaders answer: the page mounts once the queries it reads with suspense are in
 * (routing.tsx says why), and a failed one is the page's to report, so it is not the loader's.
 */
const settled = (queries: Promise<unknown>[]) => Promise.allSettled(queries).then(() => null);

/** Starts the queue list and, once it is in, their stats. */
export function queuesLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const queues = queryClient.ensureQueryData(queuesQueryOptions(projectId));
    void queues.then((qs) => queryClient.prefetchQuery(queueStatsQueryOptions({ projectId, queueIds: qs.map((q) => q.id) })), ignore);
    return settled([queues]);
  };
}

/** Starts the queue page's queries: the queue and its questions, the summary and the items. */
export function queueLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const queueId = params.queueId ?? '';
    const fields = queryClient
      .ensureQueryData(queueQueryOptions({ projectId, queueId }))
      .then((q) => queryClient.ensureQueryData(queueFieldsQueryOptions(q.scorer_refs)));
    void queryClient.prefetchQuery(queueSummaryQueryOptions({ projectId, queueId }));
    void queryClient.prefetchQuery(queueResultsQueryOptions({ projectId, queueId }));
    return settled([fields]);
  };
}

/**
 * Starts every query the review page reads; the questions as soon as the queue is in. Opened
 * without an item, it also asks for my next one, as the page would, and answers a redirect to
 * it with its call on the way: the page then mounts on that item instead of asking after it
 * mounts (two round trips later).
 */
export function reviewLoader(queryClient: QueryClient) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const queueId = params.queueId ?? '';
    const url = new URL(request.url);
    const fields = queryClient
      .ensureQueryData(queueQueryOptions({ projectId, queueId }))
      .then((q) => queryClient.ensureQueryData(queueFieldsQueryOptions(q.scorer_refs)));
    const items = queryClient.ensureQueryData(queueItemsQueryOptions({ projectId, queueId }));
    const answers = queryClient
      .ensureQueryData(whoamiQueryOptions())
      .then((u) => queryClient.ensureQueryData(myAnswersQueryOptions({ projectId, queueId, user: u.username })));
    const requested = url.searchParams.get('item');
    const next = requested === null ? nextItem(queryClient, { projectId, queueId, after: url.searchParams.get('after') }) : null;
    const itemCall =
      requested === null ? next!.then((n) => n?.call_id) : items.then((list) => list.find((i) => i.id === requested)?.call_id);
    void itemCall.then((id) => (id ? queryClient.prefetchQuery(callQueryOptions({ projectId, id })) : undefined), ignore);
    await settled([fields, items, answers]);
    const item = await next?.catch(() => null);
    // Where the page would go itself (ReviewPage's NextItem): `?item=` replaces `?after=`.
    return item ? redirect(`${url.pathname}?item=${encodeURIComponent(item.id)}`) : null;
  };
}

/**
 * My next item, shared by the two loader runs of a first page load (early and on render): the
 * page's own query is never cached, as each ask renews a reservation, so the loader keeps its
 * answer a moment instead of asking twice.
 */
function nextItem(queryClient: QueryClient, ids: { projectId: string; queueId: string; after: string | null }) {
  return queryClient.fetchQuery({ ...nextItemQueryOptions(ids), staleTime: 2_000, gcTime: 2_000 }).then((r) => r.item);
}

/** Moving between items changes only `?item=`: nothing to prefetch again. */
export function reviewShouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;
}
