/**
 * Prompt data through react-query (docs/prompts.md): the project's prompts and the calls that
 * name a version, under `['prompts', projectId]`. Versions and aliases are the objects
 * feature's queries, so an alias change there shows here.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, collect } from '../../lib/api.js';
import { PROMPT_BASE_CLASS } from './promptModel.js';

export const promptKeys = {
  all: ['prompts'] as const,
  project: (projectId: string) => [...promptKeys.all, projectId] as const,
  list: (projectId: string) => [...promptKeys.project(projectId), 'list'] as const,
  calls: (projectId: string, ref: string) => [...promptKeys.project(projectId), 'calls', ref] as const,
};

/** Latest versions of every prompt, by name. */
export function promptsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: promptKeys.list(projectId),
    queryFn: async ({ signal }) =>
      (
        await api.objsQuery(
          {
            project_id: projectId,
            filter: { latest_only: true, base_object_classes: [PROMPT_BASE_CLASS] },
            sort_by: [{ field: 'object_id', direction: 'asc' }],
          },
          { signal },
        )
      ).objs,
  });
}

/** The newest 20 calls whose inputs name this version's ref. */
export function promptCallsQueryOptions(projectId: string, ref: string) {
  return queryOptions({
    queryKey: promptKeys.calls(projectId, ref),
    queryFn: ({ signal }) =>
      collect(
        api.callsStreamQuery(
          {
            project_id: projectId,
            filter: { input_refs: [ref] },
            columns: ['id', 'op_name', 'display_name', 'started_at', 'trace_id'],
            sort_by: [{ field: 'started_at', direction: 'desc' }],
            limit: 20,
          },
          { signal },
        ),
      ),
  });
}
