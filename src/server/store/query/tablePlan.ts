/**
 * The flat-table query language (`/feedback/query`, `/cost/query`), backend-neutral: the query
 * language (`$expr`, `fields`, `sort_by`, paging) over one project's rows of a table with a few
 * JSON columns, as the reference's small ORM (`weave/trace_server/orm.py`) applies it to feedback
 * and LLM prices. This module decides everything a request can mean and every 400 it can earn;
 * each backend prints the resulting plan (store/sqlite/tableQuery.ts, store/clickhouse/tableQuery.ts)
 * and never throws for a request's content. Calls have their own, richer plan (ir.ts).
 *
 * Decisions (the ORM is ClickHouse-only, so a second backend needs its own reading of it):
 * - `<json column>.<path>` reads inside a JSON column; `\.` escapes a dot inside a key and a
 *   numeric part indexes a list (on an object it finds nothing). A key holding `"` is a 400.
 *   In `fields` the value comes back with its JSON type (the ClickHouse ORM returns JSON_VALUE
 *   strings; the old SQLite server returned native values).
 * - In comparisons a JSON value takes the type of the other side: a number literal compares
 *   numerically (JSON numbers and numeric strings), a boolean against JSON true/false,
 *   anything else as text (true reads "true"). That is what the newest reference infers.
 *   A JSON value beside a datetime column is a 400: it has no datetime reading.
 * - Datetime columns take ISO 8601 strings or unix seconds, like `maybe_convert_datetime_operands`.
 * - A condition on a missing value is false, also under `$not`.
 * - `$containsToken` is a calls-only operation here (400).
 * - `$contains` on a list-of-strings column (`jsonList`: feedback's `scorer_tags`) asks whether
 *   an element equals the text, not whether it occurs in the list's JSON, as the reference's
 *   `has()` on its Array column does: "ns" does not find the tag "nsfw".
 * - Unknown fields are 400 (the reference raises ValueError "Unknown field"), as is anything
 *   that cannot be compared (a number with text, an empty `$and`).
 */
import type { ContainsSpec, JsonValue, Operand, Operation, Query, SortBy } from '../../../contract/common.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';
import { BadRequestError } from '../../errors.js';

/** `jsonList`: a JSON column holding a list of strings, where `$contains` tests membership. */
export type TableColumnType = 'text' | 'number' | 'datetime' | 'json' | 'jsonList';

const isJson = (type: TableColumnType | undefined) => type === 'json' || type === 'jsonList';

/** A table a query may read: wire field name → column type (the stored column has the same name). */
export type TableColumns = Readonly<Record<string, TableColumnType>>;

/** One step of a JSON path: an object key, or a list index (0-based). */
export type JsonPathPart = { key: string } | { index: number };

export type TableField = { kind: 'column'; name: string; type: TableColumnType } | { kind: 'json'; column: string; path: JsonPathPart[] };

/** The SQL type a value holds: what a printer must compare it as. `bool` is 1/0. */
export type TableRep = 'text' | 'number' | 'datetime' | 'bool';

/**
 * A value. Each node says what it means; `rep` of a node is given by `tableValueRep`.
 * - column: the stored column as it is (a JSON column is its JSON text);
 * - columnText: a number column as text (its canonical decimal text);
 * - json: the value at `path` inside `column`, read through one view, NULL when missing or JSON null:
 *   `number`: a JSON number, or a string made only of `0-9 . e E + -` (not empty) read as the
 *   longest numeric prefix (none reads 0), else NULL; `bool`: JSON true/false as 1/0, else NULL;
 *   `text`: a string as itself, true/false as "true"/"false", an object or list as its minified
 *   JSON, a number as its decimal text;
 * - literal: a bound value (datetimes as epoch µs, booleans as 1/0 of rep `bool`);
 * - jsonExists: 1 when the path is present in the column (JSON null included), else 0;
 * - notNull: 1 when the value is not NULL, else 0;
 * - toInt: the value truncated to an integer (text: its numeric prefix, none reads 0);
 * - toReal: a text value as a number (its numeric prefix, none reads 0);
 * - size: the length of the list at `path` (the whole column when null), NULL for anything else;
 * - cond: a condition as a 1/0 value.
 */
export type TableValue =
  | { k: 'column'; name: string; type: TableColumnType }
  | { k: 'columnText'; name: string }
  | { k: 'json'; column: string; path: JsonPathPart[]; view: 'number' | 'bool' | 'text' }
  | { k: 'literal'; value: string | number | null; rep: TableRep }
  | { k: 'jsonExists'; column: string; path: JsonPathPart[] }
  | { k: 'notNull'; value: TableValue }
  | { k: 'toInt'; value: TableValue }
  | { k: 'toReal'; value: TableValue }
  | { k: 'size'; column: string; path: JsonPathPart[] | null }
  | { k: 'cond'; cond: TableCond };

