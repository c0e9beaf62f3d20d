/**
 * The `/calls/stats` request behind the calls table header's figures (count, error rate,
 * latency p50/p95/p99 of the current filter), or null when the filter has clauses that
 * `/calls/stats` cannot express (it takes a time window, op names and trace roots, no query).
 */
import type { ReqOf } from '../../../contract/endpoints.js';
import { opNamesFilter } from '../dashboards/dashboardQueries.js';
import type { CallsViewState } from '../../entities/calls/callsViewState.js';
import { resolveDateTime } from '../../entities/calls/filterModel.js';
import { callsFilterOf } from '../../entities/calls/listRequest.js';

/** Start of "any time": before any trace could have been written. */
const EPOCH = Date.UTC(2000, 0, 1);

/**
 * Stats request for a calls view, with one bucket over the whole window. Buckets align to
 * multiples of the granularity (from the epoch, in the time zone), so a granularity of the
 * window's span could still cut it in two; one longer than the time since the epoch (plus a
 * day for the zone's offset) puts the only boundary before the window.
 */
export function toCallsStatsRequest({
  projectId,
  view,
  now,
}: {
  projectId: string;
  view: CallsViewState;
  now: number;
}): ReqOf<'callStats'> | null {
  let start = view.since ? Date.parse(resolveDateTime(view.since, now) ?? '') : EPOCH;
  let end = Math.ceil(now / 60_000) * 60_000;
  const ops: string[] = [];
  for (const c of view.clauses) {
    const iso = c.field === 'started_at' ? resolveDateTime(c.value, now) : null;
    if (iso && c.op === 'gte') start = Math.max(start, Date.parse(iso));
    else if (iso && c.op === 'lt') end = Math.min(end, Date.parse(iso));
    else if (c.field === 'op_name' && c.op === 'eq' && c.value.trim()) ops.push(c.value.trim());
    else return null;
  }
  // Two different op names both required match nothing; leave that to the table.
  if (new Set(ops).size > 1 || !Number.isFinite(start) || end <= start) return null;
  return {
    project_id: projectId,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    granularity: Math.floor(end / 1000) + 2 * 86_400,
    // The list's own filter, so the figures describe exactly the calls the table shows.
    filter: { ...(ops[0] ? { op_names: opNamesFilter({ projectId, op: ops[0] }) } : {}), ...callsFilterOf(view) },
    call_metrics: [
      { metric: 'call_count', aggregations: ['sum'] },
      { metric: 'error_count', aggregations: ['sum'] },
      { metric: 'latency_ms', percentiles: [50, 95, 99] },
    ],
  };
}
