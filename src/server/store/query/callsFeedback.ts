/**
 * Feedback fields in call filters and sorts (docs/api/core.md §2): how a comparison naming
 * `feedback.[<type>].…` becomes a condition over the call's feedback rows.
 *
 * Decisions (the reference joins feedback in ClickHouse and reads one arbitrary row per type;
 * for a call with one row of a type both agree):
 * - Filtering: a comparison naming a feedback field holds when SOME feedback row of that type on
 *   the call satisfies it (ir.ts `feedback` condition). So `$eq emoji "👎"` finds calls with a
 *   thumbs-down among their reactions, and `$not` of it finds calls without one.
 * - `$eq <field> null` holds when NO row of that type has a value there ("has no note"); a null
 *   inside `$in` means the same. A bare feedback operand of `$and`/`$or`/`$not` (a boolean or a
 *   `$convert` to exists) reads as `$eq <operand> true`.
 * - A comparison reads one feedback type, against literals: two types would need two rows at
 *   once, and a call field beside it would resolve inside the feedback row (`id` would be the
 *   feedback row's). Both answer 400; conditions on call fields go beside it in `$and`/`$or`.
 * - Sorting uses the newest row of that type holding a value at the path; calls without one
 *   sort last in both directions, like missing JSON paths.
 */
import type { Operand, Operation } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';
import { isFeedbackPath, resolveFeedbackField } from './callFields.js';
import type { Condition, FeedbackField, Scalar, SortKey } from './ir.js';

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
 * for call fields or nested operations beside a feedback field.
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

/** True when the field holds a value (not missing, not JSON null). */
function hasValue(target: FeedbackField['target']): Scalar {
  return target.kind === 'json' ? { k: 'jsonExists', field: target } : { k: 'isNotNull', of: { k: 'field', field: target } };
}

/**
 * Plans `op`, wrapping comparisons that read feedback in a condition over the call's feedback
 * rows. `plan` plans an operation without this wrapping; `planExpr` with it (for rewritten
 * operations, which may hold feedback comparisons again).
 */
export function planWithFeedback(op: Operation, plan: (op: Operation) => Condition, planExpr: (op: Operation) => Condition): Condition {
  if ('$and' in op || '$or' in op || '$not' in op) {
    const list = '$and' in op ? op.$and : '$or' in op ? op.$or : op.$not;
    if (!list.some((o) => !isOperation(o) && fieldsIn(o).length > 0)) return plan(op);
    const mapped = list.map(asComparison);
    return planExpr('$and' in op ? { $and: mapped } : '$or' in op ? { $or: mapped } : { $not: [mapped[0]!] });
  }
  const scope = scopeOf(op);
  if (!scope) return plan(op);
  if ('$eq' in op && (isNullLiteral(op.$eq[0]) || isNullLiteral(op.$eq[1]))) {
    return { k: 'noFeedback', feedbackType: scope.feedbackType, where: { k: 'truthy', value: hasValue(scope.field.target) } };
  }
  if ('$in' in op && op.$in[1].some(isNullLiteral)) {
    const [lhs, items] = op.$in;
    const values = items.filter((i) => !isNullLiteral(i));
    return planExpr({ $or: [{ $in: [lhs, values] }, { $eq: [lhs, { $literal: null }] }] });
  }
  return { k: 'feedback', feedbackType: scope.feedbackType, where: plan(op) };
}

/** Sort keys for a feedback field: has a value first, then the newest row's value. */
export function feedbackSortKeys(f: FeedbackField, direction: 'asc' | 'desc'): SortKey[] {
  const has = hasValue(f.target);
  const newest = (value: Scalar): SortKey => ({
    value: { k: 'feedbackNewest', feedbackType: f.feedbackType, has, value },
    direction,
    nullable: true,
  });
  if (f.target.kind === 'feedbackColumn') return [newest({ k: 'field', field: f.target })];
  const exists: Scalar = { k: 'condition', condition: { k: 'feedback', feedbackType: f.feedbackType, where: { k: 'truthy', value: has } } };
  return [
    { value: exists, direction: 'desc', nullable: false },
    newest({ k: 'json', field: f.target, as: 'number' }),
    newest({ k: 'json', field: f.target, as: 'text' }),
  ];
}
