/**
 * Leaderboard data through react-query (docs/leaderboards.md): the project's `Leaderboard`
 * objects (latest versions), one leaderboard, and the evaluation runs of its columns. Keys nest
 * under `['leaderboards', projectId]`, so saving a version invalidates them all.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, collect } from '../../lib/api.js';
import type { RunCall } from './leaderboardModel.js';

export const LEADERBOARD_CLASS = 'Leaderboard';

export interface LeaderboardObject {
  name: string;
  digest: string;
  version: number;
  createdAt: string;
  val: Record<string, unknown>;
}

export const leaderboardKeys = {
  all: ['leaderboards'] as const,
  project: (projectId: string) => [...leaderboardKeys.all, projectId] as const,
  list: (projectId: string) => [...leaderboardKeys.project(projectId), 'list'] as const,
  one: (projectId: string, name: string) => [...leaderboardKeys.project(projectId), 'one', name] as const,
  runs: (projectId: string, evaluations: readonly string[]) => [...leaderboardKeys.project(projectId), 'runs', evaluations] as const,
};

const toObject = (o: {
  object_id: string;
  digest: string;
  version_index: number;
  created_at: string;
  val: unknown;
}): LeaderboardObject => ({
  name: o.object_id,
  digest: o.digest,
  version: o.version_index + 1,
  createdAt: o.created_at,
  val: o.val && typeof o.val === 'object' ? (o.val as Record<string, unknown>) : {},
});

/** Every leaderboard of the project, latest versions, by name. */
export function leaderboardsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: leaderboardKeys.list(projectId),
    queryFn: async ({ signal }) => {
      const { objs } = await api.objsQuery(
        {
          project_id: projectId,
          filter: { latest_only: true, base_object_classes: [LEADERBOARD_CLASS] },
          sort_by: [{ field: 'object_id', direction: 'asc' }],
        },
        { signal },
      );
      return objs.map(toObject);
    },
  });
}

/** One leaderboard's latest version; a 404 when there is none. */
export function leaderboardQueryOptions(projectId: string, name: string) {
  return queryOptions({
    queryKey: leaderboardKeys.one(projectId, name),
    queryFn: async ({ signal }) =>
      toObject((await api.objRead({ project_id: projectId, object_id: name, digest: 'latest' }, { signal })).obj),
  });
}

/** The `Evaluation.evaluate` runs of these evaluation refs (the reference leaderboard's query). */
export function leaderboardRunsQueryOptions(projectId: string, evaluations: readonly string[]) {
  return queryOptions({
    queryKey: leaderboardKeys.runs(projectId, evaluations),
    queryFn: async ({ signal }): Promise<RunCall[]> => {
      if (!evaluations.length) return [];
      const calls = await collect(
        api.callsStreamQuery(
          {
            project_id: projectId,
            filter: { op_names: [`weave:///${projectId}/op/Evaluation.evaluate:*`], input_refs: [...evaluations] },
            columns: ['id', 'started_at', 'inputs', 'output'],
            sort_by: [{ field: 'started_at', direction: 'desc' }],
            limit: 10_000,
          },
          { signal },
        ),
      );
      return calls.map((c) => ({ id: c.id, started_at: c.started_at, inputs: c.inputs ?? {}, output: c.output }));
    },
  });
}

/** Saves a version as the reference's UI does: `builtin_object_class: "Leaderboard"`. */
export function useSaveLeaderboard(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, val }: { name: string; val: Record<string, unknown> }) =>
      api.objCreate({ obj: { project_id: projectId, object_id: name, val, builtin_object_class: LEADERBOARD_CLASS } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leaderboardKeys.project(projectId) }),
  });
}
