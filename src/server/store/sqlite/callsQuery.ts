/**
 * Compiles a call query (CallsFilter, the `$expr` query language, sort_by, paging and
 * column selection) into one parameterised SQLite statement. Values never enter the SQL
 * text; only column names from the fixed lists below and `?` placeholders do.
 */
import type { CallsFilter } from '../../../contract/calls.js';
import type { SortBy } from '../../../contract/common.js';
import type { CallsQuery } from '../Store.js';
import { compileExpr } from './callsExpr.js';
import { raw } from './callsFields.js';
import { compileOrderBy } from './callsOrder.js';
import { withExpandColumns } from './callsExpand.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** Every stored column a call read can return, in CallSchema order. */
export const CALL_COLUMNS = [
  'id',
  'project_id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'ended_at',
  'attributes',
  'inputs',
  'output',
  'exception',
  'summary',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
] as const;
export type CallColumn = (typeof CALL_COLUMNS)[number];

const ALWAYS: CallColumn[] = ['id', 'trace_id', 'project_id', 'op_name', 'started_at'];
const FOR_SUMMARY: CallColumn[] = ['ended_at', 'exception', 'display_name'];

/** Bytes a call takes in storage: the JSON and text payloads it carries. */
export function storageSizeSql(table = 'calls'): string {
  const cols = ['attributes', 'inputs', 'output', 'summary', 'exception'];
  return `(${cols.map((c) => `coalesce(length(${table}.${c}), 0)`).join(' + ')})`;
}

/** Storage of a whole trace, reported on its root call only. */
export const TOTAL_STORAGE_SIZE_SQL =
  `CASE WHEN calls.parent_id IS NULL THEN (SELECT sum(${storageSizeSql('t')}) FROM calls t` +
  ' WHERE t.project_id = calls.project_id AND t.trace_id = calls.trace_id AND t.deleted_at IS NULL) END';

/** `summary.weave.status`, as the reference computes it for filtering and sorting. */
export const STATUS_SQL =
  "(CASE WHEN exception IS NOT NULL THEN 'error'" +
  " WHEN coalesce(json_extract(summary, '$.status_counts.error'), 0) > 0 THEN 'descendant_error'" +
  " WHEN ended_at IS NULL THEN 'running' ELSE 'success' END)";

/** `summary.weave.latency_ms`: whole milliseconds, null while running. */
export const LATENCY_MS_SQL = '((ended_at - started_at) / 1000)';

/** `summary.weave.trace_name`: the display name, else the op's name. */
export const TRACE_NAME_SQL = "coalesce(nullif(display_name, ''), op_base_name)";

/** Which columns to load for a `columns` request (null → all). */
export function selectedColumns(columns: string[] | null | undefined): CallColumn[] {
  if (!columns || columns.length === 0) return [...CALL_COLUMNS];
  const wanted = new Set<string>(ALWAYS);
  for (const c of columns) {
    const top = c.split('.')[0]!;
    wanted.add(top);
    if (top === 'summary') for (const extra of FOR_SUMMARY) wanted.add(extra);
  }
  return CALL_COLUMNS.filter((c) => wanted.has(c));
}

/** WHERE clause for a query: project, visibility, CallsFilter and `$expr` (through `expandColumns`). */
export function compileWhere(q: CallsQuery): SqlFragment {
  return withExpandColumns(q.expandColumns, () => compileWhereClauses(q));
}

function compileWhereClauses(q: CallsQuery): SqlFragment {
  // `+started_at`: the unary plus keeps this visibility test out of index planning; as a plain
  // term SQLite takes it as the index seek's lower bound instead of a requested start time.
  const clauses = ['project_id = ?', '+started_at IS NOT NULL', 'deleted_at IS NULL'];
  const params: unknown[] = [q.projectId];
  const add = (f: SqlFragment) => {
    clauses.push(f.sql);
    params.push(...f.params);
  };
  if (q.filter) for (const f of compileFilter(q.filter)) add(f);
  if (q.query) add(compileExpr(q.query.$expr));
  return { sql: clauses.join(' AND '), params };
}

/** One fragment per set CallsFilter field; lists are OR within a field. */
export function compileFilter(filter: CallsFilter): SqlFragment[] {
  const out: SqlFragment[] = [];
  // Lists travel as one JSON array parameter: any length binds one value (SQLite allows
  // 32,766 per statement; /calls/usage passes every requested call id through here).
  const inList = (column: string, values: string[] | null | undefined) => {
    if (!values || values.length === 0) return;
    out.push({ sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(values)] });
  };
  if (filter.op_names?.length) {
    const exact = filter.op_names.filter((n) => !n.endsWith(':*'));
    const prefixes = filter.op_names.filter((n) => n.endsWith(':*')).map((n) => n.slice(0, -1));
    const parts: string[] = [];
    const params: unknown[] = [];
    if (exact.length) {
      parts.push('op_name IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(exact));
    }
    for (const p of prefixes) {
      // `name:*` as a range (p <= op_name < p with its last character ':' raised to ';'), which
      // the (project_id, op_name) index serves; for binary text it holds exactly when op_name
      // starts with p.
      parts.push('(op_name >= ? AND op_name < ?)');
      params.push(p, p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1));
    }
    out.push({ sql: `(${parts.join(' OR ')})`, params });
  }
  inList('parent_id', filter.parent_ids);
  inList('trace_id', filter.trace_ids);
  inList('id', filter.call_ids);
  inList('thread_id', filter.thread_ids);
  inList('turn_id', filter.turn_ids);
  inList('wb_user_id', filter.wb_user_ids);
  inList('wb_run_id', filter.wb_run_ids);
  for (const [column, refs] of [
    ['input_refs', filter.input_refs],
    ['output_refs', filter.output_refs],
  ] as const) {
    if (!refs?.length) continue;
    out.push({
      sql: `EXISTS (SELECT 1 FROM json_each(${column}) r WHERE r.value IN (SELECT value FROM json_each(?)))`,
      params: [JSON.stringify(refs)],
    });
  }
  if (filter.trace_roots_only) out.push({ sql: 'parent_id IS NULL', params: [] });
  return out;
}

/** The full SELECT for a stream query. */
export function compileSelect(q: CallsQuery): SqlFragment {
  const where = compileWhere(q);
  const f = q.filter;
  const byIds = [f?.parent_ids, f?.trace_ids, f?.call_ids, f?.thread_ids, f?.turn_ids].some((list) => list?.length);
  // A list of ids picks few rows, so its index must drive the plan. The default order by a
  // plain started_at lures SQLite onto the (project_id, started_at) index instead, which walks
  // the whole project (2.5 s for the children of one call at 1M calls); `+started_at` cannot
  // use that index, so the few rows are found by id and sorted.
  const order =
    byIds && (q.sortBy ?? null) === null
      ? raw('+started_at ASC, id ASC')
      : withExpandColumns(q.expandColumns, () => compileOrderBy(q.sortBy ?? null));
  const selected = selectedColumns(q.columns);
  // OTel calls show their span as attributes.otel_span (see callConverters.ts).
  const cols = (selected.includes('attributes') ? [...selected, 'otel_dump'] : selected).join(', ');
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

export type { SortBy };
