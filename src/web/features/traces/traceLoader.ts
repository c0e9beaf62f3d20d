/** The trace route's loader, outside the lazy page so the trace starts loading with the page's code. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { traceCallsQueryOptions, traceCountQueryOptions } from './traceQueries.js';

/** Starts the first page of the trace and its size. */
export function traceLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const ids = { projectId: `${params.entity}/${params.project}`, traceId: params.traceId! };
    void queryClient.prefetchInfiniteQuery(traceCallsQueryOptions(ids));
    void queryClient.prefetchQuery(traceCountQueryOptions(ids));
    return null;
  };
}
