/**
 * The call fields a query or sort may name (docs/api/core.md §2), resolved to typed fields.
 *
 * Contract: `resolveCallField(path, expandColumns)` turns a `$getField` / `sort_by` path into a
 * top-level column, a `summary.weave.*` value computed from the row, a JSON path inside one of
 * the four JSON columns (possibly read through an expanded ref), or a feedback field. Unknown
 * fields are 422, as the newest reference's error registry answers its InvalidFieldError (older
 * servers said 403); that covers storage_size_bytes / total_storage_size_bytes, which the
 * reference forbids in queries too.
 *
 * Feedback fields: `feedback.[<feedback_type>|*].payload.<path>`, `feedback.[...].runnable_ref`
 * and `feedback.[...].trigger_ref`; the type is matched greedily up to the last `].`, as the
 * reference's regex does. Any other `feedback.*` path is 422.
 *
 * Expanded refs: with `inputs.model` among `expandColumns`, `inputs.model.name` reads `name`
 * in what the ref at `inputs.model` points to (ir.ts `JsonField.via`); the longest listed
 * column that prefixes the path wins, and it may itself lie below a shorter expansion.
 */
import { InvalidFieldError } from '../../errors.js';
import { splitFieldPath } from '../../core/fieldPath.js';
import type { CallField, ColumnField, ComputedField, FeedbackField, JsonField, QueryColumn, ScalarType } from './ir.js';

const JSON_COLUMNS = new Set<string>(['inputs', 'output', 'attributes', 'summary']);

/** Top-level CallSchema columns: [type, nullable]. Every visible call has a start, hence op_name etc. */
const COLUMNS: Record<QueryColumn, [ScalarType, boolean]> = {
  id: ['text', false],
  project_id: ['text', false],
  op_name: ['text', false],
  display_name: ['text', true],
  trace_id: ['text', false],
  parent_id: ['text', true],
  thread_id: ['text', true],
  turn_id: ['text', true],
  started_at: ['datetime', false],
  ended_at: ['datetime', true],
  deleted_at: ['datetime', true],
  exception: ['text', true],
  wb_user_id: ['text', true],
  wb_run_id: ['text', true],
  wb_run_step: ['number', true],
  wb_run_step_end: ['number', true],
};

const isColumn = (path: string): path is QueryColumn => Object.hasOwn(COLUMNS, path);

/** A top-level column as a field. */
export function columnField(column: QueryColumn): ColumnField {
  const [type, nullable] = COLUMNS[column];
  // Reads return an empty display name as null, so queries see it that way too.
  return column === 'display_name'
    ? { kind: 'column', column, type, nullable, emptyIsNull: true }
    : { kind: 'column', column, type, nullable };
}

const COMPUTED: Record<string, ComputedField> = {
  'summary.weave.status': { kind: 'computed', name: 'status', type: 'text', nullable: false },
  'summary.weave.latency_ms': { kind: 'computed', name: 'latency_ms', type: 'number', nullable: true },
  'summary.weave.trace_name': { kind: 'computed', name: 'trace_name', type: 'text', nullable: true },
  // Weft extensions (the reference has none): the token totals every call read publishes in
  // summary.weave under the one usage rule (core/usage.ts), and the cost of that usage.
  'summary.weave.total_tokens': { kind: 'computed', name: 'total_tokens', type: 'number', nullable: true },
  'summary.weave.input_tokens': { kind: 'computed', name: 'input_tokens', type: 'number', nullable: true },
  'summary.weave.output_tokens': { kind: 'computed', name: 'output_tokens', type: 'number', nullable: true },
  'summary.weave.total_cost': { kind: 'computed', name: 'total_cost', type: 'number', nullable: true },
};

/** Resolves a dotted field path, or throws 422 (unknown field). */
export function resolveCallField(path: string, expandColumns: readonly string[] = []): CallField {
  if (isFeedbackPath(path)) return resolveFeedbackField(path);
  const computed = Object.hasOwn(COMPUTED, path) ? COMPUTED[path] : undefined;
  if (computed) return computed;
  if (isColumn(path)) return columnField(path);
  const [head, ...rest] = splitFieldPath(path);
  const expanded = JSON_COLUMNS.has(head!) ? expandedField(path, expandColumns) : null;
  if (expanded) return expanded;
  if (JSON_COLUMNS.has(head!) && rest.every((p) => p !== '')) {
    return { kind: 'json', column: head as JsonField['column'], path: rest };
  }
  throw new InvalidFieldError(path, unknownFieldMessage(path));
}

/** Why a path is not a call field, and what is. */
function unknownFieldMessage(path: string): string {
  const known = [...Object.keys(COLUMNS), ...[...JSON_COLUMNS].map((c) => `${c}.<path>`), 'feedback.[<type>].payload.<path>'];
  return `Unknown call field "${path}": use one of ${known.join(', ')}`;
}

/** The field for `path` when it goes through an expanded ref, else null. */
function expandedField(path: string, expandColumns: readonly string[]): JsonField | null {
  const active = expandColumns.filter((c) => c.length > 0);
  const through = active.filter((c) => path.startsWith(`${c}.`)).sort((a, b) => b.length - a.length)[0];
  if (!through) return null;
  // The ref's own column, which may itself lie inside a shorter expansion.
  const base = resolveCallField(through, expandColumns);
  if (base.kind !== 'json') return null;
  const rest = splitFieldPath(path.slice(through.length + 1));
  if (rest.some((p) => p === '')) return null;
  return { kind: 'json', column: base.column, path: rest, via: base };
}

// ---------------------------------------------------------------------------------------
// Feedback fields
// ---------------------------------------------------------------------------------------

const PREFIX = 'feedback.';
/** `[<type>].<rest>`, greedy on the type as the reference's regex is. */
const FEEDBACK_PATH = /^\[(.+)\]\.(.+)$/s;

/** True for paths that name feedback (and so must resolve as feedback fields). */
export const isFeedbackPath = (path: string): boolean => path === 'feedback' || path.startsWith(PREFIX);

/** Resolves a `feedback.*` path, or throws 422 when it is not one of the three forms. */
export function resolveFeedbackField(path: string): FeedbackField {
  const m = FEEDBACK_PATH.exec(path.slice(PREFIX.length));
  if (!m) throw new InvalidFieldError(path, `Field ${path} is not allowed: use feedback.[<feedback_type> or *].payload.<path>`);
  const feedbackType = m[1] === '*' ? null : m[1]!;
  const [head, ...rest] = splitFieldPath(m[2]!);
  if (head === 'payload' && rest.every((p) => p !== '')) {
    return { kind: 'feedback', feedbackType, target: { kind: 'json', column: 'feedback.payload', path: rest } };
  }
  if ((head === 'runnable_ref' || head === 'trigger_ref') && rest.length === 0) {
    return { kind: 'feedback', feedbackType, target: { kind: 'feedbackColumn', column: head, type: 'text', nullable: true } };
  }
  throw new InvalidFieldError(path, `Field ${path} is not allowed: after feedback.[...] comes payload, runnable_ref or trigger_ref`);
}
