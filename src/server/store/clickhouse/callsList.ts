/**
 * The ClickHouse printer of the backend-neutral calls-query plan (store/query/), as far as it
 * goes: project, visibility, every CallsFilter clause, and sort keys on top-level columns,
 * printed as one parameterised SELECT of ids (the first phase of a two-phase read).
 *
 * The semantics (which fields exist, what a filter means, the default order and the id
 * tie-break, every 400/422) come from the planner, so both backends refuse the same requests.
 * What this printer does not render yet (`$expr` conditions, JSON-path, computed and feedback
 * sort keys, expanded refs) it refuses with an error rather than answering differently from
 * SQLite, and `openStore` does not offer `WEFT_STORE=clickhouse` to `weft serve` until it does.
 */
import { planCallsOrder, planCallsWhere, selectedColumns as plannedColumns, type FilterClause, type SortKey } from '../query/index.js';
import type { CallsQuery } from '../Store.js';
import type { Params } from './ClickHouseDatabase.js';

/** A call a read may return: its start has arrived and it is not deleted. */
export const VISIBLE = 'started_at IS NOT NULL AND deleted_at IS NULL';

export interface CallsList {
  idsSql: string;
  params: Params;
  /** Columns the rows phase loads (OTel calls also need their span, shown in attributes). */
  columns: string[];
}

export class UnsupportedCallsQuery extends Error {}

export function compileCallsList(q: CallsQuery): CallsList {
  const { where, params } = compileCallsWhere(q);
  const order = planCallsOrder(q).map((key) => printSortKey(key));
  let idsSql = `SELECT id FROM calls FINAL WHERE ${where} ORDER BY ${order.join(', ')}`;
  if (q.limit != null || q.offset != null) {
    params.limit = q.limit ?? 0;
    params.offset = q.offset ?? 0;
    // LIMIT 0 answers nothing, as in SQLite; no limit at all is the largest UInt64.
    idsSql += q.limit != null ? ' LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : ' LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
  }
  const columns: string[] = plannedColumns(q.columns);
  if (columns.includes('attributes')) columns.push('otel_dump');
  return { idsSql, params, columns };
}

/** The WHERE condition (over `calls FINAL`) of a query's project, visibility and filter clauses. */
export function compileCallsWhere(q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>): {
  where: string;
  params: Params;
} {
  const plan = planCallsWhere(q);
  if (plan.expr) throw new UnsupportedCallsQuery('The ClickHouse store does not evaluate $expr call queries yet.');
  const params: Params = { p: plan.projectId };
  const clauses = ['project_id = {p:String}', VISIBLE, ...plan.filter.map((c, i) => printFilterClause(c, `f${i}`, params))];
  return { where: clauses.join(' AND '), params };
}

/** One CallsFilter clause (ir.ts `FilterClause`); lists bind as one Array(String) parameter. */
function printFilterClause(c: FilterClause, name: string, params: Params): string {
  switch (c.k) {
    case 'in':
      params[name] = c.values;
      return `${c.column} IN {${name}:Array(String)}`;
    case 'opNames': {
      const parts: string[] = [];
      if (c.exact.length) {
        params[name] = c.exact;
        parts.push(`op_name IN {${name}:Array(String)}`);
      }
      c.prefixes.forEach((prefix, i) => {
        params[`${name}_${i}`] = prefix;
        parts.push(`startsWith(op_name, {${name}_${i}:String})`);
      });
      return `(${parts.join(' OR ')})`;
    }
    case 'refs':
      params[name] = c.refs;
      return `hasAny(JSONExtract(ifNull(${c.column}, '[]'), 'Array(String)'), {${name}:Array(String)})`;
    case 'traceRoots':
      return 'parent_id IS NULL';
  }
}

/** A sort key on a top-level column; NULLs last both ways, as the plan says. */
function printSortKey(key: SortKey): string {
  const v = key.value;
  if (v.k !== 'field' || v.field.kind !== 'column') {
    throw new UnsupportedCallsQuery('The ClickHouse store sorts calls by top-level columns only yet.');
  }
  const column = v.field.emptyIsNull ? `nullIf(${v.field.column}, '')` : v.field.column;
  return `${column} ${key.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
}
