/**
 * Compare runs (`?runs=a,b,c&baseline=a`): summary metrics with deltas against the baseline, a
 * warning when the runs used different datasets or scorers, and the example table aligned by
 * dataset row with every run's output and scores side by side, optionally only the rows where the
 * runs disagree, sorted by the largest difference (eval_results' "difference" sort). A chart per
 * scorer shows the runs side by side; the row view (`?row=`), a panel over the page, reads one row
 * of the baseline and a compared run (`?vs=`). The baseline defaults to the oldest run, the compared
 * run to the first other one.
 */
import { keepPreviousData, useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatInteger } from '../../../lib/format.js';
import { useUrlView } from '../../../lib/useUrlView.js';
import type { CompareTableRow } from './compareColumns.js';
import { rowDiffers, toCompareRows } from './compareModel.js';
import { CompareRowView } from './CompareRowView.js';
import { CompareSummary, type CompareRunFigures } from './CompareSummary.js';
import { CompareTable } from './CompareTable.js';
import { CompareToolbar } from './CompareToolbar.js';
import { refLabel, versionIndexByRef } from '../evalRefs.js';
import { compareQueryOptions } from '../evalRequests.js';
import {
  evaluationObjectsQueryOptions,
  modelObjectsQueryOptions,
  ROWS_LIMIT,
  runQueryOptions,
  type EvaluationRun,
} from '../evaluationQueries.js';
import { readCompareView, writeCompareView, type CompareView } from '../evalViewState.js';
import { metricsOf } from '../scoreModel.js';
import { SetupWarning } from '../SetupWarning.js';
import '../evaluations.css';

/**
 * The charts are fetched and drawn after the table's first rows: recharts is most of this page's
 * code (370 KB) and of its rendering, and the rows must not wait for either (docs/performance.md).
 */
const CompareCharts = lazy(() => import('./CompareCharts.js').then((m) => ({ default: m.CompareCharts })));

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The run that started first (null until the runs are read). */
function oldestRun(runIds: readonly string[], runs: readonly (EvaluationRun | undefined)[]): string | null {
  let best: { id: string; at: number } | null = null;
  runIds.forEach((id, i) => {
    // By time, not text (lib/format.ts newerFirst says why).
    const at = Date.parse(runs[i]?.started_at ?? '');
    if (!Number.isNaN(at) && (!best || at < best.at)) best = { id, at };
  });
  return (best as { id: string } | null)?.id ?? runIds[0] ?? null;
}

/** Module-level, so react-query keeps the combined array stable while the answers do not change. */
const combineRuns = (results: UseQueryResult<EvaluationRun>[]) => ({
  data: results.map((r) => r.data),
  error: results.find((r) => r.error)?.error ?? null,
});

