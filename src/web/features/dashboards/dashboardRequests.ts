/** The requests a dashboard view stands for; the loader and the page build the same ones. */
import type { DashboardView } from './dashboardViewState.js';
import { browserTimeZone, resolveWindow } from './dashboardViewState.js';
import { opNamesFilter, type CallStatsRequest } from './dashboardQueries.js';

/** `/calls/stats` for the view: requests, errors, latency percentiles, tokens and cost per model. */
export function toCallStatsRequest({ projectId, view, now }: { projectId: string; view: DashboardView; now: number }): CallStatsRequest {
  const { start, end, granularity } = resolveWindow({ view, now });
  return {
    project_id: projectId,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    granularity,
    timezone: browserTimeZone(),
    filter: {
      ...(view.op ? { op_names: opNamesFilter({ projectId, op: view.op }) } : {}),
      ...(view.rootsOnly ? { trace_roots_only: true } : {}),
    },
    call_metrics: [
      { metric: 'call_count', aggregations: ['sum'] },
      { metric: 'error_count', aggregations: ['sum'] },
      { metric: 'latency_ms', percentiles: [50, 95, 99] },
    ],
    usage_metrics: [
      { metric: 'total_tokens', aggregations: ['sum'] },
      { metric: 'total_cost', aggregations: ['sum'] },
    ],
  };
}
