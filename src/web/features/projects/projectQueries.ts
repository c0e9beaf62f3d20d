/** Projects the user can see, from `POST /service/projects_info`. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** Query keys for projects. */
export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
};

/** Every visible project with its call count and last activity, most recently active first. */
export function projectsQueryOptions() {
  return queryOptions({
    queryKey: projectKeys.list(),
    queryFn: async ({ signal }) => {
      const projects = await api.projectsInfo({}, { signal });
      return [...projects].sort((a, b) => (b.last_activity ?? '').localeCompare(a.last_activity ?? ''));
    },
  });
}
