/**
 * The models a project can use and its providers: the playground, judges, monitors, evaluations
 * and settings all read them, so they sit below the features. Provider writes live in settings.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

export const modelKeys = {
  all: ['models'] as const,
  project: (projectId: string) => [...modelKeys.all, projectId] as const,
  offered: (projectId: string) => [...modelKeys.project(projectId), 'offered'] as const,
  providers: (projectId: string) => [...modelKeys.project(projectId), 'providers'] as const,
};

/** Every model the project can use, with what to configure when none. */
export function modelsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: modelKeys.offered(projectId),
    queryFn: ({ signal }) => api.modelsList({ project_id: projectId }, { signal }),
  });
}

/** The project's providers and the instance-wide ones (keys masked). */
export function providersQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: modelKeys.providers(projectId),
    queryFn: async ({ signal }) => (await api.providersList({ project_id: projectId }, { signal })).providers,
  });
}
