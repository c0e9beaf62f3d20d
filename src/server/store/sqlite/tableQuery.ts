/**
 * The SQLite printer of the flat-table query plan (store/query/tablePlan.ts, which decides what a
 * `/feedback/query` or `/cost/query` request means and every 400 it earns), and the two
 * statements those stores share (a query, a purge by ids).
 *
 * Contract: the SQL text holds only the table's whitelisted column names, fixed operators and
 * `?` placeholders; every literal and JSON path is a bound parameter.
 */
import type { Query } from '../../../contract/common.js';
import {
  planTableQuery,
  planTableWhere,
  tableRowToWire,
  type JsonPathPart,
  type TableColumns,
  type TableCond,
  type TablePlan,
  type TableQueryInput,
  type TableValue,
} from '../query/index.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

export type { TableColumns };

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const frag = (sql: string, ...params: unknown[]): SqlFragment => ({ sql, params });
const join = (parts: SqlFragment[], sep: string): SqlFragment => ({
  sql: parts.map((p) => p.sql).join(sep),
  params: parts.flatMap((p) => p.params),
});
const wrap = (before: string, f: SqlFragment, after: string): SqlFragment => ({ sql: `${before}${f.sql}${after}`, params: f.params });

/**
 * Parts joined as a balanced tree of parentheses: SQLite refuses an expression tree deeper
 * than 1,000, and a flat `a AND b AND ...` chain is as deep as it is long.
 */
function balanced(parts: SqlFragment[], sep: string): SqlFragment {
  if (parts.length <= 8) return wrap('(', join(parts, sep), ')');
  const half = Math.ceil(parts.length / 2);
  return wrap('(', join([balanced(parts.slice(0, half), sep), balanced(parts.slice(half), sep)], sep), ')');
}

/** A plan path as an SQLite JSON path (`$."key"[0]`); the planner refuses keys holding `"`. */
const jsonPath = (path: JsonPathPart[]) => '$' + path.map((p) => ('index' in p ? `[${p.index}]` : `."${p.key}"`)).join('');

/** A value (tablePlan.ts `TableValue`). */
function value(v: TableValue): SqlFragment {
  switch (v.k) {
    case 'column':
      return frag(v.name);
    case 'columnText':
      return frag(`CAST(${v.name} AS TEXT)`);
    case 'literal':
      return v.value === null ? frag('NULL') : frag('?', v.value);
    case 'json': {
      const [c, p] = [v.column, jsonPath(v.path)];
      if (v.view === 'number') {
        return frag(
          `(CASE json_type(${c}, ?) WHEN 'integer' THEN ${c} ->> ? WHEN 'real' THEN ${c} ->> ?` +
            ` WHEN 'text' THEN (CASE WHEN (${c} ->> ?) <> '' AND (${c} ->> ?) NOT GLOB '*[^0-9.eE+-]*'` +
            ` THEN CAST(${c} ->> ? AS REAL) END) END)`,
          p,
          p,
          p,
          p,
          p,
          p,
        );
      }
      if (v.view === 'bool') return frag(`(CASE json_type(${c}, ?) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`, p);
      return frag(
        `(CASE json_type(${c}, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'` +
          ` WHEN 'object' THEN ${c} -> ? WHEN 'array' THEN ${c} -> ? ELSE CAST(${c} ->> ? AS TEXT) END)`,
        p,
        p,
        p,
        p,
      );
    }
    case 'jsonExists':
      return frag(`(json_type(${v.column}, ?) IS NOT NULL)`, jsonPath(v.path));
    case 'notNull':
      return wrap('(', value(v.value), ' IS NOT NULL)');
    case 'toInt':
      return wrap('CAST(', value(v.value), ' AS INTEGER)');
    case 'toReal':
      return wrap('CAST(', value(v.value), ' AS REAL)');
    case 'size':
      if (v.path === null) return frag(`(CASE json_type(${v.column}) WHEN 'array' THEN json_array_length(${v.column}) END)`);
      return frag(
        `(CASE json_type(${v.column}, ?) WHEN 'array' THEN json_array_length(${v.column}, ?) END)`,
        jsonPath(v.path),
        jsonPath(v.path),
      );
    case 'cond':
      return cond(v.cond);
  }
}

