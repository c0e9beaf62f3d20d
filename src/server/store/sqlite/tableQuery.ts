/**
 * The query language (`$expr`, `fields`, `sort_by`, paging) over a flat table with a few JSON
 * columns, as the reference's small ORM (`weave/trace_server/orm.py`) applies it to feedback
 * and LLM prices, and the two statements those stores share (a query, a purge by ids). Calls
 * have their own, richer compiler (callsExpr.ts).
 *
 * Contract: the SQL text holds only the table's whitelisted column expressions, fixed operators
 * and `?` placeholders; every literal and JSON path is a bound parameter. Unknown fields are
 * 400 (the reference raises ValueError "Unknown field"), as is anything it cannot compare.
 *
 * Decisions (the ORM is ClickHouse-only, so SQLite needs its own reading of it):
 * - `<json column>.<path>` reads inside a JSON column; `\.` escapes a dot inside a key and a
 *   numeric part indexes a list. In `fields` the value comes back with its JSON type (the
 *   ClickHouse ORM returns JSON_VALUE strings; the old SQLite server returned native values).
 * - In comparisons a JSON value takes the type of the other side: a number literal compares
 *   numerically (JSON numbers and numeric strings), a boolean against JSON true/false,
 *   anything else as text (true reads "true"). That is what the newest reference infers.
 * - Datetime columns take ISO 8601 strings or unix seconds, like `maybe_convert_datetime_operands`.
 * - A condition on a missing value is false, also under `$not`.
 * - `$containsToken` is a calls-only operation here (400).
 */
import type { ContainsSpec, JsonValue, Operand, Operation, Query, SortBy } from '../../../contract/common.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';
import { BadRequestError } from '../../errors.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

export type ColumnType = 'text' | 'number' | 'datetime' | 'json';

/** A table the compiler may read: wire field name → column type (the SQL name is the same). */
export type TableColumns = Record<string, ColumnType>;

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

type Field = { kind: 'column'; name: string; type: ColumnType } | { kind: 'json'; column: string; path: string };
type ScalarType = 'text' | 'number' | 'datetime' | 'bool';
type Value = { kind: 'field'; field: Field } | { kind: 'literal'; value: JsonValue } | { kind: 'sql'; frag: SqlFragment; type: ScalarType };

const frag = (sql: string, ...params: unknown[]): SqlFragment => ({ sql, params });
const join = (parts: SqlFragment[], sep: string): SqlFragment => ({
  sql: parts.map((p) => p.sql).join(sep),
  params: parts.flatMap((p) => p.params),
});

/**
 * Parts joined as a balanced tree of parentheses: SQLite refuses an expression tree deeper
 * than 1,000, and a flat `a AND b AND ...` chain is as deep as it is long.
 */
function balanced(parts: SqlFragment[], sep: string): SqlFragment {
  if (parts.length <= 8) {
    const all = join(parts, sep);
    return { sql: `(${all.sql})`, params: all.params };
  }
  const half = Math.ceil(parts.length / 2);
  const both = join([balanced(parts.slice(0, half), sep), balanced(parts.slice(half), sep)], sep);
  return { sql: `(${both.sql})`, params: both.params };
}

/** Resolves a wire field name, or throws 400. */
export function resolveField(columns: TableColumns, name: string): Field {
  const type = columns[name];
  if (type) return { kind: 'column', name, type };
  const parts = name.split(/(?<!\\)\./).map((p) => p.replace(/\\\./g, '.'));
  const [head, ...rest] = parts;
  if (head && columns[head] === 'json' && rest.length > 0 && rest.every((p) => p !== '' && !p.includes('"'))) {
    return { kind: 'json', column: head, path: '$' + rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `."${p}"`)).join('') };
  }
  throw new BadRequestError(`Unknown field: ${name}`);
}

