/**
 * A trace's outline: every span's name, status, timing, usage and subtree rollups without
 * payloads, streamed so the first rows paint before the rest has come (docs/trace-outline.md);
 * the detail panel fetches the selected call's preview.
 */
import { experimental_streamedQuery as streamedQuery, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { callKeys } from '../../entities/calls/callQueries.js';
import { addBatch, earlyOutlineLines, EMPTY_OUTLINE, outlineBatches, type OutlineBatch, type TraceOutlineData } from './outlineStream.js';

/** Query keys for traces (under the project's calls keys, so call invalidation covers them). */
export const traceKeys = {
  outline: (projectId: string, traceId: string) => [...callKeys.project(projectId), 'trace', traceId, 'outline'] as const,
};

/**
 * The trace's outline, growing batch by batch (outlineStream.ts), from the request public/boot.js
 * started when the page was opened on this trace; a refetch keeps the whole one on screen until
 * the new one is whole. No structural sharing: comparing 10,000 spans deeply at
 * every batch would cost more than the batch.
 */
export function traceOutlineQueryOptions({ projectId, traceId }: { projectId: string; traceId: string }) {
  return queryOptions({
    queryKey: traceKeys.outline(projectId, traceId),
    queryFn: streamedQuery<OutlineBatch, TraceOutlineData>({
      streamFn: async ({ signal }) => {
        const req = { project_id: projectId, trace_id: traceId };
        return outlineBatches((await earlyOutlineLines(req, signal)) ?? api.traceOutlineStream(req, { signal }));
      },
      reducer: addBatch,
      initialValue: EMPTY_OUTLINE,
      refetchMode: 'replace',
    }),
    structuralSharing: false,
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
