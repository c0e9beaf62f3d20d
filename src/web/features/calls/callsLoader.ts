/**
 * The Calls route's loader. It lives outside the lazily loaded page so the router starts the
 * first page and the total at once, in parallel with downloading the page's code.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { callsCountQueryOptions, callsPageQueryOptions } from '../../entities/calls/callQueries.js';
import { readCallsView } from '../../entities/calls/callsViewState.js';
import { roundedNow, toListRequest } from '../../entities/calls/listRequest.js';

/** Starts the first page and the total; the page reads them from the cache. */
export function callsLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const view = readCallsView(new URL(request.url).searchParams);
    const req = toListRequest({ projectId: `${params.entity}/${params.project}`, view, now: roundedNow() });
    void queryClient.prefetchQuery(callsPageQueryOptions({ req, generation: 0, page: 0 }));
    void queryClient.prefetchQuery(callsCountQueryOptions({ req, generation: 0 }));
    return null;
  };
}
