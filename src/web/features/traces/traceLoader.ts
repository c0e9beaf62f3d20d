/** The trace route's loader, outside the lazy page so the trace starts loading with the page's code. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { traceOutlineQueryOptions } from './traceQueries.js';

/** Starts the trace's outline. */
export function traceLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    void queryClient.prefetchQuery(traceOutlineQueryOptions({ projectId: `${params.entity}/${params.project}`, traceId: params.traceId! }));
    return null;
  };
}
