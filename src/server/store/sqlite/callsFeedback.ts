/**
 * Feedback fields in call queries and sorts: `feedback.[<feedback_type>|*].payload.<path>`,
 * `feedback.[...].runnable_ref` and `feedback.[...].trigger_ref` (api/core.md §2).
 *
 * Contract: a feedback field reads the `feedback` table under the alias `fb`, correlated with
 * the call being filtered (`fb.weave_ref` = the call's ref `weave:///<project>/call/<id>`, which
 * the `(project_id, weave_ref)` index serves). The SQL text holds only fixed names; the
 * feedback type and JSON path are bound parameters. Malformed feedback paths are 422, like any
 * unknown field.
 *
 * Decisions (the reference joins feedback in ClickHouse and reads one arbitrary row per type;
 * for a call with one row of a type both agree):
 * - Filtering: a comparison naming a feedback field holds when SOME feedback row of that type on
 *   the call satisfies it (an EXISTS subquery per comparison). So `$eq emoji "👎"` finds calls
 *   with a thumbs-down among their reactions, and `$not` of it finds calls without one.
 * - `$eq <field> null` holds when NO row of that type has a value there ("has no note"); a null
 *   inside `$in` means the same. A bare feedback operand of `$and`/`$or`/`$not` (a boolean or a
 *   `$convert` to exists) reads as `$eq <operand> true`.
 * - A comparison reads one feedback type, against literals: two types would need two rows at
 *   once, and a call field beside it would resolve inside the feedback subquery (`id` would be
 *   the feedback row's). Both answer 400; conditions on call fields go beside it in `$and`/`$or`.
 * - Sorting uses the newest row of that type holding a value at the path; calls without one
 *   sort last in both directions, like missing JSON paths.
 */
import type { Operand, Operation } from '../../../contract/common.js';
import { BadRequestError, InvalidFieldError } from '../../errors.js';
import {
  jsonExists,
  jsonNumber,
  jsonPath,
  jsonText,
  param,
  raw,
  splitFieldPath,
  sql,
  type ColumnField,
  type JsonField,
} from './callsFields.js';
import type { SqlFragment } from './callsQuery.js';

/** A feedback field: which rows (`feedbackType`, null for `*`) and what to read in them. */
export interface FeedbackField {
  kind: 'feedback';
  feedbackType: string | null;
  target: JsonField | ColumnField;
}

const PREFIX = 'feedback.';
/** `[<type>].<rest>`, greedy on the type as the reference's regex is. */
const FEEDBACK_PATH = /^\[(.+)\]\.(.+)$/s;

/** True for paths that name feedback (and so must resolve here). */
export const isFeedbackPath = (path: string): boolean => path === 'feedback' || path.startsWith(PREFIX);

/** Resolves a `feedback.*` path, or throws 422 when it is not one of the three forms. */
export function resolveFeedbackField(path: string): FeedbackField {
  const m = FEEDBACK_PATH.exec(path.slice(PREFIX.length));
  if (!m) throw new InvalidFieldError(path, `Field ${path} is not allowed: use feedback.[<feedback_type> or *].payload.<path>`);
  const feedbackType = m[1] === '*' ? null : m[1]!;
  const [head, ...rest] = splitFieldPath(m[2]!);
  if (head === 'payload' && rest.every((p) => p !== '')) {
    return { kind: 'feedback', feedbackType, target: { kind: 'json', column: 'fb.payload', path: jsonPath(rest) } };
  }
  if ((head === 'runnable_ref' || head === 'trigger_ref') && rest.length === 0) {
    return { kind: 'feedback', feedbackType, target: { kind: 'column', sql: `fb.${head}`, type: 'text', nullable: true } };
  }
  throw new InvalidFieldError(path, `Field ${path} is not allowed: after feedback.[...] comes payload, runnable_ref or trigger_ref`);
}

/** The feedback rows of the call being filtered, of one type or of every type. */
function rowsOf(feedbackType: string | null): SqlFragment {
  const base = raw("fb.project_id = calls.project_id AND fb.weave_ref = 'weave:///' || calls.project_id || '/call/' || calls.id");
  return feedbackType === null ? base : sql`${base} AND fb.feedback_type = ${param(feedbackType)}`;
}

/** True when the field holds a value (not missing, not JSON null). */
function hasValue(target: JsonField | ColumnField): SqlFragment {
  return target.kind === 'json' ? jsonExists(target) : sql`(${raw(target.sql)} IS NOT NULL)`;
}

const exists = (feedbackType: string | null, condition: SqlFragment): SqlFragment =>
  sql`EXISTS (SELECT 1 FROM feedback fb WHERE ${rowsOf(feedbackType)} AND ${condition})`;

// ---------------------------------------------------------------------------------------
// Filtering
// ---------------------------------------------------------------------------------------

const isNullLiteral = (o: Operand): boolean => '$literal' in o && o.$literal === null;
const isOperation = (o: Operand): o is Operation => !('$literal' in o || '$getField' in o || '$convert' in o || '$size' in o);

