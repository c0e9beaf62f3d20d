/**
 * Playground and provider data through react-query: the models a project can use, its
 * providers, a call to prefill from, and the writes (run a completion, add/remove/test a
 * provider). Provider writes invalidate the model list and the project's prices.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api } from '../../lib/api.js';
import { callKeys } from '../../entities/calls/callQueries.js';
import { settingsKeys } from '../settings/settingsQueries.js';

export const playgroundKeys = {
  all: ['playground'] as const,
  models: (projectId: string) => [...playgroundKeys.all, 'models', projectId] as const,
  providers: (projectId: string) => [...playgroundKeys.all, 'providers', projectId] as const,
  call: (projectId: string, id: string) => [...playgroundKeys.all, 'call', projectId, id] as const,
};

/** Every model the project can use, with what to configure when none. */
export function modelsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: playgroundKeys.models(projectId),
    queryFn: ({ signal }) => api.modelsList({ project_id: projectId }, { signal }),
  });
}

/** The project's providers and the instance-wide ones (keys masked). */
export function providersQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: playgroundKeys.providers(projectId),
    queryFn: async ({ signal }) => (await api.providersList({ project_id: projectId }, { signal })).providers,
  });
}

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

/** Add, change, remove and test project providers. */
export function useProviderMutations(projectId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: playgroundKeys.providers(projectId) }),
      queryClient.invalidateQueries({ queryKey: playgroundKeys.models(projectId) }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.prices(projectId) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (req: Omit<ReqOf<'providerCreate'>, 'project_id'>) => api.providerCreate({ ...req, project_id: projectId }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (providerId: string) => api.providerDelete({ project_id: projectId, provider_id: providerId }),
      onSuccess: refresh,
    }),
    test: useMutation({ mutationFn: (providerId: string) => api.providerTest({ project_id: projectId, provider_id: providerId }) }),
  };
}