/** The SQL reading a field as the given type. */
function read(field: Field, as: ScalarType): SqlFragment {
  if (field.kind === 'column') {
    if (as === 'text' && field.type === 'number') return frag(`CAST(${field.name} AS TEXT)`);
    return frag(field.name);
  }
  const { column: c, path: p } = field;
  switch (as) {
    case 'number':
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
    case 'bool':
      return frag(`(CASE json_type(${c}, ?) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`, p);
    default:
      return frag(
        `(CASE json_type(${c}, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'` +
          ` WHEN 'object' THEN ${c} -> ? WHEN 'array' THEN ${c} -> ? ELSE CAST(${c} ->> ? AS TEXT) END)`,
        p,
        p,
        p,
        p,
      );
  }
}

function literalType(v: JsonValue): ScalarType | null {
  if (v === null) return null;
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'text';
}

function literal(v: JsonValue, as: ScalarType): SqlFragment {
  if (v === null) return frag('NULL');
  if (as === 'datetime') {
    const micros = typeof v === 'number' ? Math.round(v * 1e6) : typeof v === 'string' ? parseIsoToMicros(v) : null;
    if (micros === null) throw new BadRequestError(`Cannot compare a datetime with ${JSON.stringify(v)}`);
    return frag('?', micros);
  }
  if (as === 'number' || as === 'bool') {
    if (typeof v === 'number') return frag('?', v);
    if (typeof v === 'boolean') return frag('?', v ? 1 : 0);
    throw new BadRequestError(`Cannot compare a number with ${JSON.stringify(v)}`);
  }
  return frag('?', typeof v === 'string' ? v : JSON.stringify(v));
}

/** The type a value has on its own, or null when it adapts (JSON paths and null). */
function ownType(v: Value): ScalarType | null {
  if (v.kind === 'literal') return literalType(v.value);
  if (v.kind === 'sql') return v.type;
  if (v.field.kind === 'json') return null;
  return v.field.type === 'json' ? 'text' : v.field.type;
}

function commonType(a: Value, b: Value): ScalarType {
  const [ta, tb] = [ownType(a), ownType(b)];
  if (ta === 'datetime' || tb === 'datetime') return 'datetime';
  if (ta === null || tb === null || ta === tb) return ta ?? tb ?? 'text';
  if ((ta === 'number' || ta === 'bool') && (tb === 'number' || tb === 'bool')) return 'number';
  throw new BadRequestError(`Cannot compare a ${ta} with a ${tb}`);
}

function as(v: Value, type: ScalarType): SqlFragment {
  if (v.kind === 'literal') return literal(v.value, type);
  if (v.kind === 'sql') return v.frag;
  return read(v.field, type);
}

/** Compiles `$expr` trees for one table. */
class ExprCompiler {
  constructor(private readonly columns: TableColumns) {}

  value(o: Operand): Value {
    if ('$literal' in o) return { kind: 'literal', value: o.$literal };
    if ('$getField' in o) return { kind: 'field', field: resolveField(this.columns, o.$getField) };
    if ('$convert' in o) return this.convert(this.value(o.$convert.input), o.$convert.to);
    if ('$size' in o) return this.size(this.value(o.$size));
    return { kind: 'sql', frag: this.operation(o), type: 'bool' };
  }

  convert(v: Value, to: 'double' | 'string' | 'int' | 'bool' | 'exists'): Value {
    if (to === 'exists') {
      if (v.kind === 'field' && v.field.kind === 'json') {
        return { kind: 'sql', frag: frag(`(json_type(${v.field.column}, ?) IS NOT NULL)`, v.field.path), type: 'bool' };
      }
      const inner = as(v, ownType(v) ?? 'text');
      return { kind: 'sql', frag: { sql: `(${inner.sql} IS NOT NULL)`, params: inner.params }, type: 'bool' };
    }
    if (v.kind === 'literal') return v;
    const type: ScalarType = to === 'string' ? 'text' : to === 'bool' ? 'bool' : 'number';
    const inner = as(v, type);
    const sql =
      to === 'int' ? `CAST(${inner.sql} AS INTEGER)` : to === 'double' && ownType(v) === 'text' ? `CAST(${inner.sql} AS REAL)` : inner.sql;
    return { kind: 'sql', frag: { sql, params: inner.params }, type };
  }

