/** Query keys of the alerts page: rules and history nest under the project's key, so one change refreshes both. */
export const alertKeys = {
  all: ['alerts'] as const,
  project: (projectId: string) => [...alertKeys.all, projectId] as const,
  rules: (projectId: string) => [...alertKeys.project(projectId), 'rules'] as const,
  events: (projectId: string) => [...alertKeys.project(projectId), 'events'] as const,
};
