/**
 * Query keys of the monitors page. The activity list nests under the judges' project key, so
 * saving a monitor (a judge-like object) refreshes it.
 */
import { judgeKeys } from '../judges/judgeQueries.js';

export const monitorKeys = {
  all: ['monitors'] as const,
  ops: (projectId: string) => [...monitorKeys.all, projectId, 'ops'] as const,
  activity: (projectId: string) => [...judgeKeys.project(projectId), 'monitor-activity'] as const,
};
