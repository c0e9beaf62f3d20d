/** The Dashboards route's loader: starts the call statistics while the page's code downloads. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { callStatsQueryOptions, recentOpsQueryOptions } from './dashboardQueries.js';
import { toCallStatsRequest } from './dashboardRequests.js';
import { readDashboardView, roundedNow } from './dashboardViewState.js';

/** Prefetches the view's `/calls/stats` and the op list; the page reads them from the cache. */
export function dashboardLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const projectId = `${params.entity}/${params.project}`;
    const view = readDashboardView(new URL(request.url).searchParams);
    void queryClient.prefetchQuery(callStatsQueryOptions(toCallStatsRequest({ projectId, view, now: roundedNow() })));
    void queryClient.prefetchQuery(recentOpsQueryOptions(projectId));
    return null;
  };
}
