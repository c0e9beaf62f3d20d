/**
 * Compiles the `$expr` query language to SQLite. (Minimal version: `$eq`/`$and`/`$or`/`$not`
 * on top-level columns; the full language lands with its conformance tests.)
 */
import type { Operand, Operation } from '../../../contract/common.js';
import { BadRequestError } from '../../http/errors.js';
import type { SqlFragment } from './callsQuery.js';

export function compileExpr(op: Operation): SqlFragment {
  if ('$and' in op || '$or' in op) {
    const list = '$and' in op ? op.$and : (op as { $or: Operand[] }).$or;
    if (list.length === 0) throw new BadRequestError('$and/$or need at least one operand');
    const parts = list.map((o) => compileOperand(o));
    return { sql: `(${parts.map((p) => p.sql).join('$and' in op ? ' AND ' : ' OR ')})`, params: parts.flatMap((p) => p.params) };
  }
  if ('$not' in op) {
    const inner = compileOperand(op.$not[0]);
    return { sql: `(NOT ${inner.sql})`, params: inner.params };
  }
  if ('$eq' in op) {
    const [l, r] = op.$eq.map((o) => compileOperand(o));
    return { sql: `(${l!.sql} = ${r!.sql})`, params: [...l!.params, ...r!.params] };
  }
  throw new BadRequestError('Unsupported query operation');
}

function compileOperand(o: Operand): SqlFragment {
  if ('$literal' in o) return { sql: '?', params: [o.$literal] };
  if ('$getField' in o) return { sql: o.$getField, params: [] };
  return compileExpr(o as Operation);
}
