/**
 * Typed operands of the calls query language, for callsExpr.ts.
 *
 * Contract: an operand becomes a `Value` that knows its type (a literal keeps its JS value
 * until the comparison decides how to bind it; a JSON path stays unresolved until its peer
 * decides how to read it). `coerce` then renders it as SQL of one type, or throws 400 when
 * that makes no sense (a datetime against a boolean, text against a number column, ...).
 */
import type { ConvertTo, JsonValue, Operand, Operation } from '../../../contract/common.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { BadRequestError } from '../../errors.js';
import {
  jsonBool,
  jsonDoc,
  jsonExists,
  jsonNumber,
  jsonSource,
  jsonText,
  numberFromText,
  param,
  raw,
  resolveCallField,
  sql,
  type JsonField,
} from './callsFields.js';
import type { SqlFragment } from './callsQuery.js';

/** `doc` is an object or list, compared as its JSON text; `bool` is 1/0. */
export type ValueType = 'text' | 'number' | 'bool' | 'datetime' | 'doc';

export type Value =
  { tag: 'literal'; value: JsonValue } | { tag: 'json'; field: JsonField } | { tag: 'sql'; type: ValueType; sql: SqlFragment };

type Materialized = { type: ValueType; sql: SqlFragment };

/** Reads an operand; nested operations are compiled by the given function (they are booleans). */
export function toValue(o: Operand, compileOperation: (op: Operation) => SqlFragment): Value {
  if ('$literal' in o) return { tag: 'literal', value: o.$literal };
  if ('$getField' in o) {
    const resolved = resolveCallField(o.$getField);
    // Feedback fields read the `fb` row of the subquery callsFeedback.ts wraps them in.
    const f = resolved.kind === 'feedback' ? resolved.target : resolved;
    return f.kind === 'json' ? { tag: 'json', field: f } : { tag: 'sql', type: f.type, sql: raw(f.sql) };
  }
  if ('$convert' in o) return convert(toValue(o.$convert.input, compileOperation), o.$convert.to);
  if ('$size' in o) return sizeOf(toValue(o.$size, compileOperation));
  return { tag: 'sql', type: 'bool', sql: compileOperation(o) };
}

export const isNullLiteral = (v: Value): boolean => v.tag === 'literal' && v.value === null;

/**
 * The type both sides are compared as. A JSON path or a null literal takes its peer's type
 * (text when both adapt); a datetime on either side forces datetime; numbers and booleans mix.
 */
export function commonType(a: Value, b: Value): ValueType {
  const ta = ownType(a);
  const tb = ownType(b);
  if (ta === 'datetime' || tb === 'datetime') return 'datetime';
  if (ta === null) return tb ?? 'text';
  if (tb === null || ta === tb) return ta;
  if (isNumeric(ta) && isNumeric(tb)) return 'number';
  throw new BadRequestError(`Cannot compare ${describe(a)} with ${describe(b)}`);
}

/** The value as SQL of the given type, or 400 when it cannot be read that way. */
export function coerce(v: Value, type: ValueType): SqlFragment {
  if (v.tag === 'json') return jsonAs(v.field, type);
  if (v.tag === 'literal' && v.value === null) return param(null);
  if (v.tag === 'literal' && type === 'datetime') return param(literalMicros(v.value));
  const own = ownType(v)!;
  if (own !== type && !(isNumeric(own) && isNumeric(type))) {
    throw new BadRequestError(`Cannot use ${describe(v)} as a ${type} value`);
  }
  return v.tag === 'literal' ? param(v.value) : v.sql;
}

/** A value's own type, or null when it adapts to its peer (JSON paths and null literals). */
function ownType(v: Value): ValueType | null {
  if (v.tag === 'json') return null;
  if (v.tag === 'sql') return v.type;
  const x = v.value;
  if (x === null) return null;
  if (typeof x === 'string') return 'text';
  if (typeof x === 'number') return 'number';
  return typeof x === 'boolean' ? 'bool' : 'doc';
}

const isNumeric = (t: ValueType) => t === 'number' || t === 'bool';

function describe(v: Value): string {
  if (v.tag === 'literal') return `the literal ${JSON.stringify(v.value)}`;
  return v.tag === 'json' ? 'a JSON field' : `a ${v.type} value`;
}

