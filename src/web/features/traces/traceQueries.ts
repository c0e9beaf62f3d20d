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

/**
 * The selected call with bounded payloads (docs/trace-outline.md "Payloads in parts"): a 20 MB
 * payload answers its first screen, the rest loads by part.
 */
export function callPreviewQueryOptions({ projectId, id }: { projectId: string; id: string }) {
  return queryOptions({
    queryKey: [...callKeys.project(projectId), 'preview', id] as const,
    queryFn: ({ signal }) => api.callPreview({ project_id: projectId, id, include_costs: true }, { signal }),
  });
}