/** Compare page. */
export function ComparePage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useUrlView<CompareView>(readCompareView, writeCompareView);
  const { runIds } = view;
  const runs = useQueries({ queries: runIds.map((runId) => runQueryOptions({ projectId, runId })), combine: combineRuns });
  // The baseline the URL names, else the oldest run: the one later runs are measured against.
  const baselineId = view.baseline ?? oldestRun(runIds, runs.data) ?? '';
  // The run read against it: the URL's, else the first other run.
  const comparedId = (view.against !== baselineId ? view.against : null) ?? runIds.find((id) => id !== baselineId) ?? '';
  const models = useQuery(modelObjectsQueryOptions(projectId));
  const evaluations = useQuery(evaluationObjectsQueryOptions(projectId));
  // The rows and the summaries in one request (evalRequests.ts says why).
  const rowsQuery = useQuery({
    ...compareQueryOptions({ projectId, runIds, sort: view.sort }),
    enabled: runIds.length > 1,
    placeholderData: keepPreviousData,
  });
  // Deferred: the render that shows the first rows leaves the charts out; they follow in a
  // background render.
  const showCharts = useDeferredValue(!rowsQuery.isPending);

  const summaries = rowsQuery.data?.summary?.evaluations;
  const metrics = useMemo(() => metricsOf(summaries ?? []), [summaries]);
  const allRows = useMemo(() => toCompareRows(rowsQuery.data?.rows ?? []), [rowsQuery.data]);
  const versions = useMemo(
    () => new Map([...versionIndexByRef(projectId, evaluations.data ?? []), ...versionIndexByRef(projectId, models.data ?? [])]),
    [projectId, evaluations.data, models.data],
  );

  const figures: CompareRunFigures[] = useMemo(() => {
    // Runs of different evaluations say which one, or two runs of one model would read the same.
    const mixed = new Set(runs.data.map((r) => r?.evaluation)).size > 1;
    return runIds.map((id, i) => {
      const run = runs.data[i];
      const trials = allRows.flatMap((r) => r.trials.get(id) ?? []);
      const latencies = trials.flatMap((t) => t.model_latency_seconds ?? []);
      const s = summaries?.find((e) => e.evaluation_call_id === id);
      const complete = (rowsQuery.data?.total_rows ?? Infinity) <= ROWS_LIMIT;
      const model = run ? refLabel(run.model, versions.get(run.model)) : id.slice(0, 8);
      return {
        id,
        letter: LETTERS[i] ?? String(i + 1),
        traceId: s?.trace_id ?? id,
        label: run && mixed ? `${model} · ${refLabel(run.evaluation, versions.get(run.evaluation))}` : model,
        summary: s,
        rowCount: complete && rowsQuery.data ? allRows.filter((r) => r.trials.has(id)).length : null,
        meanLatencySeconds: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
      };
    });
  }, [runIds, runs, allRows, summaries, versions, rowsQuery.data]);

  const rows: CompareTableRow[] = useMemo(() => {
    const kept = view.diffOnly ? allRows.filter((r) => rowDiffers(r, runIds, metrics)) : allRows;
    return kept.map((r, i) => ({ ...r, position: i + 1 }));
  }, [allRows, view.diffOnly, runIds, metrics]);

  const rowIndex = view.row ? rows.findIndex((r) => r.rowDigest === view.row) : -1;
  const navigate = useNavigate();
  // Opening the row view from the table makes a history entry, so Back closes it; walking rows
  // replaces that entry. Esc goes back to the table's entry too, unless the view changed meanwhile
  // (another compared run, say): then it only drops `row`, keeping the change.
  const openedFrom = useRef<string | null>(null);
  const viewKey = JSON.stringify({ ...view, row: null });
  const openFromTable = useCallback(
    (row: CompareTableRow) => {
      openedFrom.current = viewKey;
      update({ row: row.rowDigest }, { push: true });
    },
    [update, viewKey],
  );
  // Walks go from the row last walked to: a second p or n can come before the URL's re-render,
  // and reading the rendered row then lost it.
  const walkedTo = useRef(rowIndex);
  useLayoutEffect(() => {
    walkedTo.current = rowIndex;
  }, [rowIndex]);
  const walk = (delta: number) => {
    const to = walkedTo.current + delta;
    if (to < 0 || to >= rows.length) return;
    walkedTo.current = to;
    update({ row: rows[to]!.rowDigest });
  };
  // Back only once the opening entry exists: an Esc before the router has landed it would go
  // back past the table; replacing then drops the row from the entry the router is making.
  const landed = readCompareView(new URLSearchParams(useLocation().search)).row !== null;
  const closeRow = () => {
    if (openedFrom.current === viewKey && landed) void navigate(-1);
    else update({ row: null });
  };
  useEffect(() => {
    if (rowIndex < 0) openedFrom.current = null;
  }, [rowIndex]);
  /** Picks a side; picking the other side's run swaps them, so the two always differ. */
  const pick = (side: 'baseline' | 'compared', runId: string) => {
    if (side === 'baseline') update(runId === comparedId ? { baseline: runId, against: baselineId } : { baseline: runId });
    else update(runId === baselineId ? { baseline: comparedId, against: runId } : { against: runId });
  };

  if (runIds.length < 2) {
    return (
      <div className="page">
        <div className="empty-state">
          <p>Pick two or more runs to compare on the Evaluations page.</p>
          <Link className="button" to={`/${entity}/${project}/evaluations`}>
            Go to Evaluations
          </Link>
        </div>
      </div>
    );
  }

  const setupRuns = figures.flatMap((f, i) => {
    const run = runs.data[i];
    return run ? [{ id: f.id, letter: f.letter, evaluation: run.evaluation }] : [];
  });
  const total = rowsQuery.data?.total_rows;

  return (
    <div className="page eval-compare-page">
      <header className="page-header">
        <Link className="button ghost" to={`/${entity}/${project}/evaluations`}>
          ← Evaluations
        </Link>
        <h1>Compare {runIds.length} runs</h1>
        {rowsQuery.isFetching && <Spinner label="Updating" />}
      </header>
      {runs.error && <ErrorState error={runs.error} compact />}
      <SetupWarning projectId={projectId} runs={setupRuns} />
      {rowsQuery.data && (
        <>
          <CompareSummary runs={figures} baselineId={baselineId} metrics={metrics} />
          {showCharts && (
            <Suspense>
              <CompareCharts runs={figures} baselineId={baselineId} metrics={metrics} />
            </Suspense>
          )}
        </>
      )}
      <CompareToolbar
        view={{ ...view, baseline: baselineId, against: comparedId }}
        update={update}
        onPick={pick}
        runs={figures}
        metrics={metrics}
        counts={rowsQuery.data ? { shown: rows.length, total: allRows.length } : null}
      />
      {(rowsQuery.data?.warnings.length ?? 0) > 0 && <p className="muted small">{rowsQuery.data!.warnings.join(' ')}</p>}
      {total !== undefined && total > ROWS_LIMIT && (
        <p className="muted small">
          Showing the first {formatInteger(ROWS_LIMIT)} of {formatInteger(total)} rows.
        </p>
      )}
      {rowsQuery.error ? (
        <ErrorState error={rowsQuery.error} onRetry={() => void rowsQuery.refetch()} />
      ) : rowsQuery.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading results" />
        </div>
      ) : (
        <CompareTable
          rows={rows}
          runs={figures}
          baselineId={baselineId}
          comparedId={comparedId}
          metrics={metrics}
          sort={view.sort}
          onSortChange={(sort) => update({ sort })}
          openIndex={rowIndex}
          onOpenRow={openFromTable}
          empty={
            <div className="empty-state">
              <p>{view.diffOnly ? 'The runs agree on every row.' : 'These runs have no results yet.'}</p>
            </div>
          }
        />
      )}
      {rowIndex >= 0 && (
        <CompareRowView
          row={rows[rowIndex]!}
          total={rows.length}
          runs={figures}
          baselineId={baselineId}
          comparedId={comparedId}
          metrics={metrics}
          marks={view.marks}
          onMarks={(marks) => update({ marks })}
          onPick={pick}
          onPrev={rowIndex > 0 ? () => walk(-1) : null}
          onNext={rowIndex < rows.length - 1 ? () => walk(1) : null}
          onClose={closeRow}
        />
      )}
    </div>
  );
}
