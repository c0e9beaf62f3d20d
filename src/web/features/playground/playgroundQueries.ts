/**
 * Playground data through react-query: a call or a prompt version to prefill from, running a
 * completion, and saving the edited prompt as a version (docs/prompts.md "In the playground").
 * The models it offers come from entities/models, which the judges and settings read too.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { HttpError } from '../../../client/index.js';
import { api } from '../../lib/api.js';
import { callKeys } from '../../entities/calls/callQueries.js';
import { objectKeys } from '../objects/objectQueries.js';
import { promptKeys } from '../prompts/promptQueries.js';

export const playgroundKeys = {
  all: ['playground'] as const,
  call: (projectId: string, id: string) => [...playgroundKeys.all, 'call', projectId, id] as const,
  prompt: (projectId: string, objectId: string, version: string) =>
    [...playgroundKeys.all, 'prompt', projectId, objectId, version] as const,
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

/**
 * The prompt version to open; `version` is a digest, an alias or `latest`. Null when none is
 * named or it does not exist (deleted, or a call's ref from elsewhere): the page says so.
 */
export function prefillPromptQueryOptions(projectId: string, objectId: string | null, version: string | null) {
  return queryOptions({
    queryKey: playgroundKeys.prompt(projectId, objectId ?? '', version ?? 'latest'),
    queryFn: async ({ signal }) => {
      if (!objectId) return null;
      try {
        return (await api.objRead({ project_id: projectId, object_id: objectId, digest: version ?? 'latest' }, { signal })).obj;
      } catch (e) {
        if (e instanceof HttpError && e.status === 404) return null;
        throw e;
      }
    },
  });
}

/** Saves a prompt value as a version of `objectId`; the prompt and object lists go stale. */
export function useSavePrompt(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ objectId, val }: { objectId: string; val: Record<string, unknown> }) => {
      const before = await api.objsQuery({ project_id: projectId, filter: { object_ids: [objectId] }, metadata_only: true });
      const { digest } = await api.objCreate({ obj: { project_id: projectId, object_id: objectId, val } });
      // Equal values share a digest: saving a prompt a version already holds makes no new one.
      const { obj } = await api.objRead({ project_id: projectId, object_id: objectId, digest });
      return { objectId, digest, versionIndex: obj.version_index, unchanged: before.objs.some((o) => o.digest === digest) };
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: objectKeys.project(projectId) }),
        queryClient.invalidateQueries({ queryKey: promptKeys.project(projectId) }),
      ]),
  });
}
