/**
 * The Threads route's loader. It lives outside the lazily loaded page so the router starts the
 * first page of the list at once, in parallel with downloading the page's code.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { roundedNow } from '../../entities/calls/listRequest.js';
import { threadsCountQueryOptions, threadsListQueryOptions } from './threadQueries.js';
import { readThreadsView, toThreadsRequest } from './threadsViewState.js';

/** Starts the list's first page and its count; the page reads them from the cache. */
export function threadsLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const view = readThreadsView(new URL(request.url).searchParams);
    const req = toThreadsRequest({ projectId: `${params.entity}/${params.project}`, view, now: roundedNow() });
    void queryClient.prefetchInfiniteQuery(threadsListQueryOptions(req));
    void queryClient.prefetchQuery(threadsCountQueryOptions(req));
    return null;
  };
}
