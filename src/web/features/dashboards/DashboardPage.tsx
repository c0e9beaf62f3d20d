/**
 * The project dashboard: requests, error rate, latency percentiles, tokens and cost per model,
 * and feedback over a time range, bucketed in the browser's time zone by `/calls/stats`.
 * Clicking a bucket of the request, error or latency charts opens the calls table filtered to
 * that bucket's time window (and op).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatCompact, formatCost, formatDuration, formatInteger } from '../../lib/format.js';
import { callsWindowHref, sumOf, toCallRows, toModelRows } from './dashboardModel.js';
import { callStatsQueryOptions } from './dashboardQueries.js';
import { toCallStatsRequest } from './dashboardRequests.js';
import { resolveWindow, roundedNow, useDashboardView } from './dashboardViewState.js';
import { DashboardToolbar } from './DashboardToolbar.js';
import { FeedbackCharts } from './FeedbackCharts.js';
import './dashboards.css';

const formatPercent = (v: number) => `${v.toFixed(v > 0 && v < 10 ? 1 : 0)}%`;
/** `5 min`, `6 h`, `1 d`: a bucket width. */
const formatWidth = (s: number) =>
  s < 3600 ? `${Math.round(s / 60)} min` : s < 86_400 ? `${+(s / 3600).toFixed(1)} h` : `${+(s / 86_400).toFixed(1)} d`;

/** Dashboards page. */
export function DashboardPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useDashboardView();
  const navigate = useNavigate();
  // "Now" is recomputed only when the view changes, so the request (and its cache key) is stable.
  const { req, range } = useMemo(() => {
    const now = roundedNow();
    return { req: toCallStatsRequest({ projectId, view, now }), range: resolveWindow({ view, now }) };
  }, [projectId, view]);
  const stats = useQuery({ ...callStatsQueryOptions(req), placeholderData: keepPreviousData });
  const data = stats.data;

  const calls = useMemo(() => (data ? toCallRows(data) : []), [data]);
  const tokens = useMemo(() => (data ? toModelRows(data, 'sum_total_tokens') : { rows: [], models: [] }), [data]);
  const cost = useMemo(() => (data ? toModelRows(data, 'sum_total_cost') : { rows: [], models: [] }), [data]);

  const requests = sumOf(calls, (r) => r.requests);
  const errors = sumOf(calls, (r) => r.errors);
  const granularity = data?.granularity ?? 3600;
  const openBucket = (t: number) =>
    navigate(
      callsWindowHref({
        projectId,
        from: Math.max(t, range.start),
        to: Math.min(t + granularity * 1000, range.end),
        op: view.op,
        rootsOnly: view.rootsOnly,
      }),
    );
  const clickHint = 'Click to see these calls';
  const modelSeries = (models: string[]) => models.map((m) => ({ key: m, label: m }));

  return (
    <div className="page dashboard-page">
      <header className="page-header">
        <h1>Dashboards</h1>
        {stats.isFetching && <Spinner label="Updating" />}
      </header>
      <DashboardToolbar projectId={projectId} view={view} update={update} range={range} />
      {stats.error ? (
        <ErrorState error={stats.error} />
      ) : !data ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading statistics" />
        </div>
      ) : (
        <>
          <dl className="dashboard-totals" aria-label="Totals in range">
            <div>
              <dt>{view.rootsOnly ? 'Traces' : 'Calls'}</dt>
              <dd>{formatInteger(requests)}</dd>
            </div>
            <div>
              <dt>Error rate</dt>
              <dd>{requests ? formatPercent((100 * errors) / requests) : '—'}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{formatCompact(tokens.rows.reduce((s, r) => s + tokens.models.reduce((m, k) => m + (r[k] ?? 0), 0), 0))}</dd>
            </div>
            <div>
              <dt>Cost</dt>
              <dd>{formatCost(cost.rows.reduce((s, r) => s + cost.models.reduce((m, k) => m + (r[k] ?? 0), 0), 0))}</dd>
            </div>
            <div>
              <dt>Buckets</dt>
              <dd>
                {formatInteger(calls.length)} × {formatWidth(granularity)}
              </dd>
            </div>
          </dl>
          <div className="dashboard-grid">
            <TimeSeriesChart
              title="Requests"
              summary={`${formatInteger(requests)} in range`}
              rows={calls.map((r) => ({ t: r.t, requests: r.requests }))}
              series={[{ key: 'requests', label: view.rootsOnly ? 'Traces' : 'Calls' }]}
              kind="bar"
              granularity={granularity}
              format={formatInteger}
              integer
              onBucketClick={openBucket}
              clickHint={clickHint}
            />
            <TimeSeriesChart
              title="Error rate"
              summary={`${formatInteger(errors)} errors`}
              rows={calls.map((r) => ({ t: r.t, errorRate: r.errorRate, errors: r.errors }))}
              series={[{ key: 'errorRate', label: 'Error rate' }]}
              kind="line"
              granularity={granularity}
              format={formatPercent}
              onBucketClick={openBucket}
              clickHint={clickHint}
            />
            <TimeSeriesChart
              title="Latency"
              summary="p50 · p95 · p99"
              rows={calls.map((r) => ({ t: r.t, p50: r.p50, p95: r.p95, p99: r.p99 }))}
              series={[
                { key: 'p50', label: 'p50' },
                { key: 'p95', label: 'p95' },
                { key: 'p99', label: 'p99' },
              ]}
              kind="line"
              granularity={granularity}
              format={formatDuration}
              onBucketClick={openBucket}
              clickHint={clickHint}
            />
            <TimeSeriesChart
              title="Tokens by model"
              rows={tokens.rows}
              series={modelSeries(tokens.models)}
              kind="stacked"
              granularity={granularity}
              format={formatCompact}
              integer
              empty={view.rootsOnly ? 'No token usage on trace roots in range (try without "Trace roots only")' : 'No token usage in range'}
            />
            <TimeSeriesChart
              title="Cost by model"
              rows={cost.rows}
              series={modelSeries(cost.models)}
              kind="stacked"
              granularity={granularity}
              format={formatCost}
              empty="No priced usage in range (set model prices in Settings)"
            />
            <FeedbackCharts projectId={projectId} start={data.start} end={data.end} granularity={granularity} timezone={data.timezone} />
          </div>
        </>
      )}
    </div>
  );
}
