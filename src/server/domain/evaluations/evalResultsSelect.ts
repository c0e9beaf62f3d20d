/**
 * Choosing and ordering eval_results rows (docs/api/evaluations.md §2.3): intersection,
 * filters, sort and paging, over rows already grouped in memory.
 *
 * Fields are `scores.<scorer>[.<path>]`, `inputs[.<path>]` (the dataset row, resolved when the
 * trial holds a row ref) and `outputs[.<path>]` (the model output; `output` is accepted too);
 * anything else is a 400.
 *
 * Filters, as the reference's HAVING clauses read them: a filter applies to its
 * `evaluation_call_id`, or to every requested evaluation when it names none; a row matches in
 * an evaluation when each filter applying there holds for at least one of its trials there.
 * `filter_logic_operator` "and" keeps rows matching in every evaluation some filter applies
 * to, "or" (the default) rows matching in at least one.
 *
 * Sort keys compare per row: in "value" mode the mean of the field's numeric values (booleans
 * count 1/0) over the trials of `evaluation_call_id` (or of all evaluations), else its first
 * text value; in "difference" mode the spread (max - min) of the per-evaluation means.
 * Numbers sort before text, missing values last in either direction, ties by row digest.
 */
import type { Query } from '../../../contract/common.js';
import type { EvalResultsQueryReq, EvalResultsTrial } from '../../../contract/evalResults.js';
import { BadRequestError } from '../../errors.js';
import type { EvalRow } from './evalResultsRows.js';
import { matchesQuery, queryFields, toNumber, valueAt } from './queryEval.js';

type Filter = NonNullable<EvalResultsQueryReq['filters']>[number];
type SortKey = NonNullable<EvalResultsQueryReq['sort_by']>[number];

const FIELD = /^(scores\.[^.].*|inputs(\..+)?|outputs?(\..+)?)$/;

/** 400 unless every filter and sort field is one eval results know. */
export function checkFields(filters: Filter[], sortBy: SortKey[]): void {
  for (const field of [...filters.flatMap((f) => queryFields(f.query)), ...sortBy.map((s) => s.field)]) {
    if (!FIELD.test(field)) {
      throw new BadRequestError(
        `Unknown eval results field ${JSON.stringify(field)}: use scores.<scorer>[.<path>], inputs.<path> or outputs.<path>`,
      );
    }
  }
}

/** A field of one trial; `input` is the trial's dataset row. */
function fieldOf(trial: EvalResultsTrial, input: unknown, field: string): unknown {
  const [head, ...rest] = field.split('.');
  if (head === 'scores') return valueAt(trial.scores, rest);
  if (head === 'inputs') return valueAt(input, rest);
  return valueAt(trial.model_output, rest);
}

export interface RowContext {
  evalIds: string[];
  /** The dataset row a row's trials saw, by row digest. */
  inputOf: (row: EvalRow) => unknown;
}

function matchesIn(row: EvalRow, evalId: string, queries: Query[], ctx: RowContext): boolean {
  const trials = row.trials.get(evalId) ?? [];
  return queries.every((q) => trials.some((t) => matchesQuery(q, (path) => fieldOf(t, ctx.inputOf(row), path))));
}

function filterRows(rows: EvalRow[], filters: Filter[], logic: 'and' | 'or', ctx: RowContext): EvalRow[] {
  if (!filters.length) return rows;
  const groups = ctx.evalIds
    .map((id) => ({ id, queries: filters.filter((f) => !f.evaluation_call_id || f.evaluation_call_id === id).map((f) => f.query) }))
    .filter((g) => g.queries.length);
  return rows.filter((row) => {
    const results = groups.map((g) => matchesIn(row, g.id, g.queries, ctx));
    return logic === 'and' ? results.every(Boolean) : results.some(Boolean);
  });
}

type SortValue = number | string | null;

const mean = (nums: number[]): number | null => (nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null);

function sortValue(row: EvalRow, key: SortKey, ctx: RowContext): SortValue {
  const valuesOf = (evalId: string) => (row.trials.get(evalId) ?? []).map((t) => fieldOf(t, ctx.inputOf(row), key.field));
  if (key.mode === 'difference') {
    const means = ctx.evalIds.map((id) => mean(valuesOf(id).flatMap((v) => toNumber(v) ?? []))).filter((m): m is number => m !== null);
    return means.length ? Math.max(...means) - Math.min(...means) : null;
  }
  const values = key.evaluation_call_id ? valuesOf(key.evaluation_call_id) : ctx.evalIds.flatMap(valuesOf);
  const numeric = mean(values.flatMap((v) => toNumber(v) ?? []));
  if (numeric !== null) return numeric;
  const text = values.find((v) => v !== undefined && v !== null);
  return text === undefined ? null : typeof text === 'string' ? text : JSON.stringify(text);
}

function compareValues(a: SortValue, b: SortValue, direction: 'asc' | 'desc'): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1;
  return direction === 'asc' ? order : -order;
}

function sortRows(rows: EvalRow[], sortBy: SortKey[], ctx: RowContext): EvalRow[] {
  const keyed = rows.map((row) => ({ row, values: sortBy.map((k) => sortValue(row, k, ctx)) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < sortBy.length; i++) {
      const c = compareValues(x.values[i]!, y.values[i]!, sortBy[i]!.direction);
      if (c) return c;
    }
    return x.row.rowDigest < y.row.rowDigest ? -1 : x.row.rowDigest > y.row.rowDigest ? 1 : 0;
  });
  return keyed.map((k) => k.row);
}

/** Rows present in every evaluation (when asked and there is more than one). */
export const intersect = (rows: EvalRow[], evalIds: string[], required: boolean): EvalRow[] =>
  required && evalIds.length > 1 ? rows.filter((r) => evalIds.every((id) => r.trials.has(id))) : rows;

/** The page of rows a request selects, and how many it selects in all. */
export function selectRows(
  rows: EvalRow[],
  req: { filters: Filter[]; logic: 'and' | 'or'; sortBy: SortKey[]; requireIntersection: boolean; offset: number; limit: number | null },
  ctx: RowContext,
): { page: EvalRow[]; total: number } {
  const chosen = sortRows(filterRows(intersect(rows, ctx.evalIds, req.requireIntersection), req.filters, req.logic, ctx), req.sortBy, ctx);
  return { page: chosen.slice(req.offset, req.limit === null ? undefined : req.offset + req.limit), total: chosen.length };
}
