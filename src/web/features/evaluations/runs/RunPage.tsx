/**
 * One evaluation run: its header, summary charts of every scorer, and the per-example results
 * (dataset values, output, scores, latency, tokens, cost), filterable to failures — any binary
 * score false, or a continuous score below a threshold — and sortable, all from the URL.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatInteger } from '../../../lib/format.js';
import { useUrlView } from '../../../lib/useUrlView.js';
import { runResultsRequest } from '../evalRequests.js';
import { runQueryOptions, runResultsQueryOptions, runSummaryQueryOptions } from '../evaluationQueries.js';
import { readRunView, writeRunView, type RunView } from '../evalViewState.js';
import { RunHeader } from './RunHeader.js';
import { RunResultsTable } from './RunResultsTable.js';
import { metricsOf } from '../scoreModel.js';
import '../evaluations.css';

/**
 * The charts are fetched and drawn after the results' first rows: recharts is most of this page's
 * code (370 KB) and of its rendering, and the rows must not wait for either (docs/performance.md).
 */
const ScoreCharts = lazy(() => import('./ScoreCharts.js').then((m) => ({ default: m.ScoreCharts })));

/** Run page. */
export function RunPage() {
  const { entity = '', project = '', runId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useUrlView<RunView>(readRunView, writeRunView);
  const run = useQuery(runQueryOptions({ projectId, runId }));
  const summaryQuery = useQuery(runSummaryQueryOptions({ projectId, runId }));
  const summary = summaryQuery.data?.summary?.evaluations[0];
  const metrics = useMemo(() => metricsOf(summary ? [summary] : []), [summary]);
  const req = useMemo(() => runResultsRequest({ runId, view, metrics }), [runId, view, metrics]);
  const list = useInfiniteQuery({
    ...runResultsQueryOptions({ projectId, req }),
    // Failures are defined by the run's scorers: wait for them before filtering.
    enabled: !view.failures || summaryQuery.isSuccess,
    placeholderData: keepPreviousData,
  });
  // Deferred: the render that shows the first rows leaves the charts out; they follow in a
  // background render.
  const showCharts = useDeferredValue(!list.isPending);

  if (run.error)
    return (
      <div className="page">
        <ErrorState error={run.error} onRetry={() => void run.refetch()} />
      </div>
    );
  if (!run.data)
    return (
      <div className="page-loading">
        <Spinner showLabel label="Loading run" />
      </div>
    );

  const total = list.data?.pages[0]?.total_rows;
  const canFilter = metrics.some((m) => m.type === 'binary') || (view.below !== null && metrics.some((m) => m.type === 'continuous'));
  const traceId = summary?.trace_id ?? runId;

  return (
    <div className="page calls-page eval-run-page">
      <RunHeader projectId={projectId} run={run.data} summary={summary} rowCount={summaryQuery.data?.total_rows} />
      {summaryQuery.error && <ErrorState error={summaryQuery.error} onRetry={() => void summaryQuery.refetch()} compact />}
      {showCharts && (
        <Suspense>
          <ScoreCharts projectId={projectId} runId={runId} summary={summary} metrics={metrics} />
        </Suspense>
      )}
      <div className="toolbar-wrap toolbar" role="group" aria-label="Result filters">
        <label className="toggle">
          <input type="checkbox" checked={view.failures} onChange={(e) => update({ failures: e.target.checked })} />
          Failures only
        </label>
        <label className="eval-filter" title="Continuous scores below this count as failures">
          <span className="muted">continuous below</span>
          <input
            className="input eval-threshold"
            type="number"
            step="0.05"
            aria-label="Continuous score threshold"
            placeholder="off"
            value={view.below ?? ''}
            onChange={(e) => (e.target.value === '' ? update({ below: null }) : update({ below: Number(e.target.value), failures: true }))}
          />
        </label>
        {view.failures && !canFilter && summaryQuery.isSuccess && (
          <span className="muted small">No binary scores: set a threshold to find failures.</span>
        )}
        {view.sort && (
          <button type="button" className="button small ghost" onClick={() => update({ sort: null })}>
            Default order
          </button>
        )}
        <span className="spacer" />
        <span className="muted" aria-live="polite">
          {view.failures && total !== undefined && summaryQuery.data
            ? `${formatInteger(total)} of ${formatInteger(summaryQuery.data.total_rows)} rows`
            : ''}
        </span>
        {list.isFetching && <Spinner label="Updating results" />}
      </div>
      {list.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading results" />
        </div>
      ) : (
        <RunResultsTable
          key={JSON.stringify(req)}
          list={list}
          runId={runId}
          traceId={traceId}
          metrics={metrics}
          sort={view.sort}
          onSortChange={(sort) => update({ sort })}
          empty={
            <div className="empty-state">
              <p>{view.failures ? 'No failures in this run.' : 'This run has no results yet.'}</p>
            </div>
          }
        />
      )}
    </div>
  );
}
