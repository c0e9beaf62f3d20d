/**
 * Typed operands of the calls query language, for callsExpr.ts.
 *
 * Contract: an operand becomes a `Value` that knows its type (a literal keeps its JS value
 * until the comparison decides how to bind it; a JSON path stays unresolved until its peer
 * decides how to read it). `coerce` then gives it as a Scalar of one type, or throws 400 when
 * that makes no sense (a datetime against a boolean, text against a number column, ...).
 */
import type { ConvertTo, JsonValue, Operand, Operation } from '../../../contract/common.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { BadRequestError } from '../../errors.js';
import type { CallField, Condition, JsonField, Scalar, ValueType } from './ir.js';

export type Value =
  { tag: 'literal'; value: JsonValue } | { tag: 'json'; field: JsonField } | { tag: 'typed'; type: ValueType; expr: Scalar };

type Materialized = { type: ValueType; expr: Scalar };

/** What reading an operand needs: field resolution and the planner for nested operations (booleans). */
export interface ValueContext {
  resolve: (path: string) => CallField;
  plan: (op: Operation) => Condition;
}

/** Reads an operand. */
export function toValue(o: Operand, ctx: ValueContext): Value {
  if ('$literal' in o) return { tag: 'literal', value: o.$literal };
  if ('$getField' in o) {
    const resolved = ctx.resolve(o.$getField);
    // Feedback fields read the feedback row of the condition callsFeedback.ts wraps them in.
    const f = resolved.kind === 'feedback' ? resolved.target : resolved;
    return f.kind === 'json' ? { tag: 'json', field: f } : { tag: 'typed', type: f.type, expr: { k: 'field', field: f } };
  }
  if ('$convert' in o) return convert(toValue(o.$convert.input, ctx), o.$convert.to);
  if ('$size' in o) return sizeOf(toValue(o.$size, ctx));
  return { tag: 'typed', type: 'bool', expr: { k: 'condition', condition: ctx.plan(o) } };
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

/** The value as a Scalar of the given type, or 400 when it cannot be read that way. */
export function coerce(v: Value, type: ValueType): Scalar {
  if (v.tag === 'json') return jsonAs(v.field, type);
  if (v.tag === 'literal' && v.value === null) return literal(null);
  if (v.tag === 'literal' && type === 'datetime') return literal(literalMicros(v.value));
  const own = ownType(v)!;
  if (own !== type && !(isNumeric(own) && isNumeric(type))) {
    throw new BadRequestError(`Cannot use ${describe(v)} as a ${type} value`);
  }
  return v.tag === 'literal' ? literal(v.value) : v.expr;
}

/** Missing or null. */
export function isNull(v: Value): Condition {
  if (v.tag === 'json') return { k: 'jsonMissing', field: v.field };
  return { k: 'isNull', value: v.tag === 'literal' ? literal(v.value) : v.expr };
}

const literal = (value: JsonValue): Scalar => ({ k: 'literal', value });

/** A value's own type, or null when it adapts to its peer (JSON paths and null literals). */
function ownType(v: Value): ValueType | null {
  if (v.tag === 'json') return null;
  if (v.tag === 'typed') return v.type;
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

function jsonAs(field: JsonField, type: ValueType): Scalar {
  if (type === 'datetime') throw new BadRequestError('A JSON field cannot be compared with a datetime column');
  return { k: 'json', field, as: type };
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
function convert(v: Value, to: ConvertTo): Value {
  switch (to) {
    case 'exists':
      return typed('bool', v.tag === 'json' ? { k: 'jsonExists', field: v.field } : { k: 'isNotNull', of: materialize(v).expr });
    case 'string':
      return typed('text', v.tag === 'json' ? { k: 'json', field: v.field, as: 'text' } : toText(materialize(v)));
    case 'bool':
      return typed('bool', v.tag === 'json' ? { k: 'json', field: v.field, as: 'bool' } : toBool(materialize(v)));
    case 'double':
      return typed('number', toNumber(v));
    case 'int':
      // Truncates toward zero, like Mongo's $convert (ClickHouse would give NULL for 5.5).
      return typed('number', { k: 'truncate', of: toNumber(v) });
  }
}

const typed = (type: ValueType, expr: Scalar): Value => ({ tag: 'typed', type, expr });

function materialize(v: Exclude<Value, { tag: 'json' }>): Materialized {
  return v.tag === 'typed' ? v : { type: ownType(v) ?? 'text', expr: literal(v.value) };
}

function toNumber(v: Value): Scalar {
  if (v.tag === 'json') return { k: 'json', field: v.field, as: 'number' };
  const m = materialize(v);
  switch (m.type) {
    case 'number':
    case 'bool':
      return m.expr;
    case 'text':
    case 'datetime':
      // A datetime becomes unix seconds, the same unit a numeric literal has against a datetime column.
      return { k: 'cast', to: 'number', from: m.type, of: m.expr };
    case 'doc':
      throw new BadRequestError('An object or list cannot be converted to a number');
  }
}

function toText(m: Materialized): Scalar {
  switch (m.type) {
    case 'text':
    case 'doc':
      return m.expr;
    case 'number':
    case 'bool':
    case 'datetime':
      return { k: 'cast', to: 'text', from: m.type, of: m.expr };
  }
}

function toBool(m: Materialized): Scalar {
  switch (m.type) {
    case 'bool':
      return m.expr;
    case 'number':
    case 'text':
      return { k: 'cast', to: 'bool', from: m.type, of: m.expr };
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
  if (v.tag === 'json') return typed('number', { k: 'jsonArrayLength', field: v.field });
  if (v.tag === 'literal') return typed('number', literal(Array.isArray(v.value) ? v.value.length : null));
  if (v.type !== 'doc' && v.type !== 'text') return typed('number', literal(null));
  return typed('number', { k: 'arrayLength', of: v.expr });
}
