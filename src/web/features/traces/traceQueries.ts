/**
 * A trace's calls, loaded page by page (1,000 light rows each: no inputs or output) so a trace
 * of thousands of calls starts drawing at once; the detail panel fetches one call in full.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, collect } from '../../lib/api.js';
import type { Call } from '../../entities/calls/callFields.js';
import { callKeys } from '../../entities/calls/callQueries.js';

/** Calls per trace page. */
export const TRACE_PAGE_SIZE = 1000;

/** What the tree and waterfall need of each call; payloads stay on the server. */
const TREE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception', 'summary'];

/** Query keys for traces (under the project's calls keys, so call invalidation covers them). */
export const traceKeys = {
  calls: (projectId: string, traceId: string) => [...callKeys.project(projectId), 'trace', traceId, 'calls'] as const,
  count: (projectId: string, traceId: string) => [...callKeys.project(projectId), 'trace', traceId, 'count'] as const,
};

/** The trace's calls in start order, one page per fetch. */
export function traceCallsQueryOptions({ projectId, traceId }: { projectId: string; traceId: string }) {
  return infiniteQueryOptions({
    queryKey: traceKeys.calls(projectId, traceId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      collect<Call>(
        api.callsStreamQuery(
          {
            project_id: projectId,
            filter: { trace_ids: [traceId] },
            sort_by: [{ field: 'started_at', direction: 'asc' }],
            columns: TREE_COLUMNS,
            include_costs: true,
            limit: TRACE_PAGE_SIZE,
            offset: pageParam * TRACE_PAGE_SIZE,
          },
          { signal },
        ),
      ),
    getNextPageParam: (last, _all, lastParam) => (last.length === TRACE_PAGE_SIZE ? lastParam + 1 : undefined),
  });
}

/** How many calls the trace has (for "loaded 3,000 of 12,000"). */
export function traceCountQueryOptions({ projectId, traceId }: { projectId: string; traceId: string }) {
  return queryOptions({
    queryKey: traceKeys.count(projectId, traceId),
    queryFn: async ({ signal }) =>
      (await api.callsQueryStats({ project_id: projectId, filter: { trace_ids: [traceId] } }, { signal })).count,
  });
}
