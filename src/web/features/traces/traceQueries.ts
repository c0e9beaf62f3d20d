/**
 * A trace's outline: every span's name, status, timing, usage and subtree rollups in one answer
 * without payloads (docs/trace-outline.md); the detail panel fetches the selected call in full.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { callKeys } from '../../entities/calls/callQueries.js';

/** Query keys for traces (under the project's calls keys, so call invalidation covers them). */
export const traceKeys = {
  outline: (projectId: string, traceId: string) => [...callKeys.project(projectId), 'trace', traceId, 'outline'] as const,
};

/** The trace's outline. */
export function traceOutlineQueryOptions({ projectId, traceId }: { projectId: string; traceId: string }) {
  return queryOptions({
    queryKey: traceKeys.outline(projectId, traceId),
    queryFn: ({ signal }) => api.traceOutline({ project_id: projectId, trace_id: traceId }, { signal }),
  });
}
