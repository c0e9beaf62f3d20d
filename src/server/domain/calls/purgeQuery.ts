/**
 * Purges (`/feedback/purge`, `/cost/purge`) only accept queries that name ids, so a mistyped
 * query cannot delete a whole project: `$eq` of `id` and a string, an `$or` of those, and for
 * costs also `$in` of `id` and strings (the reference's `validate_purge_req_*`).
 */
import type { Operand, Query } from '../../../contract/common.js';
import { BadRequestError } from '../../errors.js';

const isIdField = (o: Operand): boolean => '$getField' in o && o.$getField === 'id';
const stringLiteral = (o: Operand): string | null => ('$literal' in o && typeof o.$literal === 'string' ? o.$literal : null);

function eqId(o: Operand): string | null {
  if (!('$eq' in o)) return null;
  const [field, value] = o.$eq;
  return isIdField(field) ? stringLiteral(value) : null;
}

/** The ids a purge query names, or 400 with `message` when it is anything else. */
export function idsFromPurgeQuery(query: Query, options: { allowIn: boolean; message: string }): string[] {
  const expr = query.$expr;
  const fail = (): never => {
    throw new BadRequestError(options.message);
  };
  if ('$eq' in expr) return [eqId(expr) ?? fail()];
  if ('$or' in expr) return expr.$or.map((o) => eqId(o) ?? fail());
  if (options.allowIn && '$in' in expr && isIdField(expr.$in[0])) return expr.$in[1].map((o) => stringLiteral(o) ?? fail());
  return fail();
}