  /** `$size`: a list's length; NULL for anything else (as in calls queries, callsValues.ts). */
  size(v: Value): Value {
    const number = (f: SqlFragment): Value => ({ kind: 'sql', frag: f, type: 'number' });
    if (v.kind === 'literal') return number(frag('?', Array.isArray(v.value) ? v.value.length : null));
    if (v.kind === 'field' && v.field.kind === 'json') {
      const { column: c, path: p } = v.field;
      return number(frag(`(CASE json_type(${c}, ?) WHEN 'array' THEN json_array_length(${c}, ?) END)`, p, p));
    }
    if (v.kind === 'field' && v.field.kind === 'column' && v.field.type === 'json') {
      const c = v.field.name;
      return number(frag(`(CASE json_type(${c}) WHEN 'array' THEN json_array_length(${c}) END)`));
    }
    return number(frag('NULL'));
  }

  /** An operand used as a condition: an undecidable (NULL) test is false. */
  condition(o: Operand): SqlFragment {
    const f = as(this.value(o), 'bool');
    return { sql: `coalesce(${f.sql}, 0)`, params: f.params };
  }

  operation(op: Operation): SqlFragment {
    if ('$and' in op || '$or' in op) {
      const [list, word] = '$and' in op ? [op.$and, 'AND'] : [op.$or, 'OR'];
      if (list.length === 0) throw new BadRequestError(`Empty ${word} operation`);
      return balanced(
        list.map((o) => this.condition(o)),
        ` ${word} `,
      );
    }
    if ('$not' in op) {
      const inner = this.condition(op.$not[0]);
      return { sql: `(NOT ${inner.sql})`, params: inner.params };
    }
    if ('$in' in op)
      return this.in(
        this.value(op.$in[0]),
        op.$in[1].map((o) => this.value(o)),
      );
    if ('$contains' in op) return this.contains(op.$contains);
    if ('$containsToken' in op) throw new BadRequestError('$containsToken is only supported in call queries');
    const [name, sqlOp] =
      '$eq' in op ? ['$eq', '='] : '$gt' in op ? ['$gt', '>'] : '$gte' in op ? ['$gte', '>='] : '$lt' in op ? ['$lt', '<'] : ['$lte', '<='];
    const [lhs, rhs] = (op as Record<string, [Operand, Operand]>)[name]!;
    const [a, b] = [this.value(lhs), this.value(rhs)];
    if (sqlOp === '=' && (isNull(a) || isNull(b))) return this.isNull(isNull(b) ? a : b);
    const type = commonType(a, b);
    return join([as(a, type), frag(` ${sqlOp} `), as(b, type)], '');
  }

  in(a: Value, items: Value[]): SqlFragment {
    if (items.length === 0) return frag('0');
    const type = items.reduce<ScalarType>((t, b) => (isNull(b) ? t : commonType(a, b)), ownType(a) ?? 'text');
    const list = join(
      items.filter((b) => !isNull(b)).map((b) => as(b, type)),
      ', ',
    );
    const lhs = as(a, type);
    const inList = list.sql ? { sql: `${lhs.sql} IN (${list.sql})`, params: [...lhs.params, ...list.params] } : frag('0');
    return items.some(isNull) ? join([frag('('), inList, frag(' OR '), this.isNull(a), frag(')')], '') : inList;
  }

  contains(spec: ContainsSpec): SqlFragment {
    const fold = (f: SqlFragment) => (spec.case_insensitive ? { sql: `lower(${f.sql})`, params: f.params } : f);
    const [hay, needle] = [fold(as(this.value(spec.input), 'text')), fold(as(this.value(spec.substr), 'text'))];
    return join([frag('instr('), hay, frag(', '), needle, frag(') > 0')], '');
  }

