/**
 * The runs list's data: every run of the project, every run's stats (one eval_results query
 * for all of them), and version indexes for the labels.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { versionIndexByRef } from '../evalRefs.js';
import {
  evaluationObjectsQueryOptions,
  modelObjectsQueryOptions,
  runsQueryOptions,
  runsStatsQueryOptions,
  type EvaluationRun,
} from '../evaluationQueries.js';
import type { RunsView } from '../evalViewState.js';
import { filterRunRows, sortRunRows, toRunRow, type RunRow } from './runRows.js';
import { metricsOf, type ScoreMetric } from '../scoreModel.js';

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
  const runIds = useMemo(() => (runs.data ?? []).map((run) => run.evaluation_run_id), [runs.data]);
  const stats = useQuery({ ...runsStatsQueryOptions({ projectId, runIds }), enabled: runIds.length > 0 });
  const byRun = useMemo(() => new Map((stats.data?.summary?.evaluations ?? []).map((e) => [e.evaluation_call_id, e])), [stats.data]);

  const versions = useMemo(
    () => new Map([...versionIndexByRef(projectId, evaluations.data ?? []), ...versionIndexByRef(projectId, models.data ?? [])]),
    [projectId, evaluations.data, models.data],
  );
  const all = useMemo(
    () => (runs.data ?? []).map((run) => toRunRow(run, stats.data ? (byRun.get(run.evaluation_run_id) ?? null) : undefined, versions)),
    [runs.data, stats.data, byRun, versions],
  );
  const metrics = useMemo(() => metricsOf(all.flatMap((r) => (r.summary ? [r.summary] : []))), [all]);
  const rows = useMemo(() => sortRunRows(filterRunRows(all, view), view.sort, metrics), [all, view, metrics]);
  return { runs, all, rows, metrics, statsLoading: runIds.length > 0 && stats.isPending };
}
