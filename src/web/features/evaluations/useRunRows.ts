/**
 * The runs list's data: every run of the project, each run's stats (one cached eval_results
 * query per run, filled in as they arrive), and version indexes for the labels.
 */
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { versionIndexByRef } from './evalRefs.js';
import {
  evaluationObjectsQueryOptions,
  modelObjectsQueryOptions,
  runsQueryOptions,
  runStatsQueryOptions,
  type EvaluationRun,
} from './evaluationQueries.js';
import type { RunsView } from './evalViewState.js';
import { filterRunRows, sortRunRows, toRunRow, type RunRow } from './runRows.js';
import { metricsOf, type ScoreMetric } from './scoreModel.js';

/** What the runs list shows. */
export interface RunRowsData {
  runs: UseQueryResult<EvaluationRun[]>;
  /** Every run, before filters (filter options come from these). */
  all: RunRow[];
  /** Filtered and sorted. */
  rows: RunRow[];
  metrics: ScoreMetric[];
  statsLoading: boolean;
}

/** Runs list rows for a project and view. */
export function useRunRows(projectId: string, view: RunsView): RunRowsData {
  const runs = useQuery(runsQueryOptions(projectId));
  const evaluations = useQuery(evaluationObjectsQueryOptions(projectId));
  const models = useQuery(modelObjectsQueryOptions(projectId));
  const stats = useQueries({
    queries: (runs.data ?? []).map((run) => runStatsQueryOptions({ projectId, runId: run.evaluation_run_id })),
    // One stable array per answer set, so the rows below rebuild only when some stats arrive.
    combine: (results) => ({ data: results.map((r) => r.data), pending: results.some((r) => r.isPending) }),
  });

  const versions = useMemo(
    () => new Map([...versionIndexByRef(projectId, evaluations.data ?? []), ...versionIndexByRef(projectId, models.data ?? [])]),
    [projectId, evaluations.data, models.data],
  );
  const all = useMemo(() => (runs.data ?? []).map((run, i) => toRunRow(run, stats.data[i], versions)), [runs.data, stats.data, versions]);
  const metrics = useMemo(() => metricsOf(all.flatMap((r) => (r.summary ? [r.summary] : []))), [all]);
  const rows = useMemo(() => sortRunRows(filterRunRows(all, view), view.sort, metrics), [all, view, metrics]);
  return { runs, all, rows, metrics, statsLoading: stats.pending };
}