/**
 * A condition; NULL never reaches the caller: an undecidable test is false (so `not` of one is true).
 * - truthy: the value is not NULL and not 0 (text: its numeric prefix, none reads 0, as SQL does);
 * - compare: both sides hold the same rep, except where one side is text and the other numeric
 *   (a `$convert` of a mismatched column): then the numeric side compares as its text;
 * - in: the value equals one of `items`, or (`orNull`) the value is NULL / a missing JSON path;
 * - contains: `needle` occurs in `hay` (ASCII case folded when `caseInsensitive`);
 * - listHas: a string element of the JSON list in `column` equals `needle` (folded likewise);
 * - isNull: the value is NULL; for a JSON path, missing or JSON null.
 */
export type TableCond =
  | { k: 'and' | 'or'; items: TableCond[] }
  | { k: 'not'; item: TableCond }
  | { k: 'truthy'; value: TableValue }
  | { k: 'compare'; op: '=' | '>' | '>=' | '<' | '<='; a: TableValue; b: TableValue }
  | { k: 'in'; value: TableValue; items: TableValue[]; orNull: boolean }
  | { k: 'contains'; hay: TableValue; needle: TableValue; caseInsensitive: boolean }
  | { k: 'listHas'; column: string; needle: TableValue; caseInsensitive: boolean }
  | { k: 'isNull'; value: TableValue }
  | { k: 'false' };

/**
 * A sort key. A column sorts by its value (NULLs as the backend's natural order: first ascending);
 * a JSON path sorts present values first, then by its number view, then by its text view, each
 * in `direction`.
 */
export type TableSortKey = { field: TableField; direction: 'asc' | 'desc' };

export interface TablePlan {
  /** The selected fields, in order: their wire names and what they read. */
  fields: { name: string; field: TableField }[];
  where: TableCond | null;
  /** The request's keys; the backend appends its tie-break (creation order). */
  order: TableSortKey[];
  /** Both null: no paging. */
  limit: number | null;
  offset: number | null;
}

/** The representation of a value (what SQL type it holds). */
export function tableValueRep(v: TableValue): TableRep {
  switch (v.k) {
    case 'column':
      return isJson(v.type) ? 'text' : (v.type as TableRep);
    case 'columnText':
      return 'text';
    case 'json':
      return v.view;
    case 'literal':
      return v.rep;
    case 'toInt':
    case 'toReal':
    case 'size':
      return 'number';
    case 'jsonExists':
    case 'notNull':
    case 'cond':
      return 'bool';
  }
}

/** Resolves a wire field name, or throws 400. */
export function resolveTableField(columns: TableColumns, name: string): TableField {
  const type = columns[name];
  if (type) return { kind: 'column', name, type };
  const parts = name.split(/(?<!\\)\./).map((p) => p.replace(/\\\./g, '.'));
  const [head, ...rest] = parts;
  if (head && isJson(columns[head]) && rest.length > 0 && rest.every((p) => p !== '' && !p.includes('"'))) {
    return { kind: 'json', column: head, path: rest.map((p) => (/^\d+$/.test(p) ? { index: Number(p) } : { key: p })) };
  }
  throw new BadRequestError(`Unknown field: ${name}`);
}

/** The type a comparison reads a value as. */
type ScalarType = 'text' | 'number' | 'datetime' | 'bool';

/** A planned operand before it is read as a type: a field and a literal adapt to their peer. */
type Operandish =
  { kind: 'field'; field: TableField } | { kind: 'literal'; value: JsonValue } | { kind: 'value'; value: TableValue; type: ScalarType };

function literalType(v: JsonValue): ScalarType | null {
  if (v === null) return null;
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'text';
}

function literal(v: JsonValue, as: ScalarType): TableValue {
  if (v === null) return { k: 'literal', value: null, rep: as };
  if (as === 'datetime') {
    const micros = typeof v === 'number' ? Math.round(v * 1e6) : typeof v === 'string' ? parseIsoToMicros(v) : null;
    if (micros === null) throw new BadRequestError(`Cannot compare a datetime with ${JSON.stringify(v)}`);
    return { k: 'literal', value: micros, rep: 'datetime' };
  }
  if (as === 'number' || as === 'bool') {
    if (typeof v === 'number') return { k: 'literal', value: v, rep: 'number' };
    if (typeof v === 'boolean') return { k: 'literal', value: v ? 1 : 0, rep: 'bool' };
    throw new BadRequestError(`Cannot compare a number with ${JSON.stringify(v)}`);
  }
  return { k: 'literal', value: typeof v === 'string' ? v : JSON.stringify(v), rep: 'text' };
}

