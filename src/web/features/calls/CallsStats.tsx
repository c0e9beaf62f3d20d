/**
 * Figures of the current filter beside the calls table's title: error rate and latency
 * p50/p95/p99 from one `/calls/stats` bucket over the filter's window. Filters that
 * `/calls/stats` cannot express keep the count only and say so.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReqOf } from '../../../contract/endpoints.js';
import { formatDuration } from '../../lib/format.js';
import { callStatsQueryOptions } from '../dashboards/dashboardQueries.js';
import { toCallsStatsRequest } from './callsStatsRequest.js';
import type { CallsViewState } from '../../entities/calls/callsViewState.js';
import './calls.css';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Error rate and latency percentiles of the calls the view shows. */
export function CallsStats({ projectId, view }: { projectId: string; view: CallsViewState }) {
  // "Now" moves only when the view changes, so the request (and its cache key) is stable.
  const req = useMemo(() => toCallsStatsRequest({ projectId, view, now: Date.now() }), [projectId, view]);
  if (req === null) {
    return <span className="muted small calls-stats">Error rate and latency need a simpler filter (time, op name)</span>;
  }
  return <StatsFigures req={req} />;
}

/** The figures of one stats request. */
function StatsFigures({ req }: { req: ReqOf<'callStats'> }) {
  const stats = useQuery(callStatsQueryOptions(req));
  const bucket = stats.data?.call_buckets[0];
  if (!bucket) return null;
  const count = num(bucket.sum_call_count) ?? 0;
  const errors = num(bucket.sum_error_count) ?? 0;
  if (count === 0) return null;
  const latency = (key: string) => {
    const v = num(bucket[key]);
    return v === null ? '—' : formatDuration(v);
  };
  return (
    <span className="muted small calls-stats" aria-label="Statistics of these calls">
      <span>{((100 * errors) / count).toFixed(errors > 0 && errors < count / 10 ? 1 : 0)}% errors</span>
      <span>p50 {latency('p50_latency_ms')}</span>
      <span>p95 {latency('p95_latency_ms')}</span>
      <span>p99 {latency('p99_latency_ms')}</span>
    </span>
  );
}
