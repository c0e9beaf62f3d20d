/**
 * The "Run evaluation" launcher's queries: the objects it offers and a launched run's progress.
 * A module of its own, so the judges (whose saves make its lists stale) import only this.
 * Its keys sit apart from `evaluationKeys`: a finished run invalidates those, not the pickers.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

export const launchKeys = {
  all: ['evaluation-launch'] as const,
  objects: (projectId: string, leafClass?: string) =>
    [...launchKeys.all, 'objects', projectId, ...(leafClass === undefined ? [] : [leafClass])] as const,
  status: (projectId: string, callId: string | null) => [...launchKeys.all, 'status', projectId, callId] as const,
};

/** The latest version of every object of `leafClass`, as refs with names. */
export const objectRefsOptions = (projectId: string, leafClass: string) =>
  queryOptions({
    queryKey: launchKeys.objects(projectId, leafClass),
    queryFn: async ({ signal }) =>
      (
        await api.objsQuery(
          { project_id: projectId, filter: { latest_only: true, leaf_object_classes: [leafClass] }, metadata_only: true },
          { signal },
        )
      ).objs.map((o) => ({ ref: `weave:///${projectId}/object/${o.object_id}:${o.digest}`, name: o.object_id })),
  });
