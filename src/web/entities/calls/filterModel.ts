/**
 * The calls filter builder's model: typed clauses (field, operator, value) that compile to the
 * trace server's query language, `{"$expr": ...}` (docs/api/core.md §2 "Query language").
 *
 * Compatibility choices: `<` and `<=` compile to `$not` of `$gte`/`$gt`, because `$lt`/`$lte`
 * exist only in the newest servers; numeric comparisons on JSON paths wrap the field in
 * `$convert` to double, because JSON sub-fields are extracted as strings. Feedback fields
 * (`feedback.[<type>].payload.<path>`, which only Weft and the newest servers know) use `$lt`
 * and `$lte` as they are: `$not` would also match calls that have no such feedback at all.
 */
import type { Operand, Operation, Query } from '../../../contract/common.js';
import { annotationNameOf, isFeedbackPath, NOTE_FIELD, REACTION_FIELD } from '../feedback/feedbackModel.js';

/** How a field's values are typed, which decides its operators and literal types. */
export type FieldKind = 'text' | 'number' | 'datetime' | 'status' | 'reaction';

/** Filter operators the builder offers. */
export type FilterOp = 'contains' | 'eq' | 'neq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'empty' | 'not_empty';

/** One filter clause; `value` is text as typed (comma-separated for `in`). */
export interface FilterClause {
  field: string;
  op: FilterOp;
  value: string;
}

/** Fields with a known meaning; any other dot path (inputs.x, output.y, attributes.z) is text. */
export const KNOWN_FIELDS: readonly { path: string; label: string; kind: FieldKind }[] = [
  { path: 'op_name', label: 'Op name', kind: 'text' },
  { path: 'display_name', label: 'Display name', kind: 'text' },
  { path: 'summary.weave.status', label: 'Status', kind: 'status' },
  { path: 'started_at', label: 'Started', kind: 'datetime' },
  { path: 'summary.weave.latency_ms', label: 'Latency (ms)', kind: 'number' },
  { path: 'id', label: 'Call id', kind: 'text' },
  { path: 'trace_id', label: 'Trace id', kind: 'text' },
  { path: 'thread_id', label: 'Thread id', kind: 'text' },
  { path: 'exception', label: 'Exception', kind: 'text' },
  { path: REACTION_FIELD, label: 'Reaction', kind: 'reaction' },
  { path: NOTE_FIELD, label: 'Note', kind: 'text' },
];

/** Status values `summary.weave.status` can take. */
export const STATUSES = ['success', 'error', 'running', 'descendant_error'] as const;

/** Words for each operator, as the builder shows them. */
export const OP_LABELS: Record<FilterOp, string> = {
  contains: 'contains',
  eq: 'equals',
  neq: 'does not equal',
  in: 'is one of',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  empty: 'is empty',
  not_empty: 'is not empty',
};

const OPS_BY_KIND: Record<FieldKind, FilterOp[]> = {
  text: ['contains', 'eq', 'neq', 'in', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'],
  datetime: ['gte', 'lt'],
  status: ['eq', 'neq', 'in'],
  reaction: ['eq', 'neq', 'empty', 'not_empty'],
};

/** The kind of a field path. */
export function fieldKind(path: string): FieldKind {
  return KNOWN_FIELDS.find((f) => f.path === path)?.kind ?? 'text';
}

/** Human label for a field path. */
export function fieldLabel(path: string): string {
  const annotation = annotationNameOf(path);
  return KNOWN_FIELDS.find((f) => f.path === path)?.label ?? (annotation ? `${annotation} (annotation)` : path);
}

/** Operators that make sense for a field. */
export function operatorsFor(path: string): FilterOp[] {
  return OPS_BY_KIND[fieldKind(path)];
}

/** True when an operator takes no value. */
export function isUnary(op: FilterOp): boolean {
  return op === 'empty' || op === 'not_empty';
}

/** Relative times like `-15m`, `-24h`, `-7d` (as the time-range presets write them). */
const RELATIVE = /^-(\d+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Turns a datetime value (ISO, `YYYY-MM-DDTHH:mm` from a date input, or relative) into ISO UTC. */
export function resolveDateTime(value: string, now: number): string | null {
  const rel = RELATIVE.exec(value.trim());
  if (rel) return new Date(now - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS]).toISOString();
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const field = (path: string): Operand => ({ $getField: path });
const lit = (value: string | number | null): Operand => ({ $literal: value });
const asNumber = (v: string): number | null => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

function comparison(op: 'gt' | 'gte' | 'lt' | 'lte', lhs: Operand, rhs: Operand, native = false): Operation {
  if (op === 'gt') return { $gt: [lhs, rhs] };
  if (op === 'gte') return { $gte: [lhs, rhs] };
  if (native) return op === 'lt' ? { $lt: [lhs, rhs] } : { $lte: [lhs, rhs] };
  if (op === 'lt') return { $not: [{ $gte: [lhs, rhs] }] };
  return { $not: [{ $gt: [lhs, rhs] }] };
}

/** Compiles one clause; null when its value is incomplete (the builder shows it as pending). */
export function compileClause(clause: FilterClause, now: number): Operation | null {
  const { field: path, op, value } = clause;
  const kind = fieldKind(path);
  const get = field(path);
  const isEmpty: Operation = { $or: [{ $eq: [get, lit(null)] }, { $eq: [get, lit('')] }] };
  if (op === 'empty') return isEmpty;
  if (op === 'not_empty') return { $not: [isEmpty] };
  if (value.trim() === '') return null;

  // Literals: numbers for numeric fields, ISO strings for datetimes, text otherwise.
  const literal = (v: string): Operand | null => {
    if (kind === 'number') return asNumber(v) === null ? null : lit(asNumber(v));
    if (kind === 'datetime') return resolveDateTime(v, now) === null ? null : lit(resolveDateTime(v, now));
    return lit(v);
  };

  switch (op) {
    case 'contains':
      return { $contains: { input: get, substr: lit(value), case_insensitive: true } };
    case 'eq':
    case 'neq': {
      const rhs = literal(value);
      if (!rhs) return null;
      // SDK op names are refs (weave:///e/p/op/name:digest); "equals generate" should match them.
      const eq: Operation =
        path === 'op_name' && !value.includes('/')
          ? { $or: [{ $eq: [get, rhs] }, { $contains: { input: get, substr: lit(`/op/${value}:`) } }] }
          : { $eq: [get, rhs] };
      return op === 'eq' ? eq : { $not: [eq] };
    }
    case 'in': {
      const items = value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map(literal);
      if (items.length === 0 || items.some((i) => i === null)) return null;
      return { $in: [get, items as Operand[]] };
    }
    default: {
      const native = isFeedbackPath(path);
      if (kind === 'text') {
        const n = asNumber(value);
        if (n === null) return comparison(op, get, lit(value), native);
        return comparison(op, { $convert: { input: get, to: 'double' } }, lit(n), native);
      }
      const rhs = literal(value);
      return rhs ? comparison(op, get, rhs, native) : null;
    }
  }
}

/** The `query` for a set of clauses plus an optional time range start; null when nothing applies. */
export function compileQuery({ clauses, since, now }: { clauses: FilterClause[]; since: string | null; now: number }): Query | null {
  const ops: Operation[] = [];
  if (since) {
    const iso = resolveDateTime(since, now);
    if (iso) ops.push({ $gte: [field('started_at'), lit(iso)] });
  }
  for (const c of clauses) {
    const compiled = compileClause(c, now);
    if (compiled) ops.push(compiled);
  }
  if (ops.length === 0) return null;
  return { $expr: ops.length === 1 ? ops[0]! : { $and: ops } };
}