/** Feedback fields an operand reads directly (through `$convert`, not nested operations). */
function fieldsIn(o: Operand): FeedbackField[] {
  if ('$getField' in o) return isFeedbackPath(o.$getField) ? [resolveFeedbackField(o.$getField)] : [];
  if ('$convert' in o) return fieldsIn(o.$convert.input);
  if ('$size' in o) return fieldsIn(o.$size);
  return [];
}

/** The operands a comparison reads; empty for `$and`, `$or` and `$not`. */
function comparedOperands(op: Operation): Operand[] {
  if ('$eq' in op) return op.$eq;
  if ('$gt' in op) return op.$gt;
  if ('$gte' in op) return op.$gte;
  if ('$lt' in op) return op.$lt;
  if ('$lte' in op) return op.$lte;
  if ('$in' in op) return [op.$in[0], ...op.$in[1]];
  if ('$contains' in op) return [op.$contains.input, op.$contains.substr];
  if ('$containsToken' in op) return [op.$containsToken.input, op.$containsToken.substr];
  return [];
}

/** True for a literal, or a feedback field read directly or through `$convert`. */
const isLiteralOrFeedback = (o: Operand): boolean =>
  '$literal' in o ||
  ('$getField' in o && isFeedbackPath(o.$getField)) ||
  ('$convert' in o && isLiteralOrFeedback(o.$convert.input)) ||
  ('$size' in o && isLiteralOrFeedback(o.$size));

/**
 * The one feedback type a comparison reads (undefined: none). 400 for two different types, and
 * for call fields or nested operations beside a feedback field: inside the feedback subquery
 * `id`, `project_id` and `wb_user_id` would name the feedback row's columns, not the call's.
 */
function scopeOf(op: Operation): { feedbackType: string | null; field: FeedbackField } | undefined {
  const operands = comparedOperands(op);
  const fields = operands.flatMap(fieldsIn);
  if (fields.length === 0) return undefined;
  if (!operands.every(isLiteralOrFeedback)) {
    throw new BadRequestError('Compare a feedback field with literals; combine it with conditions on call fields through $and or $or');
  }
  const types = new Set(fields.map((f) => f.feedbackType));
  if (types.size > 1) {
    throw new BadRequestError('A comparison can read one feedback type at a time; combine two comparisons with $and instead');
  }
  return { feedbackType: fields[0]!.feedbackType, field: fields[0]! };
}

/** A bare feedback operand used as a condition, written as the comparison it stands for. */
const asComparison = (o: Operand): Operand => (isOperation(o) || fieldsIn(o).length === 0 ? o : { $eq: [o, { $literal: true }] });

/**
 * Compiles `op`, wrapping comparisons that read feedback in EXISTS over the call's feedback
 * rows. `compile` compiles an operation without this wrapping; `compileExpr` with it (for
 * rewritten operations, which may hold feedback comparisons again).
 */
export function compileWithFeedback(
  op: Operation,
  compile: (op: Operation) => SqlFragment,
  compileExpr: (op: Operation) => SqlFragment,
): SqlFragment {
  if ('$and' in op || '$or' in op || '$not' in op) {
    const list = '$and' in op ? op.$and : '$or' in op ? op.$or : op.$not;
    if (!list.some((o) => !isOperation(o) && fieldsIn(o).length > 0)) return compile(op);
    const mapped = list.map(asComparison);
    return compileExpr('$and' in op ? { $and: mapped } : '$or' in op ? { $or: mapped } : { $not: [mapped[0]!] });
  }
  const scope = scopeOf(op);
  if (!scope) return compile(op);
  if ('$eq' in op && (isNullLiteral(op.$eq[0]) || isNullLiteral(op.$eq[1]))) {
    return sql`(NOT ${exists(scope.feedbackType, hasValue(scope.field.target))})`;
  }
  if ('$in' in op && op.$in[1].some(isNullLiteral)) {
    const [lhs, items] = op.$in;
    const values = items.filter((i) => !isNullLiteral(i));
    return compileExpr({ $or: [{ $in: [lhs, values] }, { $eq: [lhs, { $literal: null }] }] });
  }
  return exists(scope.feedbackType, compile(op));
}

// ---------------------------------------------------------------------------------------
// Sorting
// ---------------------------------------------------------------------------------------

/** ORDER BY keys for a feedback field: has a value first, then the newest row's value. */
export function feedbackSortKeys(f: FeedbackField, direction: 'ASC' | 'DESC'): SqlFragment[] {
  const dir = raw(direction === 'ASC' ? 'ASC NULLS LAST' : 'DESC');
  const has = hasValue(f.target);
  const newest = (view: SqlFragment) =>
    sql`(SELECT ${view} FROM feedback fb WHERE ${rowsOf(f.feedbackType)} AND ${has} ORDER BY fb.created_at DESC, fb.id DESC LIMIT 1)`;
  if (f.target.kind === 'column') return [sql`${newest(raw(f.target.sql))} ${dir}`];
  return [sql`${exists(f.feedbackType, has)} DESC`, sql`${newest(jsonNumber(f.target))} ${dir}`, sql`${newest(jsonText(f.target))} ${dir}`];
}
