/**
 * The ids phase of a ClickHouse call list: project, visibility, the structural CallsFilter
 * fields and sorts on stored columns, as one parameterised SELECT of ids.
 *
 * The `$expr` query language and sorts on JSON paths, feedback or computed fields belong to the
 * backend-neutral calls-query layer; until this backend prints that layer's AST it refuses them
 * with an error rather than answering differently from SQLite (and `openStore` does not offer
 * `WEFT_STORE=clickhouse` to `weft serve` before it does).
 */
import type { CallsQuery } from '../Store.js';
import { CALL_READ_COLUMNS } from './callConverters.js';

/** A call a read may return: its start has arrived and it is not deleted. */
export const VISIBLE = 'started_at IS NOT NULL AND deleted_at IS NULL';

/** Stored columns a sort may name directly (everything else waits for the query layer). */
const SORTABLE = new Set([
  'id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'ended_at',
  'exception',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
]);

const ALWAYS = ['id', 'trace_id', 'project_id', 'op_name', 'started_at'];
const FOR_SUMMARY = ['ended_at', 'exception', 'display_name'];

export interface CallsList {
  idsSql: string;
  params: Record<string, unknown>;
  /** Columns the rows phase loads. */
  columns: string[];
}

export class UnsupportedCallsQuery extends Error {}

export function compileCallsList(q: CallsQuery): CallsList {
  const { where, params } = compileCallsWhere(q);
  const order = compileOrder(q.sortBy ?? null);
  let idsSql = `SELECT id FROM calls FINAL WHERE ${where} ORDER BY ${order}`;
  if (q.limit != null || q.offset != null) {
    params.limit = q.limit ?? 0;
    params.offset = q.offset ?? 0;
    // LIMIT 0 in ClickHouse means none, like SQLite's; no limit at all is the max UInt64.
    idsSql += q.limit != null ? ' LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : ' LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
  }
  return { idsSql, params, columns: selectedColumns(q.columns) };
}

/** The WHERE condition (over `calls FINAL`) of a query's project, visibility and filters. */
export function compileCallsWhere(q: Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>): {
  where: string;
  params: Record<string, unknown>;
} {
  if (q.query) throw new UnsupportedCallsQuery('The ClickHouse store does not evaluate $expr call queries yet.');
  if (q.expandColumns?.length) throw new UnsupportedCallsQuery('The ClickHouse store does not expand ref columns yet.');
  const params: Record<string, unknown> = { p: q.projectId };
  const clauses = ['project_id = {p:String}', VISIBLE];
  let n = 0;
  const inList = (column: string, values: string[] | null | undefined) => {
    if (!values?.length) return;
    const name = `l${n++}`;
    params[name] = values;
    clauses.push(`${column} IN {${name}:Array(String)}`);
  };
  const f = q.filter ?? {};
  if (f.op_names?.length) {
    const exact = f.op_names.filter((o) => !o.endsWith(':*'));
    const prefixes = f.op_names.filter((o) => o.endsWith(':*')).map((o) => o.slice(0, -1));
    const parts: string[] = [];
    if (exact.length) {
      params.ops = exact;
      parts.push('op_name IN {ops:Array(String)}');
    }
    prefixes.forEach((p, i) => {
      params[`op${i}`] = p;
      parts.push(`startsWith(op_name, {op${i}:String})`);
    });
    clauses.push(`(${parts.join(' OR ')})`);
  }
  inList('parent_id', f.parent_ids);
  inList('trace_id', f.trace_ids);
  inList('id', f.call_ids);
  inList('thread_id', f.thread_ids);
  inList('turn_id', f.turn_ids);
  inList('wb_user_id', f.wb_user_ids);
  inList('wb_run_id', f.wb_run_ids);
  for (const [column, refs] of [
    ['input_refs', f.input_refs],
    ['output_refs', f.output_refs],
  ] as const) {
    if (!refs?.length) continue;
    params[column] = refs;
    clauses.push(`hasAny(JSONExtract(ifNull(${column}, '[]'), 'Array(String)'), {${column}:Array(String)})`);
  }
  if (f.trace_roots_only) clauses.push('parent_id IS NULL');
  return { where: clauses.join(' AND '), params };
}

/** Same contract as the SQLite store: null → started_at, id; otherwise the keys then id; NULLs last. */
function compileOrder(sortBy: CallsQuery['sortBy']): string {
  if (sortBy == null) return 'started_at ASC, id ASC';
  const keys = sortBy.map(({ field, direction }) => {
    if (!SORTABLE.has(field)) throw new UnsupportedCallsQuery(`The ClickHouse store does not sort calls by "${field}" yet.`);
    return `${field} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
  });
  if (!sortBy.some((s) => s.field === 'id')) keys.push('id ASC');
  return keys.join(', ');
}

function selectedColumns(columns: string[] | null | undefined): string[] {
  if (!columns || columns.length === 0) return [...CALL_READ_COLUMNS];
  const wanted = new Set<string>(ALWAYS);
  for (const c of columns) {
    const top = c.split('.')[0]!;
    wanted.add(top);
    if (top === 'summary') for (const extra of FOR_SUMMARY) wanted.add(extra);
    if (top === 'attributes') wanted.add('otel_dump');
  }
  return CALL_READ_COLUMNS.filter((c) => wanted.has(c));
}
