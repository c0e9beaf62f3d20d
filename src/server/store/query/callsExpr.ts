/**
 * Plans the `$expr` query language (docs/api/core.md §2 "Query language") into a typed Condition
 * over one call (ir.ts).
 *
 * Contract: bad queries throw 400 (empty `$and`/`$or`, types that cannot be compared,
 * unparsable datetimes, a `$containsToken` needle that is not one token) or 422 (fields that are
 * unknown or forbidden, the newest InvalidFieldError status). Operands are checked in the
 * order they appear, so the first problem found is the one reported.
 *
 * Decisions where the spec is silent (checked against weave's orm.py / calls_query_builder):
 * - A JSON sub-field takes its type from what it is compared with, like the newest reference's
 *   `infer_literal_filter_cast`: a number → numeric comparison (JSON numbers and numeric
 *   strings; other values never match), a boolean → JSON true/false, a string → text
 *   (true reads "true", 42 reads "42"), an object or list → its JSON text. int and double
 *   literals both compare as plain numbers (the reference's int cast drops 5.5 entirely).
 * - `$in` compares each listed value by its own type, so a mixed list [1, "a"] matches the
 *   number 1 or the text "a"; a null in the list matches missing/null values; an empty list
 *   matches nothing, as in Mongo.
 * - Datetime columns: a string literal is ISO 8601; a number literal is unix seconds, as the
 *   reference's `maybe_convert_datetime_operands` reads it.
 * - Three-valued logic, as the reference's SQL has it: a comparison with a NULL operand is
 *   undecidable and stays so under `$not`, so `$not $gt [$convert inputs.x, 5]` and
 *   `$not $eq [thread_id, "t"]` leave out calls without the value. A JSON path read as text is
 *   never NULL: a missing path reads as '' (docs/reference/query-semantics.md).
 */
import type { ContainsSpec, Operand, Operation } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';
import { planWithFeedback } from './callsFeedback.js';
import { coerce, commonType, isNull, isNullLiteral, toValue, type Value, type ValueContext } from './callsValues.js';
import type { CallField, Comparison, Condition, InGroup, Scalar, ValueType } from './ir.js';

const ORDERING = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/** Plans one `$expr` operation; `resolve` resolves field paths (with the request's expand_columns). */
export function planExpr(op: Operation, resolve: (path: string) => CallField): Condition {
  return new ExprPlanner(resolve).expr(op);
}

class ExprPlanner {
  readonly #ctx: ValueContext;
  constructor(resolve: (path: string) => CallField) {
    this.#ctx = { resolve, plan: (op) => this.expr(op) };
  }

  /** Comparisons that read feedback become conditions over the call's feedback rows. */
  expr(op: Operation): Condition {
    return planWithFeedback(
      op,
      (o) => this.#operation(o),
      (o) => this.expr(o),
    );
  }

  #operation(op: Operation): Condition {
    if ('$and' in op) return this.#logical(op.$and, 'and');
    if ('$or' in op) return this.#logical(op.$or, 'or');
    if ('$not' in op) return { k: 'not', item: this.#condition(op.$not[0]) };
    if ('$eq' in op) return this.#eq(op.$eq[0], op.$eq[1]);
    if ('$in' in op) return this.#in(op.$in[0], op.$in[1]);
    if ('$contains' in op) return this.#contains(op.$contains);
    if ('$containsToken' in op) return this.#containsToken(op.$containsToken);
    for (const [name, comparison] of Object.entries(ORDERING)) {
      if (name in op) {
        const [lhs, rhs] = (op as Record<string, [Operand, Operand]>)[name]!;
        return this.#ordering(this.#value(lhs), this.#value(rhs), comparison);
      }
    }
    throw new BadRequestError(`Unknown query operation: ${Object.keys(op).join(', ')}`);
  }

  #value(o: Operand): Value {
    return toValue(o, this.#ctx);
  }

  /** An operand used as a condition. */
  #condition(o: Operand): Condition {
    const value = coerce(this.#value(o), 'bool');
    return value.k === 'condition' ? value.condition : { k: 'truthy', value };
  }

  #logical(list: Operand[], k: 'and' | 'or'): Condition {
    if (list.length === 0) throw new BadRequestError(`$${k} needs at least one operand`);
    return { k, items: list.map((o) => this.#condition(o)) };
  }

  /** `$eq`; a null literal on either side means IS NULL (missing, for JSON paths). */
  #eq(lhs: Operand, rhs: Operand): Condition {
    const a = this.#value(lhs);
    const b = this.#value(rhs);
    if (isNullLiteral(b)) return isNull(a);
    if (isNullLiteral(a)) return isNull(b);
    return compare('=', a, b, commonType(a, b));
  }

  #ordering(a: Value, b: Value, op: Comparison): Condition {
    const type = commonType(a, b);
    if (type === 'doc') throw new BadRequestError('Objects and lists can only be compared with $eq or $in');
    return compare(op, a, b, type);
  }

  /** `$in`: one group per value type in the list, so columns keep their indexes. */
  #in(lhs: Operand, items: Operand[]): Condition {
    const a = this.#value(lhs);
    const groups = new Map<ValueType, Scalar[]>();
    let matchNull = false;
    for (const b of items.map((o) => this.#value(o))) {
      if (isNullLiteral(b)) {
        matchNull = true;
        continue;
      }
      const type = commonType(a, b);
      let group = groups.get(type);
      if (!group) groups.set(type, (group = []));
      group.push(coerce(b, type));
    }
    const planned: InGroup[] = [...groups].map(([type, list]) => ({ type, left: coerce(a, type), items: list }));
    if (planned.length === 0 && !matchNull) return { k: 'false' };
    return { k: 'in', groups: planned, orNull: matchNull ? isNull(a) : null };
  }

  #contains(spec: ContainsSpec): Condition {
    const input = coerce(this.#value(spec.input), 'text');
    const substr = coerce(this.#value(spec.substr), 'text');
    return { k: 'contains', input, substr, caseInsensitive: spec.case_insensitive === true };
  }

  /** The needle must be one token (ClickHouse's hasToken rejects others), so it is a string literal. */
  #containsToken(spec: ContainsSpec): Condition {
    const needle = '$literal' in spec.substr ? spec.substr.$literal : null;
    if (typeof needle !== 'string' || !TOKEN.test(needle)) {
      throw new BadRequestError('$containsToken needs a string literal made of one token (letters and digits)');
    }
    const input = coerce(this.#value(spec.input), 'text');
    return { k: 'containsToken', input, token: needle, caseInsensitive: spec.case_insensitive === true };
  }
}

function compare(op: Comparison, a: Value, b: Value, type: ValueType): Condition {
  return { k: 'compare', op, type, left: coerce(a, type), right: coerce(b, type) };
}

// eslint-disable-next-line no-control-regex -- a token is a run of letters and digits: every ASCII separator, control characters included, ends it
const TOKEN = /^[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+$/;