  isNull(v: Value): SqlFragment {
    if (v.kind === 'field' && v.field.kind === 'json')
      return frag(`(json_type(${v.field.column}, ?) IS NULL OR json_type(${v.field.column}, ?) = 'null')`, v.field.path, v.field.path);
    const f = as(v, ownType(v) ?? 'text');
    return { sql: `(${f.sql} IS NULL)`, params: f.params };
  }
}

const isNull = (v: Value) => v.kind === 'literal' && v.value === null;

export interface TableQuery {
  table: string;
  columns: TableColumns;
  /** Conditions every row must meet (project scoping); fixed SQL with bound values. */
  scope: SqlFragment;
  fields?: string[] | null;
  query?: Query | null;
  sortBy?: SortBy[] | null;
  /** ORDER BY terms used after (or instead of) `sortBy`, fixed SQL. */
  tieBreak: string;
  limit?: number | null;
  offset?: number | null;
}

/** The WHERE condition of a `$expr` query over the table. */
export function compileTableWhere(columns: TableColumns, query: Query): SqlFragment {
  return new ExprCompiler(columns).condition(query.$expr);
}

/** The full SELECT; `fields` says which wire fields each row carries, in order. */
export function compileTableSelect(q: TableQuery): SqlFragment & { fields: string[] } {
  const fields = q.fields?.length ? q.fields : Object.keys(q.columns);
  const selects = fields.map((name) => {
    const field = resolveField(q.columns, name);
    return field.kind === 'column' ? frag(field.name) : frag(`(${field.column} -> ?)`, field.path);
  });
  const where = q.query ? join([q.scope, frag(' AND '), compileTableWhere(q.columns, q.query)], '') : q.scope;
  const order = (q.sortBy ?? []).flatMap((s) => orderTerms(q.columns, s));
  const parts = [
    frag(`SELECT ${selects.map((s, i) => `${s.sql} AS f${i}`).join(', ')} FROM ${q.table} WHERE `, ...selects.flatMap((s) => s.params)),
    where,
    join(
      [...order, frag(q.tieBreak)].map((o, i) =>
        i === 0 ? { sql: ` ORDER BY ${o.sql}`, params: o.params } : { sql: `, ${o.sql}`, params: o.params },
      ),
      '',
    ),
  ];
  if (q.limit != null || q.offset != null) parts.push(frag(' LIMIT ? OFFSET ?', q.limit ?? -1, q.offset ?? 0));
  return { ...join(parts, ''), fields };
}

/** Sort terms; a JSON path sorts present values first, then numerically, then as text. */
function orderTerms(columns: TableColumns, s: SortBy): SqlFragment[] {
  const dir = s.direction === 'desc' ? 'DESC' : 'ASC';
  const field = resolveField(columns, s.field);
  if (field.kind === 'column') return [frag(`${field.name} ${dir}`)];
  const n = read(field, 'number');
  const t = read(field, 'text');
  return [
    frag(`(json_type(${field.column}, ?) IS NULL) ASC`, field.path),
    { sql: `${n.sql} ${dir}`, params: n.params },
    { sql: `${t.sql} ${dir}`, params: t.params },
  ];
}

/** A selected row (`f0`, `f1`, ...) in wire form: datetimes ISO, JSON parsed. */
export function rowToWire(columns: TableColumns, fields: string[], row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  fields.forEach((name, i) => {
    const value = row[`f${i}`];
    const type = columns[name];
    if (value === null || value === undefined) out[name] = null;
    else if (type === 'datetime') out[name] = formatMicros(value as number);
    else if (type === 'json' || type === undefined) out[name] = JSON.parse(value as string);
    else out[name] = value;
  });
  return out;
}

/** Runs the query on `db`: the rows in wire form, keyed by the selected fields. */
export function queryTable(db: SqliteDatabase, q: TableQuery): Record<string, unknown>[] {
  const select = compileTableSelect(q);
  const rows = db.all<Record<string, unknown>>(select.sql, select.params);
  return rows.map((row) => rowToWire(q.columns, select.fields, row));
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
