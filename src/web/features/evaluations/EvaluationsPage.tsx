/**
 * The Evaluations page: a project's evaluation runs (API runs and SDK evaluations) with their
 * evaluation, model, status, timing, row count and each scorer's aggregate; filtered by
 * evaluation, model and status, sorted by any column, all from the URL. Two or more selected
 * runs open the compare page.
 */
import type { RowSelectionState } from '@tanstack/react-table';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatInteger } from '../../lib/format.js';
import { useUrlView } from '../../lib/useUrlView.js';
import { RUNS_LIMIT } from './evaluationQueries.js';
import { readRunsView, writeRunsView, type RunsView } from './evalViewState.js';
import { optionsOf } from './runs/runRows.js';
import { RunEvaluationPanel } from './RunEvaluationPanel.js';
import { RunsTable } from './runs/RunsTable.js';
import { useRunRows } from './runs/useRunRows.js';
import { useCan } from '../auth/useCan.js';
import './evaluations.css';
import { SavedViewsButton } from '../savedViews/SavedViewsButton.js';
import { useDefaultView } from '../savedViews/useDefaultView.js';

/** Evaluations page. */
export function EvaluationsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const navigate = useNavigate();
  const [view, update] = useUrlView<RunsView>(readRunsView, writeRunsView);
  const { runs, all, rows, metrics, statsLoading } = useRunRows(projectId, view);
  const [selection, setSelection] = useState<RowSelectionState>({});
  // A dataset page's "Run evaluation on this version" arrives with `?dataset=<ref>` and the launcher open.
  const [searchParams] = useSearchParams();
  const datasetRef = searchParams.get('dataset');
  const [launching, setLaunching] = useState(datasetRef !== null);
  const launch = useCan(projectId)('evaluateModel');
  // A fresh visit opens the project's default view (docs/saved-views.md).
  useDefaultView(projectId, 'weft.evaluations');
  const selected = Object.keys(selection).filter((id) => selection[id]);
  const filtered = view.evaluation !== null || view.model !== null || view.status !== null;

  const compare = () => {
    // Oldest first, whatever order they were ticked in: the baseline is the run the others are
    // measured against, so a newer run's regression reads as one.
    const startOf = new Map(all.map((r) => [r.run.evaluation_run_id, r.run.started_at]));
    const ids = [...selected].sort((a, b) => Date.parse(startOf.get(a) ?? '') - Date.parse(startOf.get(b) ?? ''));
    const params = new URLSearchParams({ runs: ids.join(','), baseline: ids[0]! });
    void navigate(`/${entity}/${project}/evaluations/compare?${params}`);
  };

  return (
    <div className="page calls-page">
      <header className="page-header">
        <h1>Evaluations</h1>
        <span className="muted" aria-live="polite">
          {runs.data && all.length > 0 ? `${formatInteger(rows.length)}${filtered ? ` of ${formatInteger(all.length)}` : ''} runs` : ''}
        </span>
        {(runs.isFetching || statsLoading) && <Spinner label="Updating" />}
        <span className="spacer" />
        <SavedViewsButton viewType="weft.evaluations" />
        <button
          type="button"
          className="button"
          aria-expanded={launching}
          disabled={!launch.allowed}
          title={launch.reason ?? undefined}
          onClick={() => setLaunching((l) => !l)}
        >
          Run evaluation
        </button>
        {all.length > 0 && (
          <button
            type="button"
            className="button primary"
            disabled={selected.length < 2}
            onClick={compare}
            title={selected.length < 2 ? 'Select two or more runs' : undefined}
          >
            Compare{selected.length ? ` (${selected.length})` : ''}
          </button>
        )}
      </header>
      {launching && launch.allowed && (
        <RunEvaluationPanel projectId={projectId} datasetRef={datasetRef} onClose={() => setLaunching(false)} />
      )}
      {runs.error ? (
        <ErrorState error={runs.error} onRetry={() => void runs.refetch()} />
      ) : runs.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading runs" />
        </div>
      ) : all.length === 0 ? (
        <NoRuns />
      ) : (
        <>
          <div className="toolbar-wrap toolbar" role="group" aria-label="Run filters">
            <FilterSelect
              label="Evaluation"
              value={view.evaluation}
              options={optionsOf(all, (r) => r.evaluationName)}
              onChange={(evaluation) => update({ evaluation })}
            />
            <FilterSelect
              label="Model"
              value={view.model}
              options={optionsOf(all, (r) => r.modelName)}
              onChange={(model) => update({ model })}
            />
            <FilterSelect
              label="Status"
              value={view.status}
              options={['completed', 'running', 'failed']}
              onChange={(status) => update({ status })}
            />
            {selected.length === 1 && <span className="muted small">Select one more run to compare.</span>}
            {all.length >= RUNS_LIMIT && <span className="muted small">Showing the first {formatInteger(RUNS_LIMIT)} runs.</span>}
          </div>
          <RunsTable
            rows={rows}
            metrics={metrics}
            sort={view.sort}
            onSortChange={(sort) => update({ sort })}
            selection={selection}
            onSelectionChange={setSelection}
            empty={
              <div className="empty-state">
                <p>No runs match these filters.</p>
                <button type="button" className="button" onClick={() => update({ evaluation: null, model: null, status: null })}>
                  Clear filters
                </button>
              </div>
            }
          />
        </>
      )}
    </div>
  );
}

/** A labelled select with an "any" choice. */
function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | null;
  options: string[];
  onChange: (v: string | null) => void;
}) {
  return (
    <label className="eval-filter">
      <span className="muted">{label}</span>
      <select className="input" aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {value !== null && !options.includes(value) && <option value={value}>{value}</option>}
      </select>
    </label>
  );
}

/** What a project without runs shows: how runs get here. */
function NoRuns() {
  return (
    <div className="empty-state">
      <p>No evaluation runs yet. Each run scores one model on one evaluation&apos;s dataset.</p>
      <pre className="code-block eval-snippet">{`import weave
weave.init("<entity>/<project>")

evaluation = weave.Evaluation(dataset=rows, scorers=[exact_match])
await evaluation.evaluate(model)   # shows up here as a run`}</pre>
      <p className="muted">
        Runs recorded through the API (<code>POST /v2/&lt;entity&gt;/&lt;project&gt;/evaluation_runs</code>, then predictions and scores)
        show up here too.
      </p>
    </div>
  );
}