/** A condition as a 0/1 expression that is never NULL. */
function cond(c: TableCond): SqlFragment {
  switch (c.k) {
    case 'and':
    case 'or':
      return balanced(c.items.map(cond), c.k === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return wrap('(NOT ', cond(c.item), ')');
    case 'truthy':
      return wrap('coalesce(', value(c.value), ', 0)');
    case 'false':
      return frag('0');
    case 'compare':
      return wrap('coalesce(', join([value(c.a), value(c.b)], ` ${c.op} `), ', 0)');
    case 'in': {
      const inList = wrap('coalesce(', join([value(c.value), wrap(' IN (', join(c.items.map(value), ', '), ')')], ''), ', 0)');
      return c.orNull ? wrap('(', join([inList, isNull(c.value)], ' OR '), ')') : inList;
    }
    case 'contains': {
      const fold = (f: SqlFragment) => (c.caseInsensitive ? wrap('lower(', f, ')') : f);
      return wrap('coalesce(instr(', join([fold(value(c.hay)), fold(value(c.needle))], ', '), ') > 0, 0)');
    }
    case 'listHas': {
      const element = c.caseInsensitive ? 'lower(e.value)' : 'e.value';
      const needle = c.caseInsensitive ? wrap('lower(', value(c.needle), ')') : value(c.needle);
      return wrap(
        `EXISTS (SELECT 1 FROM json_each(CASE json_type(${c.column}) WHEN 'array' THEN ${c.column} ELSE '[]' END) AS e WHERE e.type = 'text' AND ${element} = `,
        needle,
        ')',
      );
    }
    case 'isNull':
      return isNull(c.value);
  }
}

function isNull(v: TableValue): SqlFragment {
  if (v.k === 'json') {
    const p = jsonPath(v.path);
    return frag(`(json_type(${v.column}, ?) IS NULL OR json_type(${v.column}, ?) = 'null')`, p, p);
  }
  return wrap('(', value(v), ' IS NULL)');
}

export interface TableQuery extends TableQueryInput {
  table: string;
  columns: TableColumns;
  /** Conditions every row must meet (project scoping); fixed SQL with bound values. */
  scope: SqlFragment;
  /** The fields without `fields` (every column when absent). */
  defaultFields?: readonly string[];
  /** ORDER BY terms used after (or instead of) `sortBy`, fixed SQL. */
  tieBreak: string;
}

/** The WHERE condition of a `$expr` query over the table. */
export function compileTableWhere(columns: TableColumns, query: Query): SqlFragment {
  return cond(planTableWhere(columns, query));
}

/** Sort terms; a JSON path sorts present values first, then numerically, then as text. */
function orderTerms(plan: TablePlan): SqlFragment[] {
  return plan.order.flatMap(({ field, direction }) => {
    const dir = direction === 'desc' ? 'DESC' : 'ASC';
    if (field.kind === 'column') return [frag(`${field.name} ${dir}`)];
    const read = (view: 'number' | 'text') => value({ k: 'json', column: field.column, path: field.path, view });
    return [
      frag(`(json_type(${field.column}, ?) IS NULL) ASC`, jsonPath(field.path)),
      wrap('', read('number'), ` ${dir}`),
      wrap('', read('text'), ` ${dir}`),
    ];
  });
}

/** The full SELECT of a plan; column `f<i>` holds field i. */
function printSelect(q: TableQuery, plan: TablePlan): SqlFragment {
  const selects = plan.fields.map(({ field }) =>
    field.kind === 'column' ? frag(field.name) : frag(`(${field.column} -> ?)`, jsonPath(field.path)),
  );
  const where = plan.where ? join([q.scope, frag(' AND '), cond(plan.where)], '') : q.scope;
  const order = [...orderTerms(plan), frag(q.tieBreak)];
  const parts = [
    frag(`SELECT ${selects.map((s, i) => `${s.sql} AS f${i}`).join(', ')} FROM ${q.table} WHERE `, ...selects.flatMap((s) => s.params)),
    where,
    join(
      order.map((o, i) => wrap(i === 0 ? ' ORDER BY ' : ', ', o, '')),
      '',
    ),
  ];
  if (plan.limit != null || plan.offset != null) parts.push(frag(' LIMIT ? OFFSET ?', plan.limit ?? -1, plan.offset ?? 0));
  return join(parts, '');
}

/** Runs the query on `db`: the rows in wire form, keyed by the selected fields. */
export function queryTable(db: SqliteDatabase, q: TableQuery): Record<string, unknown>[] {
  const plan = planTableQuery(q.columns, q, q.defaultFields);
  const select = printSelect(q, plan);
  const rows = db.all<Record<string, unknown>>(select.sql, select.params);
  return rows.map((row) =>
    tableRowToWire(
      q.columns,
      plan.fields,
      plan.fields.map((_, i) => row[`f${i}`]),
    ),
  );
}

/** How many rows of the table in `scope` match `query` (no paging). */
export function countTable(db: SqliteDatabase, q: Pick<TableQuery, 'table' | 'columns' | 'scope' | 'query'>): number {
  const where = q.query ? join([q.scope, frag(' AND '), compileTableWhere(q.columns, q.query)], '') : q.scope;
  return db.all<{ n: number }>(`SELECT count(*) AS n FROM ${q.table} WHERE ${where.sql}`, where.params)[0]!.n;
}

/** Ids per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** Deletes the rows in `scope` whose `id` is listed, in one transaction; returns how many existed. */
export function deleteTableIds(db: SqliteDatabase, req: { table: string; scope: SqlFragment; ids: string[] }): number {
  return db.transaction(() => {
    let deleted = 0;
    for (let i = 0; i < req.ids.length; i += CHUNK) {
      const ids = req.ids.slice(i, i + CHUNK);
      const sql = `DELETE FROM ${req.table} WHERE ${req.scope.sql} AND id IN (${ids.map(() => '?').join(', ')})`;
      deleted += db.run(sql, [...req.scope.params, ...ids]).changes;
    }
    return deleted;
  });
}
