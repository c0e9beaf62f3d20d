/**
 * The query language (docs/api/core.md §2 "Query language") evaluated in memory, over any value
 * a field path can be looked up in. Used where rows are assembled in the server rather than
 * filtered in SQL (eval_results/query).
 *
 * Comparison follows the newest reference: a field compared with a number or boolean literal
 * is read as one (`"0.5"` equals `0.5`, `"true"` equals `true`), so filters need no `$convert`;
 * ordering (`$gt`, ...) is numeric when either side is a number, else by string, and false
 * when either side is missing. `$eq` with a null literal holds for missing and null values.
 */
import type { Operand, Operation, Query } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';

/** Looks a dotted field up; undefined when absent. */
export type FieldGetter = (path: string) => unknown;

const isOperation = (o: Operand): o is Operation => !('$literal' in o) && !('$getField' in o) && !('$convert' in o) && !('$size' in o);

/** A number, a boolean as 1/0 or a numeric string as a number; else null. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
}

const toText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function convert(v: unknown, to: 'double' | 'string' | 'int' | 'bool' | 'exists'): unknown {
  if (to === 'exists') return v !== undefined && v !== null;
  if (v === undefined || v === null) return null;
  if (to === 'double') return toNumber(v);
  if (to === 'int') return toNumber(v) === null ? null : Math.trunc(toNumber(v)!);
  if (to === 'string') return toText(v);
  return v === 'true' || v === true || (typeof v === 'number' && v !== 0);
}

function operand(o: Operand, get: FieldGetter): unknown {
  if ('$literal' in o) return o.$literal;
  if ('$getField' in o) return get(o.$getField);
  if ('$convert' in o) return convert(operand(o.$convert.input, get), o.$convert.to);
  if ('$size' in o) {
    // `$size`: a list's length; anything else has none (null), so comparisons with it fail.
    const list = operand(o.$size, get);
    return Array.isArray(list) ? list.length : null;
  }
  return evalOperation(o, get);
}

/** Loose equality: numbers with numeric strings, booleans with "true"/"false", JSON otherwise. */
function looseEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (typeof a === 'number' || typeof b === 'number') return toNumber(a) !== null && toNumber(a) === toNumber(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  return toText(a) === toText(b);
}

function compare(a: unknown, b: unknown): number | null {
  if (a === undefined || a === null || b === undefined || b === null) return null;
  if (typeof a === 'number' || typeof b === 'number' || typeof a === 'boolean' || typeof b === 'boolean') {
    const [x, y] = [toNumber(a), toNumber(b)];
    return x === null || y === null ? null : x - y;
  }
  const [x, y] = [toText(a), toText(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function contains(spec: { input: Operand; substr: Operand; case_insensitive?: boolean | null }, get: FieldGetter, token: boolean): boolean {
  const input = operand(spec.input, get);
  const substr = operand(spec.substr, get);
  if (input === undefined || input === null || substr === undefined || substr === null) return false;
  const flags = spec.case_insensitive ? 'iu' : 'u';
  const needle = escapeRegExp(toText(substr));
  // A token is a run of letters, digits and underscores.
  const pattern = token ? `(?<![\\p{L}\\p{N}_])${needle}(?![\\p{L}\\p{N}_])` : needle;
  return new RegExp(pattern, flags).test(toText(input));
}

function evalOperation(op: Operation, get: FieldGetter): boolean {
  if ('$and' in op || '$or' in op) {
    const list = '$and' in op ? op.$and : op.$or;
    if (list.length === 0) throw new BadRequestError(`${'$and' in op ? '$and' : '$or'} needs at least one operand`);
    const truth = list.map((o) => Boolean(isOperation(o) ? evalOperation(o, get) : operand(o, get)));
    return '$and' in op ? truth.every(Boolean) : truth.some(Boolean);
  }
  if ('$not' in op) return !operand(op.$not[0], get);
  if ('$eq' in op) return looseEqual(operand(op.$eq[0], get), operand(op.$eq[1], get));
  if ('$in' in op) {
    const value = operand(op.$in[0], get);
    return op.$in[1].some((o) => looseEqual(value, operand(o, get)));
  }
  if ('$contains' in op) return contains(op.$contains, get, false);
  if ('$containsToken' in op) return contains(op.$containsToken, get, true);
  const [name, pair] = Object.entries(op)[0] as ['$gt' | '$gte' | '$lt' | '$lte', [Operand, Operand]];
  const c = compare(operand(pair[0], get), operand(pair[1], get));
  if (c === null) return false;
  return name === '$gt' ? c > 0 : name === '$gte' ? c >= 0 : name === '$lt' ? c < 0 : c <= 0;
}

/** Whether the query holds for the value behind `get`. */
export const matchesQuery = (query: Query, get: FieldGetter): boolean => evalOperation(query.$expr, get);

/** Every `$getField` path a query reads. */
export function queryFields(query: Query): string[] {
  const out: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$getField' && typeof v === 'string') out.push(v);
        else if (k !== '$literal') visit(v);
      }
    }
  };
  visit(query.$expr);
  return out;
}

/** The value at a dotted path (numeric parts index lists); undefined when absent. */
export function valueAt(value: unknown, path: string[]): unknown {
  for (const part of path) {
    if (Array.isArray(value)) value = /^\d+$/.test(part) ? value[Number(part)] : undefined;
    else if (value && typeof value === 'object') value = Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
    else return undefined;
  }
  return value;
}