/** A field read as a type: a column as it is (a number column as text where text is asked), a JSON path through a view. */
function read(field: TableField, as: ScalarType): TableValue {
  if (field.kind === 'column') {
    if (as === 'text' && field.type === 'number') return { k: 'columnText', name: field.name };
    return { k: 'column', name: field.name, type: field.type };
  }
  if (as === 'datetime') throw new BadRequestError('Cannot compare a JSON value with a datetime');
  return { k: 'json', column: field.column, path: field.path, view: as === 'number' ? 'number' : as === 'bool' ? 'bool' : 'text' };
}

/** The type a value has on its own, or null when it adapts (JSON paths and null). */
function ownType(v: Operandish): ScalarType | null {
  if (v.kind === 'literal') return literalType(v.value);
  if (v.kind === 'value') return v.type;
  if (v.field.kind === 'json') return null;
  return isJson(v.field.type) ? 'text' : (v.field.type as ScalarType);
}

function commonType(a: Operandish, b: Operandish): ScalarType {
  const [ta, tb] = [ownType(a), ownType(b)];
  if (ta === 'datetime' || tb === 'datetime') return 'datetime';
  if (ta === null || tb === null || ta === tb) return ta ?? tb ?? 'text';
  if ((ta === 'number' || ta === 'bool') && (tb === 'number' || tb === 'bool')) return 'number';
  throw new BadRequestError(`Cannot compare a ${ta} with a ${tb}`);
}

function as(v: Operandish, type: ScalarType): TableValue {
  if (v.kind === 'literal') return literal(v.value, type);
  if (v.kind === 'value') return v.value;
  return read(v.field, type);
}

const isNullLiteral = (v: Operandish) => v.kind === 'literal' && v.value === null;

/** Plans `$expr` trees for one table. */
class ExprPlanner {
  constructor(private readonly columns: TableColumns) {}

  operand(o: Operand): Operandish {
    if ('$literal' in o) return { kind: 'literal', value: o.$literal };
    if ('$getField' in o) return { kind: 'field', field: resolveTableField(this.columns, o.$getField) };
    if ('$convert' in o) return this.convert(this.operand(o.$convert.input), o.$convert.to);
    if ('$size' in o) return this.size(this.operand(o.$size));
    return { kind: 'value', value: { k: 'cond', cond: this.operation(o) }, type: 'bool' };
  }

  convert(v: Operandish, to: 'double' | 'string' | 'int' | 'bool' | 'exists'): Operandish {
    if (to === 'exists') {
      if (v.kind === 'field' && v.field.kind === 'json') {
        return { kind: 'value', value: { k: 'jsonExists', column: v.field.column, path: v.field.path }, type: 'bool' };
      }
      return { kind: 'value', value: { k: 'notNull', value: as(v, ownType(v) ?? 'text') }, type: 'bool' };
    }
    if (v.kind === 'literal') return v;
    const type: ScalarType = to === 'string' ? 'text' : to === 'bool' ? 'bool' : 'number';
    const inner = as(v, type);
    const value: TableValue =
      to === 'int' ? { k: 'toInt', value: inner } : to === 'double' && ownType(v) === 'text' ? { k: 'toReal', value: inner } : inner;
    return { kind: 'value', value, type };
  }

  /** `$size`: a list's length; NULL for anything else (as in calls queries). */
  size(v: Operandish): Operandish {
    const number = (value: TableValue): Operandish => ({ kind: 'value', value, type: 'number' });
    if (v.kind === 'literal') return number({ k: 'literal', value: Array.isArray(v.value) ? v.value.length : null, rep: 'number' });
    if (v.kind === 'field' && v.field.kind === 'json') return number({ k: 'size', column: v.field.column, path: v.field.path });
    if (v.kind === 'field' && v.field.kind === 'column' && isJson(v.field.type))
      return number({ k: 'size', column: v.field.name, path: null });
    return number({ k: 'literal', value: null, rep: 'number' });
  }

  /** An operand used as a condition: an undecidable (NULL) test is false. */
  condition(o: Operand): TableCond {
    const v = this.operand(o);
    if (v.kind === 'value' && v.value.k === 'cond') return v.value.cond;
    return { k: 'truthy', value: as(v, 'bool') };
  }

