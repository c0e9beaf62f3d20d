/**
 * Playground data through react-query: a call to prefill from and running a completion. The
 * models it offers come from entities/models, which the judges and settings read too.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api } from '../../lib/api.js';
import { callKeys } from '../../entities/calls/callQueries.js';

export const playgroundKeys = {
  all: ['playground'] as const,
  call: (projectId: string, id: string) => [...playgroundKeys.all, 'call', projectId, id] as const,
};

/** The call to prefill the playground from (null when none is named). */
export function prefillCallQueryOptions(projectId: string, callId: string | null) {
  return queryOptions({
    queryKey: playgroundKeys.call(projectId, callId ?? ''),
    queryFn: async ({ signal }) => (callId ? (await api.callRead({ project_id: projectId, id: callId }, { signal })).call : null),
  });
}

/** Runs one completion (tracked); new calls make the calls list stale. */
export function useRunCompletion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inputs: ReqOf<'completionsCreate'>['inputs']) =>
      api.completionsCreate({ project_id: projectId, inputs, track_llm_call: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: callKeys.project(projectId) }),
  });
}
