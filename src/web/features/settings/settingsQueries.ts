/**
 * Settings data through react-query: a project's LLM prices, the signed-in user's API keys and
 * (for admins) the users, plus the writes the settings page makes. Writes invalidate by key
 * prefix; new prices also mark the project's calls stale, since their costs change.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api } from '../../lib/api.js';
import { authKeys } from '../auth/authQueries.js';
import { callKeys } from '../../entities/calls/callQueries.js';
import { modelKeys } from '../../entities/models/modelQueries.js';

/** Query keys for settings. */
export const settingsKeys = {
  all: ['settings'] as const,
  prices: (projectId: string) => [...settingsKeys.all, 'prices', projectId] as const,
  apiKeys: () => [...settingsKeys.all, 'apiKeys'] as const,
  users: () => [...settingsKeys.all, 'users'] as const,
  redaction: (projectId: string) => [...settingsKeys.all, 'redaction', projectId] as const,
  /** One page of the audit log: its filter and the cursor it starts at (auditQueries.ts). */
  audit: (filter: Record<string, string>, cursor: string | null) => [...settingsKeys.all, 'audit', filter, cursor] as const,
};

/** Every price that can apply to the project's calls (its own and the defaults). */
export function pricesQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: settingsKeys.prices(projectId),
    queryFn: async ({ signal }) => (await api.pricesList({ project_id: projectId }, { signal })).prices,
  });
}

/** The signed-in user's API keys, oldest first. */
export function apiKeysQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.apiKeys(),
    queryFn: async ({ signal }) => (await api.apiKeysList({}, { signal })).keys,
  });
}

/** The users the caller manages: everyone for admins, the members of their entities for entity admins. */
export function usersQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.users(),
    queryFn: async ({ signal }) => (await api.usersList({}, { signal })).users,
  });
}

/** A price to add, in USD per million tokens as providers publish them. */
export interface PriceInput {
  llmId: string;
  providerId: string;
  promptPerMillion: number;
  completionPerMillion: number;
  /** `YYYY-MM-DD`, or empty for "from now". */
  effectiveDate: string;
}

/** Add and delete project prices. */
export function usePriceMutations(projectId: string) {
  const queryClient = useQueryClient();
  const onSuccess = async () => {
    void queryClient.invalidateQueries({ queryKey: callKeys.project(projectId), refetchType: 'none' });
    await queryClient.invalidateQueries({ queryKey: settingsKeys.prices(projectId) });
  };
  const add = useMutation({
    mutationFn: (p: PriceInput) =>
      api.costCreate({
        project_id: projectId,
        costs: {
          [p.llmId]: {
            prompt_token_cost: p.promptPerMillion / 1e6,
            completion_token_cost: p.completionPerMillion / 1e6,
            provider_id: p.providerId || null,
            effective_date: p.effectiveDate ? `${p.effectiveDate}T00:00:00Z` : null,
          },
        },
      }),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      api.costPurge({ project_id: projectId, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } } }),
    onSuccess,
  });
  return { add, remove };
}

/** Create and revoke the signed-in user's API keys. */
export function useApiKeyMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() });
  const create = useMutation({ mutationFn: (name: string) => api.apiKeyCreate({ name }), onSuccess });
  const revoke = useMutation({ mutationFn: (keyId: string) => api.apiKeyRevoke({ key_id: keyId }), onSuccess });
  return { create, revoke };
}

/** Create users (admins). */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: ReqOf<'userCreate'>) => api.userCreate(req),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.users() }),
  });
}

/**
 * Set or remove a user's role in an entity or one project (`role: null` removes it). Changing
 * your own role changes what you may do, so whoami (the dashboard's permissions) refreshes too.
 */
export function useSetRole(me: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: ReqOf<'userRoleSet'>) => api.userRoleSet(req),
    onSuccess: async (_res, req) => {
      if (req.username === me) void queryClient.invalidateQueries({ queryKey: authKeys.whoami() });
      await queryClient.invalidateQueries({ queryKey: settingsKeys.users() });
    },
  });
}

/** Choose the signed-in user's default entity; whoami and the user list carry it, so both refresh. */
export function useSetDefaultEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entity: string) => api.defaultEntitySet({ entity }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users() });
      await queryClient.invalidateQueries({ queryKey: authKeys.whoami() });
    },
  });
}

/** Add, change, remove and test project providers; they change the models offered and the prices. */
export function useProviderMutations(projectId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: modelKeys.providers(projectId) }),
      queryClient.invalidateQueries({ queryKey: modelKeys.offered(projectId) }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.prices(projectId) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (req: Omit<ReqOf<'providerCreate'>, 'project_id'>) => api.providerCreate({ ...req, project_id: projectId }),
      // Not awaited: the form clears its API key on success, which waited for three refetches
      // before; meanwhile the new provider could show in the list beside the key still typed.
      onSuccess: () => void refresh(),
    }),
    remove: useMutation({
      mutationFn: (providerId: string) => api.providerDelete({ project_id: projectId, provider_id: providerId }),
      onSuccess: refresh,
    }),
    test: useMutation({ mutationFn: (providerId: string) => api.providerTest({ project_id: projectId, provider_id: providerId }) }),
  };
}

/** Query keys for retention rules, under the settings keys. */
export const retentionKeys = {
  all: [...settingsKeys.all, 'retention'] as const,
  project: (projectId: string) => [...retentionKeys.all, 'project', projectId] as const,
};

/** The retention rule in force for a project, with its own rule and its entity's default. */
export function retentionQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: retentionKeys.project(projectId),
    queryFn: async ({ signal }) => api.retentionRead({ project_id: projectId }, { signal }),
  });
}

/** Set or remove a project's rule or an entity's default; every retention key is refetched. */
export function useSetRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: ReqOf<'retentionSet'>) => api.retentionSet(req),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}
