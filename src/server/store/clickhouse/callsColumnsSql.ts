/**
 * The calls table's query fields as ClickHouse expressions over `calls FINAL` (query/ir.ts
 * `ScalarField`), mirroring sqlite/callsColumnsSql.ts. Only fixed text: column names from the
 * plan's closed unions; the project is the statement's `{p:String}`.
 */
import type { ComputedField, ScalarField } from '../query/index.js';
import { ENTRY_INPUT_TOKENS, ENTRY_OUTPUT_TOKENS, ENTRY_TOTAL_TOKENS, USAGE_ENTRIES, USAGE_ENTRY_IS_OBJECT } from './usageSql.js';

/**
 * `summary.weave.status`, as the reference computes it for filtering and sorting. The
 * descendant-error count is read as SQLite's `json_extract(…) > 0` reads it: a number by its
 * value, true as 1, and any text, object or list as more than 0 (SQLite ranks text above numbers).
 */
const ERROR_COUNT = "JSONExtractRaw(ifNull(summary, ''), 'status_counts', 'error')";
export const STATUS_SQL = `multiIf(exception IS NOT NULL, 'error',
  multiIf(${ERROR_COUNT} IN ('', 'null'), 0, JSONType(${ERROR_COUNT}) IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(${ERROR_COUNT}) > 0,
    JSONType(${ERROR_COUNT}) = 'Bool', JSONExtractBool(${ERROR_COUNT}), 1), 'descendant_error',
  ended_at IS NULL, 'running', 'success')`;

/** `summary.weave.latency_ms`: whole milliseconds (truncated, like SQLite's integer division), null while running. */
export const LATENCY_MS_SQL = 'intDiv(ended_at - started_at, 1000)';

/** `summary.weave.trace_name`: the display name, else the op's name. */
export const TRACE_NAME_SQL = "coalesce(nullIf(display_name, ''), op_base_name)";

/** The object usage entries of the call (model, raw JSON), as in threadCosts.ts. */
const ENTRIES = `arrayFilter(u -> ${USAGE_ENTRY_IS_OBJECT}, ${USAGE_ENTRIES})`;

/** A sum over the usage entries; NULL when the summary has none, as SQLite's sum over no rows. */
const sumOverEntries = (perEntry: string, entries = ENTRIES) =>
  `if(empty(${entries}), NULL, arraySum(arrayMap(u -> ${perEntry}, ${entries})))`;

/**
 * The prices that may apply to the project's calls, once per statement (a scalar subquery):
 * (llm_id, is the project's own, effective_date, prompt cost, completion cost).
 */
const PRICES = `(SELECT groupArray((llm_id, pricing_level = 'project', effective_date, prompt_token_cost, completion_token_cost))
  FROM llm_token_prices FINAL
  WHERE (pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default'))`;

/** The price core/pickPrice.ts picks for entry `u` at the call's start: in force first, then the project's, then the newest. */
const PICKED = `arraySort(x -> (x.3 > ifNull(started_at, 0), NOT x.2, -x.3), arrayFilter(x -> x.1 = u.1, ${PRICES}))[1]`;

/**
 * `summary.weave.total_cost`: each model's tokens at its picked price, summed; models without a
 * price add nothing, and a call none of whose models has a price costs NULL (sqlite/usageSql.ts
 * `callCostSql`, an inner join with the picked price).
 */
const COST_SQL = sumOverEntries(
  `${ENTRY_INPUT_TOKENS} * tupleElement(${PICKED}, 4) + ${ENTRY_OUTPUT_TOKENS} * tupleElement(${PICKED}, 5)`,
  `arrayFilter(u -> ${USAGE_ENTRY_IS_OBJECT} AND arrayExists(x -> x.1 = u.1, ${PRICES}), ${USAGE_ENTRIES})`,
);

const COMPUTED_SQL: Record<ComputedField['name'], string> = {
  status: STATUS_SQL,
  latency_ms: LATENCY_MS_SQL,
  trace_name: TRACE_NAME_SQL,
  total_tokens: sumOverEntries(ENTRY_TOTAL_TOKENS),
  input_tokens: sumOverEntries(ENTRY_INPUT_TOKENS),
  output_tokens: sumOverEntries(ENTRY_OUTPUT_TOKENS),
  total_cost: COST_SQL,
};

/** A scalar field as SQL; feedback columns read the `fb` row of the enclosing feedback subquery. */
export function fieldSql(f: ScalarField): string {
  switch (f.kind) {
    case 'column':
      return f.emptyIsNull ? `nullIf(${f.column}, '')` : f.column;
    case 'computed':
      return COMPUTED_SQL[f.name];
    case 'feedbackColumn':
      return `fb.${f.column}`;
  }
}
