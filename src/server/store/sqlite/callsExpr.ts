/**
 * Compiles the `$expr` query language (api/core.md §2 "Query language") to a SQLite
 * condition over the calls table.
 *
 * Contract: the result's SQL text holds only fixed operators, whitelisted columns (see
 * callsFields.ts) and `?` placeholders; every literal and JSON path is a parameter. Bad
 * queries throw 400 (empty `$and`/`$or`, types that cannot be compared, unparsable
 * datetimes) or 422 (fields that are unknown or forbidden, the newest InvalidFieldError status).
 *
 * Decisions where the spec is silent (checked against weave's orm.py / calls_query_builder):
 * - A JSON sub-field takes its type from what it is compared with, like the newest reference's
 *   `infer_literal_filter_cast`: a number → numeric comparison (JSON numbers and numeric
 *   strings; other values never match), a boolean → JSON true/false, a string → text
 *   (true reads "true", 42 reads "42"), an object or list → its JSON text. int and double
 *   literals both compare as plain numbers (the reference's int cast drops 5.5 entirely).
 * - `$in` compares each listed value by its own type, so a mixed list [1, "a"] matches the
 *   number 1 or the text "a"; a null in the list matches missing/null values.
 * - Datetime columns: a string literal is ISO 8601; a number literal is unix seconds, as the
 *   reference's `maybe_convert_datetime_operands` reads it.
 * - A condition that cannot be decided (a NULL operand) counts as false, also under `$not`:
 *   `$not $eq [thread_id, "t"]` keeps calls without a thread, as Mongo would.
 */
import type { ContainsSpec, Operand, Operation } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';
import { compileWithFeedback } from './callsFeedback.js';
import { jsonIsNull, joinSql, param, raw, sql } from './callsFields.js';
import { coerce, commonType, isNullLiteral, toValue, type Value, type ValueType } from './callsValues.js';
import type { SqlFragment } from './callsQuery.js';

const ORDERING = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/** The WHERE condition for one `$expr` operation. */
export function compileExpr(op: Operation): SqlFragment {
  // Comparisons that read feedback run inside a subquery over the call's feedback rows.
  return compileWithFeedback(op, compileOperation, compileExpr);
}

function compileOperation(op: Operation): SqlFragment {
  if ('$and' in op) return compileLogical(op.$and, 'AND');
  if ('$or' in op) return compileLogical(op.$or, 'OR');
  if ('$not' in op) return sql`(NOT coalesce(${condition(op.$not[0])}, 0))`;
  if ('$eq' in op) return compileEq(op.$eq[0], op.$eq[1]);
  if ('$in' in op) return compileIn(op.$in[0], op.$in[1]);
  if ('$contains' in op) return compileContains(op.$contains);
  if ('$containsToken' in op) return compileContainsToken(op.$containsToken);
  for (const [name, operator] of Object.entries(ORDERING)) {
    if (name in op) {
      const [lhs, rhs] = (op as Record<string, [Operand, Operand]>)[name]!;
      return compileOrdering(value(lhs), value(rhs), operator);
    }
  }
  throw new BadRequestError(`Unknown query operation: ${Object.keys(op).join(', ')}`);
}

const value = (o: Operand): Value => toValue(o, compileExpr);

/**
 * An operand used as a condition. Without NOT, an undecidable (NULL) branch already acts as
 * false in WHERE, so only `$not` wraps it in coalesce (keeping indexes usable elsewhere).
 */
function condition(o: Operand): SqlFragment {
  return coerce(value(o), 'bool');
}

function compileLogical(list: Operand[], joiner: 'AND' | 'OR'): SqlFragment {
  if (list.length === 0) throw new BadRequestError(`$${joiner.toLowerCase()} needs at least one operand`);
  return balanced(list.map(condition), ` ${joiner} `);
}

/**
 * `a AND b AND c ...` as a balanced tree of parentheses: SQLite parses a flat chain into a
 * tree as deep as it is long and refuses one deeper than 1,000 ("Expression tree is too
 * large"), so 2,000 `$and` children would fail; balanced, the depth is log2 of the count.
 */
function balanced(parts: SqlFragment[], joiner: string): SqlFragment {
  if (parts.length === 1) return parts[0]!;
  if (parts.length <= 8) return sql`(${joinSql(parts, joiner)})`;
  const half = Math.ceil(parts.length / 2);
  return sql`(${balanced(parts.slice(0, half), joiner)}${raw(joiner)}${balanced(parts.slice(half), joiner)})`;
}

/** `$eq`; a null literal on either side means IS NULL (missing, for JSON paths). */
function compileEq(lhs: Operand, rhs: Operand): SqlFragment {
  const a = value(lhs);
  const b = value(rhs);
  if (isNullLiteral(b)) return isNull(a);
  if (isNullLiteral(a)) return isNull(b);
  const type = commonType(a, b);
  return sql`(${coerce(a, type)} = ${coerce(b, type)})`;
}

