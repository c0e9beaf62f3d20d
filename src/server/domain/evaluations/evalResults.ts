/**
 * eval_results/query (docs/api/evaluations.md §2.3): loads the rows of the requested
 * evaluation roots (evalResultsRows.ts), selects and orders a page (evalResultsSelect.ts) and
 * summarizes (evalResultsSummary.ts). A page in the default order without a summary is chosen
 * from the rows' keys alone (loadRowKeys), so only the page's row calls, children and dataset
 * rows are read whole; filters, sorts and summaries read every row call.
 *
 * As the reference: ids are `evaluation_call_ids` then `evaluation_run_ids`, de-duplicated in
 * order; no ids answers an empty result (with an empty summary when one is asked for); the
 * summary covers every row, not only the page, and ignores filters, applying
 * `summary_require_intersection` (default: `require_intersection`); `total_rows` counts the
 * selected rows before paging, and is 0 when rows are not asked for.
 *
 * `warnings` reports dataset-row refs that could not be resolved when `resolve_row_refs` asked
 * for them (their `raw_data_row` stays the ref). Tokens and costs are the predict call's, so
 * without `include_predict_and_score_children` they are null.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { EvalResultsQueryReq, EvalResultsQueryRes } from '../../../contract/evalResults.js';
import type { Store } from '../../store/Store.js';
import { callsById } from './evaluationCalls.js';
import { completeTrials, loadEvalRows, loadRowKeys, resolveRowRefs, rowRefDigest, type EvalRow } from './evalResultsRows.js';
import { checkFields, intersect, selectRows } from './evalResultsSelect.js';
import { summarizeEvalRows } from './evalResultsSummary.js';
import { queryFields } from './queryEval.js';

export async function queryEvalResults(store: Store, projectId: string, req: EvalResultsQueryReq): Promise<EvalResultsQueryRes> {
  const evalIds = [...new Set([...(req.evaluation_call_ids ?? []), ...(req.evaluation_run_ids ?? [])])];
  const filters = req.filters ?? [];
  const sortBy = req.sort_by ?? [];
  checkFields(filters, sortBy);
  const includeRows = req.include_rows ?? true;
  const includeSummary = req.include_summary ?? false;
  if (!evalIds.length) return { rows: [], total_rows: 0, summary: includeSummary ? { row_count: 0, evaluations: [] } : null, warnings: [] };

  const children = req.include_predict_and_score_children ?? true;
  const costs = req.include_costs ?? false;
  // A page in the default order (by row digest) is chosen from the rows' keys (loadRowKeys):
  // only the page's row calls are read whole.
  const keysOnly = includeRows && !includeSummary && !filters.length && !sortBy.length && req.limit != null;
  // A summary with children counts every trial's tokens and cost, so it reads every row's
  // children; rows alone read only the answered page's (completeTrials below).
  const lazy = children && !includeSummary;
  const rows = keysOnly
    ? await loadRowKeys(store, projectId, evalIds)
    : await loadEvalRows(store, { projectId, evalIds, children: lazy ? 'open' : children, costs });
  const fields = [...filters.flatMap((f) => queryFields(f.query)), ...sortBy.map((s) => s.field)];
  const needInputs = fields.some((f) => f === 'inputs' || f.startsWith('inputs.'));
  const includeRaw = includeRows && (req.include_raw_data_rows ?? false);
  const resolve = includeRaw && (req.resolve_row_refs ?? false);
  // Filters and sorts on inputs read every row's dataset row; otherwise only the page's is read.
  const resolved = needInputs ? await resolveRowRefs(store, projectId, rows) : new Map<string, unknown>();
  const inputOf = (row: EvalRow) => (rowRefDigest(row.example) ? resolved.get(row.rowDigest) : row.example);

  const warnings: string[] = [];
  let page: EvalRow[] = [];
  let total = 0;
  if (includeRows) {
    const requireIntersection = req.require_intersection ?? false;
    const logic = req.filter_logic_operator ?? 'or';
    ({ page, total } = selectRows(
      rows,
      { filters, logic, sortBy, requireIntersection, offset: req.offset ?? 0, limit: req.limit ?? null },
      { evalIds, inputOf },
    ));
    if (lazy || keysOnly) await completeTrials(store, projectId, page, { children, costs, reload: keysOnly });
    if (resolve && !needInputs) for (const [digest, row] of await resolveRowRefs(store, projectId, page)) resolved.set(digest, row);
    const unresolved = resolve ? page.filter((r) => rowRefDigest(r.example) && !resolved.has(r.rowDigest)).length : 0;
    if (unresolved) warnings.push(`Could not resolve ${unresolved} dataset row ref(s); their raw_data_row is the ref`);
  }

  let summary: EvalResultsQueryRes['summary'] = null;
  if (includeSummary) {
    const summaryRows = intersect(rows, evalIds, req.summary_require_intersection ?? req.require_intersection ?? false);
    const roots: Map<string, CallSchema> = await callsById(store, projectId, evalIds);
    summary = summarizeEvalRows(summaryRows, evalIds, roots);
  }

  return {
    rows: page.map((row) => ({
      row_digest: row.rowDigest,
      raw_data_row: includeRaw ? (resolve ? (resolved.get(row.rowDigest) ?? row.example) : row.example) : null,
      evaluations: evalIds.flatMap((id) => (row.trials.has(id) ? [{ evaluation_call_id: id, trials: row.trials.get(id)! }] : [])),
    })),
    total_rows: total,
    summary,
    warnings,
  };
}
