/** A project's redaction rules (Settings → Redaction), through the settings key factory. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { settingsKeys } from './settingsQueries.js';

/** The rules in force in the project: its entity's and its own. */
export function redactionQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: settingsKeys.redaction(projectId),
    queryFn: async ({ signal }) => (await api.redactionList({ project_id: projectId }, { signal })).rules,
  });
}

export interface RedactionRuleInput {
  key?: string;
  pattern?: string;
  label?: string;
}

/** Add a rule to the project, or remove one. */
export function useRedactionMutations(projectId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: settingsKeys.redaction(projectId) });
  const add = useMutation({ mutationFn: (rule: RedactionRuleInput) => api.redactionAdd({ project_id: projectId, ...rule }), onSuccess });
  const remove = useMutation({ mutationFn: (id: string) => api.redactionDelete({ rule_id: id }), onSuccess });
  return { add, remove };
}
