/** Turns a calls view (from the URL) into the `/calls/stream_query` request it stands for. */
import type { CallsFilter } from '../../../contract/calls.js';
import { LIST_COLUMNS, type CallsListReq } from './callQueries.js';
import { isBuiltinColumn, type CallsViewState } from './callsViewState.js';
import { compileQuery } from './filterModel.js';

/**
 * "Now" rounded down to the minute: relative time ranges (`-24h`) resolve against it, and the
 * loader and the page then build the same request, so the page finds the loader's data.
 */
export function roundedNow(at = Date.now()): number {
  return Math.floor(at / 60_000) * 60_000;
}

/**
 * The structured filter of a view: trace roots, the content search, and unless asked for, no calls Weft made itself
 * (`weft_made: false`; the wire default keeps them, so SDKs see every call). The header's stats
 * use the same filter (callsStatsRequest.ts).
 */
export function callsFilterOf(view: Pick<CallsViewState, 'rootsOnly' | 'weftCalls' | 'search'>): CallsFilter {
  return {
    ...(view.rootsOnly ? { trace_roots_only: true } : {}),
    ...(view.weftCalls ? {} : { weft_made: false }),
    ...(view.search ? { search: view.search } : {}),
  };
}

/** The list request for a view; the table adds limit and offset per page. */
export function toListRequest({ projectId, view, now }: { projectId: string; view: CallsViewState; now: number }): CallsListReq {
  // Path columns need their top-level field (inputs, output, attributes) loaded too; feedback
  // columns need `include_feedback` instead.
  const feedback = view.columns.filter((c) => c === 'feedback' || c === 'scores' || c.startsWith('feedback.'));
  const extra = view.columns.filter((c) => !isBuiltinColumn(c) && !feedback.includes(c)).map((c) => c.split('.')[0]!);
  // The previews read inputs and output; the model column falls back to inputs.model.
  const previews = [
    ...(view.columns.includes('input') || view.columns.includes('model') ? ['inputs'] : []),
    ...(view.columns.includes('output') ? ['output'] : []),
  ];
  const columns = [...new Set([...LIST_COLUMNS, ...extra, ...previews])];
  return {
    project_id: projectId,
    filter: callsFilterOf(view),
    query: compileQuery({ clauses: view.clauses, since: view.since, now }),
    sort_by: [{ field: view.sort.field, direction: view.sort.direction }],
    columns,
    include_costs: view.columns.includes('cost') || view.sort.field === 'summary.weave.total_cost',
    include_feedback: feedback.length > 0,
  };
}
