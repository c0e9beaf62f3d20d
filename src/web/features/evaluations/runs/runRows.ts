/**
 * The runs list's rows: each run with the names of its evaluation and model, its duration, and
 * (once loaded) its row count and scorer stats. The runs endpoint neither sorts nor filters by
 * status, and per-scorer figures come from a query per run, so the list holds every run of the
 * project and sorts and filters them here.
 */
import { newerFirst } from '../../../lib/format.js';
import type { EvalResultsEvaluationSummary } from '../../../../contract/evalResults.js';
import { refLabel, refName } from '../evalRefs.js';
import type { EvaluationRun } from '../evaluationQueries.js';
import type { ColumnSort, RunsView } from '../evalViewState.js';
import { statsFor, summaryValue, type ScoreMetric } from '../scoreModel.js';

/** One row of the runs list. */
export interface RunRow {
  run: EvaluationRun;
  evaluationName: string;
  evaluationLabel: string;
  modelName: string;
  modelLabel: string;
  /** Finished runs only. */
  durationMs: number | null;
  /** Dataset rows with results; undefined while loading. */
  rowCount: number | undefined;
  summary: EvalResultsEvaluationSummary | undefined;
}

/** Builds a row from a run, its stats answer (if loaded) and version indexes by ref. */
/** `stats`: the run's summary from the list's one stats query; undefined while it loads, null when the run has no results. */
export function toRunRow(
  run: EvaluationRun,
  stats: EvalResultsEvaluationSummary | null | undefined,
  versions: ReadonlyMap<string, number>,
): RunRow {
  const end = run.finished_at ? Date.parse(run.finished_at) : NaN;
  const duration = end - Date.parse(run.started_at);
  return {
    run,
    evaluationName: refName(run.evaluation),
    evaluationLabel: refLabel(run.evaluation, versions.get(run.evaluation)),
    modelName: refName(run.model),
    modelLabel: refLabel(run.model, versions.get(run.model)),
    durationMs: Number.isFinite(duration) ? duration : null,
    rowCount: stats === undefined ? undefined : (stats?.row_count ?? 0),
    summary: stats ?? undefined,
  };
}

/** Rows the filters keep (evaluation and model by name, any version). */
export function filterRunRows(rows: readonly RunRow[], view: Pick<RunsView, 'evaluation' | 'model' | 'status'>): RunRow[] {
  return rows.filter(
    (r) =>
      (view.evaluation === null || r.evaluationName === view.evaluation) &&
      (view.model === null || r.modelName === view.model) &&
      (view.status === null || r.run.status === view.status),
  );
}

type SortValue = string | number | null;

/** The value a column sorts by; score columns are `score:<field>`. */
export function sortValue(row: RunRow, id: string, metrics: readonly ScoreMetric[]): SortValue {
  if (id.startsWith('score:')) {
    const metric = metrics.find((m) => m.field === id.slice('score:'.length));
    return metric ? summaryValue(statsFor(row.summary, metric)) : null;
  }
  switch (id) {
    case 'evaluation':
      return row.evaluationLabel;
    case 'model':
      return row.modelLabel;
    case 'status':
      return row.run.status;
    case 'duration':
      return row.durationMs;
    case 'rows':
      return row.rowCount ?? null;
    default:
      return row.run.started_at;
  }
}

/** Rows in the wanted order; unknown values (loading, no such scorer) last either way, ties newest first. */
export function sortRunRows(rows: readonly RunRow[], sort: ColumnSort, metrics: readonly ScoreMetric[]): RunRow[] {
  const dir = sort.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, v: sortValue(row, sort.id, metrics) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v !== b.v) return a.v === null ? 1 : -1;
    } else if (a.v !== b.v) {
      return (a.v < b.v ? -1 : 1) * dir;
    }
    return newerFirst(a.row.run.started_at, b.row.run.started_at);
  });
  return keyed.map((k) => k.row);
}

/** The distinct values of a field among rows, sorted, for a filter's options. */
export function optionsOf(rows: readonly RunRow[], pick: (r: RunRow) => string): string[] {
  return [...new Set(rows.map(pick))].sort((a, b) => a.localeCompare(b));
}
