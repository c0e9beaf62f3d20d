/**
 * The calls query language, backend-neutral: its semantics decided once, printed per backend.
 *
 * What is neutral (this folder; it imports only the contract, errors.ts and core/):
 * - which fields exist and what they are (callFields.ts): top-level columns with their type and
 *   nullability, `summary.weave.*` values computed from the row, JSON paths inside `inputs`,
 *   `output`, `attributes`, `summary` (split by core/fieldPath.ts), paths read through expanded
 *   refs (`expand_columns`), and feedback fields;
 * - how `$expr` operands are typed and compared (callsValues.ts, callsExpr.ts): a JSON path takes
 *   its peer's type, datetime literals are ISO text or unix seconds, `$convert` and `$size`
 *   rules, how NULL is treated (three-valued, as SQL: undecidable stays so under `$not`; a
 *   missing JSON path reads as '' in text), `$in` per type group;
 * - feedback conditions (callsFeedback.ts): "some row of that type satisfies it", `null` means
 *   "no row has a value", one type per comparison, literals only beside a feedback field;
 * - `sort_by` (callsOrder.ts): keys, NULLs last both ways, JSON paths as three keys, the id
 *   tie-break; the CallsFilter clauses (callsFilter.ts); and column selection (callsPlan.ts);
 * - every 400 and 422 a query can earn is thrown here, while planning, in operand order;
 * - how a loaded call row becomes a CallRecord (callRow.ts);
 * - for threads: what the filters mean (threadsFilter.ts: search words, attribute paths,
 *   inclusive bounds with NULL outside, and the in-memory `rangeMatches`) and how threads sort
 *   (threadsOrder.ts: NULL lowest, ties by thread id).
 *
 * The output is the typed plan of ir.ts. Each node's doc says exactly what it means; a printer
 * must give it that meaning and nothing more. What each backend printer must do
 * (store/sqlite/callsSql.ts and callsQuery.ts are the SQLite one):
 * - print every literal and JSON path as a bound parameter, never as SQL text; column names
 *   come only from the plan's closed unions;
 * - restrict to the project and to visible calls (start arrived, not deleted), then AND the
 *   filter clauses and the condition;
 * - read JSON through the four views (text, number, bool, doc) exactly as ir.ts `Scalar`
 *   describes, including "a numeric string is a number" and "missing reads as '' in text";
 * - combine conditions three-valued (NOT NULL is NULL), then read a NULL condition as false;
 * - resolve expanded refs (`JsonField.via`) to the referenced object or dataset row of the
 *   same project, NULL otherwise;
 * - sort NULLs last in both directions, then by the keys in order;
 * - cope with wide plans: `$and`/`$or` with thousands of items (balance them if the engine
 *   limits expression depth) and long `$in` lists (bind them as one array where possible).
 * A printer never throws for a request's content: anything it cannot express must be caught by
 * the planner, so both backends answer the same status for the same query.
 */
export type * from './ir.js';
export { isFeedbackPath, resolveCallField, resolveFeedbackField } from './callFields.js';
export { CALL_COLUMNS, inputKey, planCallsOrder, planCallsWhere, loadedColumns, type CallColumn, type CallsWhere } from './callsPlan.js';
export { planExpr } from './callsExpr.js';
export { planFilter, MADE_BY_WEFT_FIELD } from './callsFilter.js';
export {
  indexableContains,
  planSearch,
  textsHold,
  textsHoldWord,
  wholeWordPattern,
  WORD_CHAR,
  MIN_SEARCH_CHARS,
  type CallsSearch,
} from './callsSearch.js';
export { callFromRow, type CallRow } from './callRow.js';
export { planThreadsFilter, rangeMatches, searchWords, type ThreadsFilterPlan } from './threadsFilter.js';
export { compareThreads } from './threadsOrder.js';
export {
  planTableQuery,
  planTableWhere,
  resolveTableField,
  tableRowToWire,
  tableValueRep,
  type JsonPathPart,
  type TableColumns,
  type TableColumnType,
  type TableCond,
  type TableField,
  type TablePlan,
  type TableQueryInput,
  type TableRep,
  type TableSortKey,
  type TableValue,
} from './tablePlan.js';
