/**
 * Compiles a call query (CallsFilter, the `$expr` query language, sort_by, paging and
 * column selection) into one parameterised SQLite statement: the neutral plan
 * (query/callsPlan.ts) printed by callsSql.ts. Values never enter the SQL text; only column
 * names from fixed lists and `?` placeholders do.
 */
import type { CallsFilter } from '../../../contract/calls.js';
import { indexableContains, loadedColumns, planCallsOrder, planCallsWhere, planFilter } from '../query/index.js';
import { searchCandidates } from './callSearch.js';
import type { CallsQuery } from '../Store.js';
import { storageSizeSql, TOTAL_STORAGE_SIZE_SQL } from './callsColumnsSql.js';
import { printCondition, printFilterClause, printSortKey } from './callsSql.js';
import { joinSql, raw, type SqlFragment } from './sql.js';

/**
 * Whether the filter lists ids (parents, traces, calls, threads, turns): such a list picks few
 * rows, so its index must drive the plan, not a start-time range or order (docs/performance.md
 * "SQLite at 10M calls").
 */
function picksByIds(q: CallsQuery): boolean {
  const f = q.filter;
  return [f?.parent_ids, f?.trace_ids, f?.call_ids, f?.thread_ids, f?.turn_ids].some((list) => list?.length);
}

/** WHERE clause for a query: project, visibility, CallsFilter and `$expr` (through `expandColumns`). */
export function compileWhere(q: CallsQuery): SqlFragment {
  const plan = planCallsWhere(q);
  const byIds = picksByIds(q);
  // A search's candidates (by rowid, from the substring index) drive the plan unless ids do:
  // `+project_id` keeps SQLite from walking every call of the project by a (project_id, ...)
  // index to test each against the candidates (docs/search.md "At scale"). A search ranks every
  // match anyway; a `$contains` sorted by time may stop early on calls_by_start, so it keeps it.
  const searched = !byIds && plan.filter.some((c) => c.k === 'search');
  // `+started_at`: the unary plus keeps this visibility test out of index planning; as a plain
  // term SQLite takes it as the index seek's lower bound instead of a requested start time.
  const clauses = [searched ? '+project_id = ?' : 'project_id = ?', '+started_at IS NOT NULL', 'deleted_at IS NULL'];
  const params: unknown[] = [plan.projectId];
  const add = (f: SqlFragment) => {
    clauses.push(f.sql);
    params.push(...f.params);
  };
  for (const clause of plan.filter) add(printFilterClause(clause));
  if (plan.expr) {
    // `$contains` the substring index can narrow: its candidates, then the test decides (callSearch.ts).
    for (const search of indexableContains(plan.expr)) add(searchCandidates(search));
    // Under a list of ids, `+(...)` keeps the query's own terms out of index planning: a date
    // bound `started_at >= ?` otherwise lures SQLite onto (project_id, started_at) and a walk
    // of half the project for one thread's ten turns (1.7 s at 2M calls).
    const expr = printCondition(plan.expr);
    add(byIds ? { sql: `+(${expr.sql})`, params: expr.params } : expr);
  }
  return { sql: clauses.join(' AND '), params };
}

/** One fragment per set CallsFilter field; lists are OR within a field. */
export function compileFilter(filter: CallsFilter, projectId: string): SqlFragment[] {
  return planFilter(filter, projectId).map(printFilterClause);
}

/** The full SELECT for a stream query. */
export function compileSelect(q: CallsQuery): SqlFragment {
  const where = compileWhere(q);
  const byIds = picksByIds(q);
  // A list of ids picks few rows, so its index must drive the plan. An order by a plain
  // started_at (the default, or the thread view's sort) lures SQLite onto the
  // (project_id, started_at) index instead, which walks the whole project (2.5 s for the
  // children of one call at 1M calls); `+key` cannot use an index, so the few rows are found
  // by id and sorted.
  const keys = planCallsOrder(q).map(printSortKey);
  const order =
    byIds && (q.sortBy ?? null) === null && !q.filter?.search?.trim()
      ? raw('+started_at ASC, id ASC')
      : joinSql(byIds ? keys.map((k) => ({ sql: `+${k.sql}`, params: k.params })) : keys, ', ');
  // With the columns that say whether inputs and output hold markers (calls.ts inflatedRow).
  const cols = `${loadedColumns(q.columns).join(', ')}, inputs_chars, output_chars`;
  const extra = [
    q.includeStorageSize ? `, ${storageSizeSql()} AS storage_size_bytes` : '',
    q.includeTotalStorageSize ? `, ${TOTAL_STORAGE_SIZE_SQL} AS total_storage_size_bytes` : '',
  ].join('');
  const params = [...where.params, ...order.params];
  let sql = `SELECT ${cols}${extra} FROM calls WHERE ${where.sql} ORDER BY ${order.sql}`;
  if (q.limit != null || q.offset != null) {
    sql += ' LIMIT ? OFFSET ?';
    params.push(q.limit ?? -1, q.offset ?? 0);
  }
  return { sql, params };
}

/** COUNT(*) of the matching calls, capped at `limit`. */
export function compileCount(q: CallsQuery): SqlFragment {
  const where = compileWhere(q);
  if (q.limit != null) {
    return {
      sql: `SELECT count(*) AS n FROM (SELECT 1 FROM calls WHERE ${where.sql} LIMIT ?)`,
      params: [...where.params, q.limit],
    };
  }
  return { sql: `SELECT count(*) AS n FROM calls WHERE ${where.sql}`, params: where.params };
}