  operation(op: Operation): TableCond {
    if ('$and' in op || '$or' in op) {
      const [list, word] = '$and' in op ? [op.$and, 'and' as const] : [op.$or, 'or' as const];
      if (list.length === 0) throw new BadRequestError(`Empty ${word.toUpperCase()} operation`);
      return { k: word, items: list.map((o) => this.condition(o)) };
    }
    if ('$not' in op) return { k: 'not', item: this.condition(op.$not[0]) };
    if ('$in' in op)
      return this.in(
        this.operand(op.$in[0]),
        op.$in[1].map((o) => this.operand(o)),
      );
    if ('$contains' in op) return this.contains(op.$contains);
    if ('$containsToken' in op) throw new BadRequestError('$containsToken is only supported in call queries');
    const [name, sqlOp] =
      '$eq' in op
        ? (['$eq', '='] as const)
        : '$gt' in op
          ? (['$gt', '>'] as const)
          : '$gte' in op
            ? (['$gte', '>='] as const)
            : '$lt' in op
              ? (['$lt', '<'] as const)
              : (['$lte', '<='] as const);
    const [lhs, rhs] = (op as Record<string, [Operand, Operand]>)[name]!;
    const [a, b] = [this.operand(lhs), this.operand(rhs)];
    if (sqlOp === '=' && (isNullLiteral(a) || isNullLiteral(b))) return this.isNull(isNullLiteral(b) ? a : b);
    const type = commonType(a, b);
    return { k: 'compare', op: sqlOp, a: as(a, type), b: as(b, type) };
  }

  in(a: Operandish, items: Operandish[]): TableCond {
    if (items.length === 0) return { k: 'false' };
    const type = items.reduce<ScalarType>((t, b) => (isNullLiteral(b) ? t : commonType(a, b)), ownType(a) ?? 'text');
    const listed = items.filter((b) => !isNullLiteral(b)).map((b) => as(b, type));
    const value = as(a, type);
    const orNull = items.some(isNullLiteral);
    if (listed.length === 0 && !orNull) return { k: 'false' };
    if (listed.length === 0) return this.isNull(a);
    return { k: 'in', value, items: listed, orNull };
  }

  contains(spec: ContainsSpec): TableCond {
    const input = this.operand(spec.input);
    const needle = as(this.operand(spec.substr), 'text');
    const caseInsensitive = spec.case_insensitive === true;
    if (input.kind === 'field' && input.field.kind === 'column' && input.field.type === 'jsonList') {
      return { k: 'listHas', column: input.field.name, needle, caseInsensitive };
    }
    return { k: 'contains', hay: as(input, 'text'), needle, caseInsensitive };
  }

  isNull(v: Operandish): TableCond {
    if (v.kind === 'field' && v.field.kind === 'json') return { k: 'isNull', value: read(v.field, 'text') };
    return { k: 'isNull', value: as(v, ownType(v) ?? 'text') };
  }
}

/** The condition of a `$expr` query over the table. */
export function planTableWhere(columns: TableColumns, query: Query): TableCond {
  return new ExprPlanner(columns).condition(query.$expr);
}

/** The request parts a plan reads (store/ProjectTableQuery.ts minus the project). */
export interface TableQueryInput {
  fields?: string[] | null;
  query?: Query | null;
  sortBy?: SortBy[] | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * The plan of a query; `defaultFields` are the fields without `fields` (every column when absent).
 * Throws the 400s in the order the request is read: fields, then `$expr`, then `sort_by`.
 */
export function planTableQuery(columns: TableColumns, q: TableQueryInput, defaultFields?: readonly string[]): TablePlan {
  const names = q.fields?.length ? q.fields : (defaultFields ?? Object.keys(columns));
  const fields = names.map((name) => ({ name, field: resolveTableField(columns, name) }));
  const where = q.query ? planTableWhere(columns, q.query) : null;
  const order = (q.sortBy ?? []).map((s) => ({ field: resolveTableField(columns, s.field), direction: s.direction }));
  const paged = q.limit != null || q.offset != null;
  return { fields, where, order, limit: paged ? (q.limit ?? null) : null, offset: paged ? (q.offset ?? 0) : null };
}

/**
 * A selected row in wire form, from the values a backend read for `plan.fields` in order: a
 * datetime column (epoch µs, a number or a 64-bit integer's decimal text) as ISO, a JSON column
 * or path (its JSON text) parsed, anything else as it is; NULL (and a missing path) is null.
 */
export function tableRowToWire(columns: TableColumns, fields: { name: string }[], values: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  fields.forEach(({ name }, i) => {
    const value = values[i];
    const type = columns[name];
    if (value === null || value === undefined) out[name] = null;
    else if (type === 'datetime') out[name] = formatMicros(Number(value));
    else if (isJson(type) || type === undefined) out[name] = JSON.parse(value as string);
    else out[name] = value;
  });
  return out;
}
