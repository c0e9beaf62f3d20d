/**
 * Evaluation data through react-query: a project's runs, one run, its progress, the evaluation
 * and model objects (for version labels and the dataset/scorer check), and eval_results/query in
 * the shapes the pages need (per-run stats for the list, a run's summary, its results page by
 * page, several runs side by side). Keys nest under `['evaluations', projectId]`.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ResOf } from '../../../contract/endpoints.js';
import type { EvalResultsQueryReq, EvalResultsQueryRes } from '../../../contract/evalResults.js';
import type { EvaluationRunRead } from '../../../contract/evaluationRuns.js';
import { api, collect } from '../../lib/api.js';
import { parseRef } from '../../lib/refs.js';

/** An evaluation run as the list and pages read it (API runs and SDK evaluations alike). */
export type EvaluationRun = EvaluationRunRead;

/** An eval_results request without the project path and paging. */
export type ResultsReq = Omit<EvalResultsQueryReq, 'entity' | 'project' | 'limit' | 'offset'>;

/** Runs the list loads at most (the endpoint cannot sort, so the page sorts what it holds). */
export const RUNS_LIMIT = 5000;
/** Dataset rows per page of a run's results. */
export const RESULTS_PAGE_SIZE = 100;
/** Dataset rows the compare table and the score histograms read at most. */
export const ROWS_LIMIT = 5000;

/** `{entity, project}` of a project id, as the v2 routes take it. */
export function projectPath(projectId: string): { entity: string; project: string } {
  const [entity = '', project = ''] = projectId.split('/');
  return { entity, project };
}

/** Query keys for evaluations. */
export const evaluationKeys = {
  all: ['evaluations'] as const,
  project: (projectId: string) => [...evaluationKeys.all, projectId] as const,
  runs: (projectId: string) => [...evaluationKeys.project(projectId), 'runs'] as const,
  run: (projectId: string, runId: string) => [...evaluationKeys.project(projectId), 'run', runId] as const,
  status: (projectId: string, runId: string) => [...evaluationKeys.run(projectId, runId), 'status'] as const,
  objects: (projectId: string, kind: 'evaluations' | 'models' | 'datasets') =>
    [...evaluationKeys.project(projectId), 'objects', kind] as const,
  evaluation: (projectId: string, ref: string) => [...evaluationKeys.project(projectId), 'evaluation', ref] as const,
  results: (projectId: string, kind: string, req: ResultsReq) => [...evaluationKeys.project(projectId), 'results', kind, req] as const,
};

/** Every run of a project (in the server's start order). */
export function runsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: evaluationKeys.runs(projectId),
    queryFn: ({ signal }) => collect(api.evaluationRunList({ ...projectPath(projectId), limit: RUNS_LIMIT }, { signal })),
  });
}

/** One run; a 404 when the id names no run. */
export function runQueryOptions({ projectId, runId }: { projectId: string; runId: string }) {
  return queryOptions({
    queryKey: evaluationKeys.run(projectId, runId),
    queryFn: ({ signal }) => api.evaluationRunRead({ ...projectPath(projectId), evaluation_run_id: runId }, { signal }),
  });
}

/** Progress of a running run (rows done of the dataset's), polled while it runs. */
export function runStatusQueryOptions({ projectId, runId }: { projectId: string; runId: string }) {
  return queryOptions({
    queryKey: evaluationKeys.status(projectId, runId),
    queryFn: ({ signal }) => api.evaluationStatus({ project_id: projectId, call_id: runId }, { signal }),
    refetchInterval: (query) => (query.state.data?.status.code === 'running' ? 5000 : false),
  });
}

/** Every version of every evaluation object (names, versions, datasets, scorers, trials). */
export function evaluationObjectsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: evaluationKeys.objects(projectId, 'evaluations'),
    queryFn: ({ signal }) => collect(api.evaluationList(projectPath(projectId), { signal })),
  });
}

/** Every version of every model object (for version labels). */
export function modelObjectsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: evaluationKeys.objects(projectId, 'models'),
    queryFn: ({ signal }) => collect(api.modelList(projectPath(projectId), { signal })),
  });
}

/** Every version of every dataset (for version labels in the setup warning). */
export function datasetObjectsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: evaluationKeys.objects(projectId, 'datasets'),
    queryFn: ({ signal }) => collect(api.datasetList(projectPath(projectId), { signal })),
  });
}

/** One evaluation object version by ref; null when the ref is not an object ref or is gone. */
export function evaluationObjectQueryOptions({ projectId, ref }: { projectId: string; ref: string }) {
  return queryOptions({
    queryKey: evaluationKeys.evaluation(projectId, ref),
    queryFn: async ({ signal }): Promise<ResOf<'evaluationRead'> | null> => {
      const parsed = parseRef(ref);
      if (parsed?.kind !== 'object') return null;
      return api.evaluationRead({ ...projectPath(projectId), object_id: parsed.name, digest: parsed.digest }, { signal });
    },
    staleTime: Infinity,
  });
}

/** One eval_results/query answer, cached under what it is for (`kind`) and the request. */
export function resultsQueryOptions({ projectId, kind, req }: { projectId: string; kind: string; req: ResultsReq & { limit?: number } }) {
  return queryOptions({
    queryKey: evaluationKeys.results(projectId, kind, req),
    queryFn: ({ signal }): Promise<EvalResultsQueryRes> => api.evalResultsQuery({ ...projectPath(projectId), ...req }, { signal }),
  });
}

/**
 * The list's figures of every run at once: per run its row count and per-scorer stats (no
 * children: cheap). One eval_results query for the whole list, not one per run.
 */
export function runsStatsQueryOptions({ projectId, runIds }: { projectId: string; runIds: string[] }) {
  const req = {
    evaluation_call_ids: runIds,
    include_summary: true,
    include_predict_and_score_children: false,
    include_rows: false,
    limit: 0,
  };
  return resultsQueryOptions({ projectId, kind: 'stats', req });
}

/** A run's full summary: scorer stats, tokens and cost (reads the predict and score calls). */
export function runSummaryQueryOptions({ projectId, runId }: { projectId: string; runId: string }) {
  const req = { evaluation_call_ids: [runId], include_summary: true, include_costs: true, limit: 0 };
  return resultsQueryOptions({ projectId, kind: 'summary', req });
}

/** Every score of a run, without outputs' children: what the histograms count. */
export function runScoresQueryOptions({ projectId, runId }: { projectId: string; runId: string }) {
  const req = { evaluation_call_ids: [runId], include_predict_and_score_children: false, limit: ROWS_LIMIT };
  return resultsQueryOptions({ projectId, kind: 'scores', req });
}

/** A run's results for the table, page by page (dataset rows; each row holds its trials). */
export function runResultsQueryOptions({ projectId, req }: { projectId: string; req: ResultsReq }) {
  return infiniteQueryOptions({
    queryKey: evaluationKeys.results(projectId, 'rows', req),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.evalResultsQuery(
        { ...projectPath(projectId), ...req, limit: RESULTS_PAGE_SIZE, offset: pageParam * RESULTS_PAGE_SIZE },
        { signal },
      ),
    getNextPageParam: (last, _all, lastParam) => ((lastParam + 1) * RESULTS_PAGE_SIZE < last.total_rows ? lastParam + 1 : undefined),
  });
}
