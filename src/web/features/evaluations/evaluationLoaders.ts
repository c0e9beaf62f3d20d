/**
 * Loaders of the evaluation routes, outside the lazily loaded pages so their data starts loading
 * with the pages' code (docs/architecture.md "Conventions").
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { compareQueryOptions, runResultsRequest } from './evalRequests.js';
import {
  evaluationObjectsQueryOptions,
  modelObjectsQueryOptions,
  runQueryOptions,
  runResultsQueryOptions,
  runsQueryOptions,
  runSummaryQueryOptions,
} from './evaluationQueries.js';
import { readCompareView, readRunView } from './evalViewState.js';
import { metricsOf } from './scoreModel.js';

const projectOf = (params: LoaderFunctionArgs['params']) => `${params.entity}/${params.project}`;

/** The evaluation and model version lists, which every evaluation page's run labels read. */
function prefetchVersions(queryClient: QueryClient, projectId: string): void {
  void queryClient.prefetchQuery(evaluationObjectsQueryOptions(projectId));
  void queryClient.prefetchQuery(modelObjectsQueryOptions(projectId));
}

/** Starts the runs list and the version lists its labels use. */
export function evaluationsLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const projectId = projectOf(params);
    void queryClient.prefetchQuery(runsQueryOptions(projectId));
    prefetchVersions(queryClient, projectId);
    return null;
  };
}

/** Starts a run, its summary, the first page of its results (after the summary when filtering failures) and the header's lists. */
export function runLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const ids = { projectId: projectOf(params), runId: params.runId! };
    const view = readRunView(new URL(request.url).searchParams);
    void queryClient.prefetchQuery(runQueryOptions(ids));
    // The header's labels and run picker.
    prefetchVersions(queryClient, ids.projectId);
    void queryClient.prefetchQuery(runsQueryOptions(ids.projectId));
    const summary = queryClient.ensureQueryData(runSummaryQueryOptions(ids));
    const results = (metrics: ReturnType<typeof metricsOf>) =>
      queryClient.prefetchInfiniteQuery(
        runResultsQueryOptions({ projectId: ids.projectId, req: runResultsRequest({ runId: ids.runId, view, metrics }) }),
      );
    // Which scores count as failures depends on the run's scorers, which the summary names.
    if (view.failures) void summary.then((s) => results(metricsOf(s.summary?.evaluations ?? []))).catch(() => undefined);
    else void results([]);
    summary.catch(() => undefined);
    return null;
  };
}

/** Starts the compared runs and their aligned rows with the summaries. */
export function compareLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const projectId = projectOf(params);
    const view = readCompareView(new URL(request.url).searchParams);
    if (view.runIds.length === 0) return null;
    for (const runId of view.runIds) void queryClient.prefetchQuery(runQueryOptions({ projectId, runId }));
    prefetchVersions(queryClient, projectId);
    void queryClient.prefetchQuery(compareQueryOptions({ projectId, runIds: view.runIds, sort: view.sort }));
    return null;
  };
}