function compileOrdering(a: Value, b: Value, operator: string): SqlFragment {
  const type = commonType(a, b);
  if (type === 'doc') throw new BadRequestError('Objects and lists can only be compared with $eq or $in');
  return sql`(${coerce(a, type)} ${raw(operator)} ${coerce(b, type)})`;
}

/**
 * `$in`: one `IN (...)` per value type in the list, so columns keep their indexes. A list of
 * plain literals travels as one JSON array parameter read by `json_each`, so however long the
 * list, the statement binds one value per type (SQLite allows 32,766 per statement) and its
 * text stays the same (one cached prepared statement).
 */
function compileIn(lhs: Operand, items: Operand[]): SqlFragment {
  const a = value(lhs);
  const groups = new Map<ValueType, SqlFragment[]>();
  let matchNull = false;
  for (const b of items.map(value)) {
    if (isNullLiteral(b)) {
      matchNull = true;
      continue;
    }
    const type = commonType(a, b);
    let group = groups.get(type);
    if (!group) groups.set(type, (group = []));
    group.push(coerce(b, type));
  }
  const parts = [...groups].map(([type, list]) => sql`${coerce(a, type)} IN (${inList(list)})`);
  if (matchNull) parts.push(isNull(a));
  // An empty list matches nothing, as in Mongo.
  return parts.length === 0 ? raw('0') : sql`(${joinSql(parts, ' OR ')})`;
}

/** The right side of IN: `SELECT value FROM json_each(?)` when every item is one bound scalar. */
function inList(list: SqlFragment[]): SqlFragment {
  const scalars: unknown[] = [];
  for (const item of list) {
    const bound = item.params[0];
    const scalar = typeof bound === 'string' || typeof bound === 'bigint' || (typeof bound === 'number' && Number.isFinite(bound));
    if (item.sql !== '?' || item.params.length !== 1 || !scalar) return joinSql(list, ', ');
    // Bigints are safe integers (param() makes them), so Number() keeps them exact.
    scalars.push(typeof bound === 'bigint' ? Number(bound) : bound);
  }
  return { sql: 'SELECT value FROM json_each(?)', params: [JSON.stringify(scalars)] };
}

/** Substring test with instr(), so `%` and `_` in the needle are plain characters. */
function compileContains(spec: ContainsSpec): SqlFragment {
  const [input, substr] = containsOperands(spec);
  return sql`(instr(${input}, ${substr}) > 0)`;
}

/**
 * Whole-token match like ClickHouse's hasToken: tokens are runs of characters other than
 * ASCII punctuation, whitespace and controls. The needle must be one token (hasToken rejects
 * others), so it is a string literal checked here.
 */
function compileContainsToken(spec: ContainsSpec): SqlFragment {
  const needle = '$literal' in spec.substr ? spec.substr.$literal : null;
  if (typeof needle !== 'string' || !TOKEN.test(needle)) {
    throw new BadRequestError('$containsToken needs a string literal made of one token (letters and digits)');
  }
  const [input, substr] = containsOperands({ ...spec, substr: { $literal: ` ${needle} ` } });
  return sql`(instr(' ' || ${tokenSeparatorsToSpaces(input)} || ' ', ${substr}) > 0)`;
}

/** Input and needle as text; lower-cased by SQLite (ASCII only) when case-insensitive. */
function containsOperands(spec: ContainsSpec): [SqlFragment, SqlFragment] {
  const both = [coerce(value(spec.input), 'text'), coerce(value(spec.substr), 'text')];
  const fold = spec.case_insensitive ? both.map((s) => sql`lower(${s})`) : both;
  return [fold[0]!, fold[1]!];
}

/** ASCII characters that separate tokens: everything but letters and digits (space stays). */
const SEPARATOR_CODES = Array.from({ length: 127 }, (_, i) => i + 1).filter((c) => c !== 32 && !/[A-Za-z0-9]/.test(String.fromCharCode(c)));
// eslint-disable-next-line no-control-regex -- a token is a run of letters and digits: every ASCII separator, control characters included, ends it
const TOKEN = /^[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+$/;

function tokenSeparatorsToSpaces(text: SqlFragment): SqlFragment {
  return SEPARATOR_CODES.reduce((s, code) => sql`replace(${s}, char(${raw(String(code))}), ' ')`, text);
}

/** Missing or null. */
function isNull(v: Value): SqlFragment {
  if (v.tag === 'json') return jsonIsNull(v.field);
  if (v.tag === 'literal') return sql`(${param(v.value)} IS NULL)`;
  return sql`(${v.sql} IS NULL)`;
}
