/**
 * The head of a run page: which evaluation and model, status (with rows done while it runs),
 * when and how long, totals, the run's trace, and a menu to compare it with another run.
 */
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { EvalResultsEvaluationSummary } from '../../../../contract/evalResults.js';
import { Popover } from '../../../components/ui/Popover.js';
import { formatCompact, formatCost, formatDateTime, formatDuration, formatInteger, formatRelative } from '../../../lib/format.js';
import { refLabel, refName, refPage, versionIndexByRef } from '../evalRefs.js';
import {
  evaluationObjectsQueryOptions,
  modelObjectsQueryOptions,
  runsQueryOptions,
  runStatusQueryOptions,
  type EvaluationRun,
} from '../evaluationQueries.js';
import { RunStatus } from './RunStatus.js';
import '../evaluations.css';

/** Props of RunHeader. */
export interface RunHeaderProps {
  projectId: string;
  run: EvaluationRun;
  summary: EvalResultsEvaluationSummary | undefined;
  rowCount: number | undefined;
}

/** Run page header (memoized: the results' filters and sort do not touch it). */
export const RunHeader = memo(function RunHeader({ projectId, run, summary, rowCount }: RunHeaderProps) {
  const { entity = '', project = '' } = useParams();
  const evaluations = useQuery(evaluationObjectsQueryOptions(projectId));
  const models = useQuery(modelObjectsQueryOptions(projectId));
  const status = useQuery({ ...runStatusQueryOptions({ projectId, runId: run.evaluation_run_id }), enabled: run.status === 'running' });
  const versions = new Map([...versionIndexByRef(projectId, evaluations.data ?? []), ...versionIndexByRef(projectId, models.data ?? [])]);
  const progress =
    status.data?.status.code === 'running'
      ? `${formatInteger(status.data.status.completed_rows)} of ${formatInteger(status.data.status.total_rows)} rows`
      : undefined;
  const duration = run.finished_at ? Date.parse(run.finished_at) - Date.parse(run.started_at) : null;
  const traceId = summary?.trace_id ?? run.evaluation_run_id;

  return (
    <header className="page-header eval-run-header">
      <Link className="button ghost" to={`/${entity}/${project}/evaluations`}>
        ← Evaluations
      </Link>
      <div className="eval-run-title">
        <h1>
          <RefName uri={run.evaluation} label={refLabel(run.evaluation, versions.get(run.evaluation))} />
          <span className="muted eval-run-model">
            {' · '}
            <RefName uri={run.model} label={refLabel(run.model, versions.get(run.model))} />
          </span>
        </h1>
        <div className="eval-run-meta muted small">
          <RunStatus status={run.status} detail={progress} />
          <span title={formatDateTime(run.started_at)}>started {formatRelative(run.started_at)}</span>
          {duration !== null && <span>took {formatDuration(duration)}</span>}
          {rowCount !== undefined && run.status !== 'running' && (
            <span>
              {formatInteger(rowCount)} {rowCount === 1 ? 'row' : 'rows'}
              {/* Trials (predictions) outnumber rows with several trials per row or repeated dataset rows;
                  pass counts are per trial, so say both. */}
              {summary && summary.trial_count !== rowCount && ` · ${formatInteger(summary.trial_count)} trials`}
            </span>
          )}
          {summary?.predict_total_tokens != null && <span>{formatCompact(summary.predict_total_tokens)} tokens</span>}
          {summary?.predict_total_cost != null && <span>{formatCost(summary.predict_total_cost)}</span>}
        </div>
      </div>
      <span className="spacer" />
      <Link
        className="button"
        to={`/${entity}/${project}/traces/${encodeURIComponent(traceId)}?call=${encodeURIComponent(run.evaluation_run_id)}`}
      >
        Open trace
      </Link>
      <CompareWith projectId={projectId} run={run} />
    </header>
  );
});

/** A ref's label, linking to the object's page at that version when it is an object or op. */
function RefName({ uri, label }: { uri: string; label: string }) {
  const href = refPage(uri);
  return href ? (
    <Link className="eval-ref-name" to={href} title={uri}>
      {label}
    </Link>
  ) : (
    <span title={uri}>{label}</span>
  );
}

/** A menu of the project's other runs (same evaluation first) that opens the compare page. */
function CompareWith({ projectId, run }: { projectId: string; run: EvaluationRun }) {
  const { entity = '', project = '' } = useParams();
  const navigate = useNavigate();
  const runs = useQuery(runsQueryOptions(projectId));
  const name = refName(run.evaluation);
  const others = (runs.data ?? [])
    .filter((r) => r.evaluation_run_id !== run.evaluation_run_id)
    .sort(
      (a, b) => Number(refName(b.evaluation) === name) - Number(refName(a.evaluation) === name) || b.started_at.localeCompare(a.started_at),
    )
    .slice(0, 30);
  return (
    <Popover label="Compare with…" align="end">
      {(close) => (
        <div className="menu eval-compare-menu">
          {others.length === 0 ? (
            <p className="menu-note muted">No other runs in this project.</p>
          ) : (
            <ul className="menu-list" aria-label="Runs to compare with">
              {others.map((o) => (
                <li key={o.evaluation_run_id}>
                  <button
                    type="button"
                    className="menu-item"
                    onClick={() => {
                      close();
                      const params = new URLSearchParams({
                        runs: `${run.evaluation_run_id},${o.evaluation_run_id}`,
                        baseline: run.evaluation_run_id,
                      });
                      void navigate(`/${entity}/${project}/evaluations/compare?${params}`);
                    }}
                  >
                    <span className="ellipsis">
                      {refName(o.model)} <span className="muted">on {refName(o.evaluation)}</span>
                    </span>
                    <span className="muted small">{formatRelative(o.started_at)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Popover>
  );
}
