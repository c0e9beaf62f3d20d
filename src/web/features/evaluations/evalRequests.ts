/**
 * The eval_results requests a view stands for, shared by the loaders and the pages so both ask
 * for exactly the same thing (and so hit the same cache entry).
 */
import { resultsQueryOptions, ROWS_LIMIT, type ResultsReq } from './evaluationQueries.js';
import type { CompareSort, RunView } from './evalViewState.js';
import { failureQuery, type ScoreMetric } from './scoreModel.js';

/** A run's results table: rows with their dataset values and costs, filtered to failures on request. */
export function runResultsRequest({ runId, view, metrics }: { runId: string; view: RunView; metrics: readonly ScoreMetric[] }): ResultsReq {
  const failures = view.failures ? failureQuery(metrics, view.below) : null;
  return {
    evaluation_call_ids: [runId],
    include_raw_data_rows: true,
    resolve_row_refs: true,
    include_costs: true,
    filters: failures ? [{ query: failures }] : null,
    sort_by: view.sort ? [{ field: view.sort.id, direction: view.sort.direction }] : null,
  };
}

/**
 * The compare page: every run's trials by dataset row, in the chosen order, and the runs'
 * summaries. One request for both: each reads every trial's calls, so asked separately the server
 * read them twice (docs/performance.md: the two took 44 + 49 ms of server time on two 300-row runs, the
 * combined one 47 ms), and the two competed for the cores while the page waited for both.
 */
export function compareRequest({ runIds, sort }: { runIds: string[]; sort: CompareSort | null }): ResultsReq & { limit: number } {
  const sortBy = sort
    ? [{ field: sort.field, direction: sort.direction, mode: sort.mode, evaluation_call_id: sort.mode === 'value' ? sort.runId : null }]
    : null;
  return {
    evaluation_call_ids: runIds,
    include_raw_data_rows: true,
    resolve_row_refs: true,
    include_costs: true,
    include_summary: true,
    sort_by: sortBy,
    limit: ROWS_LIMIT,
  };
}

/** The compare page's one query (compareRequest), for its loader and the page alike. */
export function compareQueryOptions({ projectId, runIds, sort }: { projectId: string; runIds: string[]; sort: CompareSort | null }) {
  return resultsQueryOptions({ projectId, kind: 'compare', req: compareRequest({ runIds, sort }) });
}
