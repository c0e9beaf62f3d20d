/**
 * Compiles a call query (CallsFilter, the `$expr` query language, sort_by, paging and column
 * selection) into parameterised ClickHouse SQL: the neutral plan (query/callsPlan.ts) printed by
 * callsSql.ts, as one SELECT of ids (the first phase of a two-phase read) and the columns the
 * rows phase loads. The semantics (which fields exist, what a filter means, the default order
 * and the id tie-break, every 400/422) come from the planner, so both backends answer the same.
 */
import { indexableContains, loadedColumns, planCallsOrder, planCallsWhere, type CallsSearch } from '../query/index.js';
import type { CallsQuery } from '../Store.js';
import type { Params } from './ClickHouseDatabase.js';
import type { SearchGrams } from './callSearch.js';
import { CallsSqlPrinter } from './callsSql.js';

/** A call a read may return: its start has arrived and it is not deleted. */
export const VISIBLE = 'started_at IS NOT NULL AND deleted_at IS NULL';

export interface CallsList {
  /** The page's SELECT: its ids, or its rows (the loaded columns) when `rows` is true. */
  pageSql: string;
  params: Params;
  /**
   * True when pageSql reads the page's rows in one statement: a search narrowed to its candidates
   * (or a list filter to its ids) already reads their granules, and a second read by id would
   * decompress them again (docs/performance.md "ClickHouse substring search").
   */
  rows: boolean;
  /**
   * For a page sorted by start time first (after the whole-word rank of a search, if any): the
   * page's SELECT restricted to the calls that started at or after (newest first; at or before,
   * oldest first) `{edge:Int64}`, and the query of the edge itself: the start of the
   * `{k:UInt64}`-th row of calls_by_start in that order (calls.ts pageByStart). With a rank first
   * it also selects `search_word`, the last row's rank telling whether the window is exact.
   * Null otherwise.
   */
  byStart: { pageSql: string; edgeSql: string; ranked: boolean } | null;
  /** Columns the rows phase loads (OTel calls also need their span, shown in attributes). */
  columns: readonly string[];
}

/** `grams`: the posting lists chosen for the query's searches (callSearch.ts chooseSearchGrams). */
export function compileCallsList(q: CallsQuery, grams?: SearchGrams): CallsList {
  const params: Params = { p: q.projectId };
  const printer = new CallsSqlPrinter(params, grams);
  const { where, prewhere, listed } = printConditions(q, printer);
  const keys = planCallsOrder(q);
  const orderKeys = keys.map((key) => printer.sortKey(key));
  const order = orderKeys.join(', ');
  let page = '';
  if (q.limit != null || q.offset != null) {
    params.limit = q.limit ?? 0;
    params.offset = q.offset ?? 0;
    // LIMIT 0 answers nothing, as in SQLite; no limit at all is the largest UInt64.
    page = q.limit != null ? ' LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : ' LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
  }
  const columns = loadedColumns(q.columns);
  const rows = prewhere !== '' && q.limit != null;
  const selected = rows ? columns.join(', ') : 'id';
  const pageSql = `SELECT ${selected} FROM calls FINAL${prewhere} WHERE ${where} ORDER BY ${order}${page}`;
  const ranked = keys[0]!.value.k === 'searchWord';
  const first = keys[ranked ? 1 : 0];
  let byStart: CallsList['byStart'] = null;
  // Listed ids, traces or threads are few: the project's newest starts would hardly hold them.
  if (
    q.limit != null &&
    !listed &&
    first?.value.k === 'field' &&
    first.value.field.kind === 'column' &&
    first.value.field.column === 'started_at'
  ) {
    const direction = first.direction === 'desc' ? 'DESC' : 'ASC';
    const cmp = direction === 'DESC' ? '>=' : '<=';
    const roots = q.filter?.trace_roots_only ? ' AND is_root = 1' : '';
    const starts = `calls_by_start WHERE project_id = {p:String}${roots}`;
    const inWindow = `id IN (SELECT id FROM ${starts} AND started_at ${cmp} {edge:Int64})`;
    // In PREWHERE, before FINAL merges (all of a call's parts share its id): only the window's
    // calls are merged, not every call of their granules; with a search's candidates beside it,
    // only granules holding a candidate inside the window are read whole.
    const windowPrewhere = prewhere ? `${prewhere} AND ${inWindow}` : ` PREWHERE project_id = {p:String} AND ${inWindow}`;
    const window = `started_at ${cmp} {edge:Int64}`;
    // The rank is the first sort key's expression again (its parameters bound once): the engine computes it once.
    const rank = ranked ? `, ${orderKeys[0]!.replace(/ DESC NULLS LAST$/, '')} AS search_word` : '';
    byStart = {
      pageSql: `SELECT ${selected}${rank} FROM calls FINAL${windowPrewhere} WHERE ${where} AND ${window} ORDER BY ${order}${page}`,
      edgeSql: `SELECT started_at AS t FROM ${starts} ORDER BY started_at ${direction} LIMIT 1 OFFSET {k:UInt64}`,
      ranked,
    };
  }
  return { pageSql, params, rows, columns, byStart };
}

/** The WHERE condition (over `calls FINAL`) of a query's project, visibility, filter clauses and `$expr`. */
export function compileCallsWhere(
  q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>,
  grams?: SearchGrams,
): {
  where: string;
  params: Params;
} {
  const params: Params = { p: q.projectId };
  return { where: printWhere(q, new CallsSqlPrinter(params, grams)), params };
}

/** The substring searches of a query's WHERE: its `search` filter and the `$contains` tests the index narrows. */
export function callsSearches(q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>): CallsSearch[] {
  const plan = planCallsWhere(q);
  const searches = plan.filter.flatMap((c) => (c.k === 'search' ? [c.search] : []));
  return [...searches, ...indexableContains(plan.expr)];
}

/** The WHERE condition, with its parameters bound through `printer` (the project is `{p:String}`). */
function printWhere(q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>, printer: CallsSqlPrinter): string {
  return printConditions(q, printer).where;
}

/**
 * The WHERE condition, and the PREWHERE clause (with a leading space, or '') holding the ids its
 * list filters find without FINAL (CallsSqlPrinter.listPrewhere) and the candidates of its
 * substring searches when posting lists were chosen for them (callSearch.ts).
 */
function printConditions(
  q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>,
  printer: CallsSqlPrinter,
): { where: string; prewhere: string; listed: boolean } {
  const plan = planCallsWhere(q);
  // `$contains` the substring indexes can narrow: a search of the indexed text, then the test decides (callSearch.ts).
  const contains = indexableContains(plan.expr);
  const searches = [...plan.filter.flatMap((c) => (c.k === 'search' ? [c.search] : [])), ...contains];
  const listed = plan.filter.flatMap((c) => printer.listPrewhere(c) ?? []);
  const candidates = [...listed, ...searches.flatMap((s) => printer.searchPrewhere(s) ?? [])];
  const clauses = ['project_id = {p:String}', VISIBLE, ...plan.filter.map((c) => printer.filterClause(c))];
  for (const search of contains) clauses.push(printer.filterClause({ k: 'search', search }));
  if (plan.expr) clauses.push(printer.where(plan.expr));
  const prewhere = candidates.length > 0 ? ` PREWHERE ${['project_id = {p:String}', ...candidates].join(' AND ')}` : '';
  return { where: clauses.join(' AND '), prewhere, listed: listed.length > 0 };
}