function jsonAs(f: JsonField, type: ValueType): SqlFragment {
  switch (type) {
    case 'text':
      return jsonText(f);
    case 'number':
      return jsonNumber(f);
    case 'bool':
      return jsonBool(f);
    case 'doc':
      return jsonDoc(f);
    case 'datetime':
      throw new BadRequestError('A JSON field cannot be compared with a datetime column');
  }
}

/** Datetime literal → epoch µs: ISO 8601 text, or a number of unix seconds (as ClickHouse reads it). */
function literalMicros(value: JsonValue): number {
  if (typeof value === 'number') return Math.round(value * 1_000_000);
  const micros = typeof value === 'string' ? parseIsoToMicros(value) : null;
  if (micros === null) {
    const shown = JSON.stringify(value);
    throw new BadRequestError(`Cannot read ${shown} as a datetime: use ISO 8601 text or unix seconds`);
  }
  return micros;
}

/** `$convert`. Values that do not convert become NULL, as ClickHouse's `to*OrNull` does. */
export function convert(v: Value, to: ConvertTo): Value {
  switch (to) {
    case 'exists':
      return sqlValue('bool', v.tag === 'json' ? jsonExists(v.field) : isNotNull(materialize(v).sql));
    case 'string':
      return sqlValue('text', v.tag === 'json' ? jsonText(v.field) : toText(materialize(v)));
    case 'bool':
      return sqlValue('bool', v.tag === 'json' ? jsonBool(v.field) : toBool(materialize(v)));
    case 'double':
      return sqlValue('number', toNumber(v));
    case 'int':
      // Truncates toward zero, like Mongo's $convert (ClickHouse would give NULL for 5.5).
      return sqlValue('number', sql`CAST(${toNumber(v)} AS INTEGER)`);
  }
}

const sqlValue = (type: ValueType, fragment: SqlFragment): Value => ({ tag: 'sql', type, sql: fragment });
const isNotNull = (fragment: SqlFragment) => sql`(${fragment} IS NOT NULL)`;

function materialize(v: Exclude<Value, { tag: 'json' }>): Materialized {
  return v.tag === 'sql' ? v : { type: ownType(v) ?? 'text', sql: param(v.value) };
}

function toNumber(v: Value): SqlFragment {
  if (v.tag === 'json') return jsonNumber(v.field);
  const m = materialize(v);
  switch (m.type) {
    case 'number':
    case 'bool':
      return m.sql;
    case 'text':
      return numberFromText(m.sql);
    case 'datetime':
      // Unix seconds, the same unit a numeric literal has against a datetime column.
      return sql`(${m.sql} / 1000000.0)`;
    case 'doc':
      throw new BadRequestError('An object or list cannot be converted to a number');
  }
}

function toText(m: Materialized): SqlFragment {
  switch (m.type) {
    case 'text':
    case 'doc':
      return m.sql;
    case 'number':
      return sql`CAST(${m.sql} AS TEXT)`;
    case 'bool':
      return sql`(CASE ${m.sql} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`;
    case 'datetime':
      return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${m.sql} / 1000000.0, 'unixepoch')`;
  }
}

function toBool(m: Materialized): SqlFragment {
  switch (m.type) {
    case 'bool':
      return m.sql;
    case 'number':
      return sql`(${m.sql} <> 0)`;
    case 'text':
      return sql`(CASE lower(${m.sql}) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
    default:
      throw new BadRequestError(`A ${m.type} value cannot be converted to a boolean`);
  }
}

/**
 * `$size`: the length of a list, as a number. Anything that is not a list (a missing path, a
 * string, an object) has no size: NULL, which no comparison matches, as ClickHouse's
 * JSONArrayLength answers NULL for non-arrays (SQLite's json_array_length would say 0).
 */
function sizeOf(v: Value): Value {
  if (v.tag === 'json') {
    const source = jsonSource(v.field);
    const path = param(v.field.path);
    return sqlValue('number', sql`(CASE json_type(${source}, ${path}) WHEN 'array' THEN json_array_length(${source}, ${path}) END)`);
  }
  if (v.tag === 'literal') return sqlValue('number', param(Array.isArray(v.value) ? v.value.length : null));
  if (v.type !== 'doc' && v.type !== 'text') return sqlValue('number', param(null));
  return sqlValue('number', sql`(CASE WHEN json_valid(${v.sql}) AND json_type(${v.sql}) = 'array' THEN json_array_length(${v.sql}) END)`);
}
