/**
 * @module
 * Checks a request's query (`query.$expr`) and id lists against the limits (limits.ts)
 * before the request is validated or any SQL is built, so an oversized query is refused in
 * time linear in its size instead of stalling the server: a 100,000-child `$and` used to
 * take 57 s and 1.2 GB before failing.
 *
 * It runs on the raw input (not yet validated), so it reads it defensively and leaves
 * shapes to the contract: anything it does not recognise is left for validation to judge.
 */
import { limitText, type Limits } from '../limits.js';
import { ValidationError } from '../errors.js';

type Loc = (string | number)[];

const LIST_OPERATORS = ['$and', '$or'] as const;

/** Throws a 422 naming the problem and the limit when the request asks for too much. */
export function assertRequestLimits(raw: Record<string, unknown>, limits: Limits): void {
  checkIdLists(raw, ['body'], limits);
  const filter = raw.filter;
  if (isObject(filter)) checkIdLists(filter, ['body', 'filter'], limits);
  if (isObject(raw.query) && '$expr' in raw.query) checkExpr(raw.query.$expr, ['body', 'query', '$expr'], limits);
  if (Array.isArray(raw.sort_by)) {
    raw.sort_by.forEach((s, i) => {
      if (isObject(s) && typeof s.field === 'string') checkFieldPath(s.field, ['body', 'sort_by', i, 'field']);
    });
  }
}

/** Id lists: a field named `ids` or `..._ids` holding an array. */
function checkIdLists(obj: Record<string, unknown>, loc: Loc, limits: Limits): void {
  for (const [key, value] of Object.entries(obj)) {
    if (!(key === 'ids' || key.endsWith('_ids')) || !Array.isArray(value)) continue;
    if (value.length > limits.maxIdList) {
      fail([...loc, key], `${key} has ${value.length} ids; ${limitText('maxIdList', limits)}`, 'too_long');
    }
  }
}

/**
 * One pass over the `$expr` tree with an explicit stack: depth, the length of each list and
 * the total number of nodes, and field paths that SQL cannot carry.
 */
function checkExpr(root: unknown, rootLoc: Loc, limits: Limits): void {
  const stack: { node: unknown; depth: number; loc: Loc }[] = [{ node: root, depth: 1, loc: rootLoc }];
  let operations = 0;
  while (stack.length > 0) {
    const { node, depth, loc } = stack.pop()!;
    if (!isObject(node) || '$literal' in node) continue;
    if (!('$getField' in node) && ++operations > limits.maxQueryOperations) {
      fail(rootLoc, `The query has more than ${limits.maxQueryOperations} operations; ${limitText('maxQueryOperations', limits)}`);
    }
    // Operations and conversions count; a field read or a literal ends a branch, not a level.
    if (depth > limits.maxQueryDepth && !('$getField' in node || '$literal' in node)) {
      fail(loc, `The query nests operations more than ${limits.maxQueryDepth} deep; ${limitText('maxQueryDepth', limits)}`);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$getField') {
        if (typeof value === 'string') checkFieldPath(value, [...loc, key]);
        continue;
      }
      const push = (child: unknown, childLoc: Loc) => stack.push({ node: child, depth: depth + 1, loc: childLoc });
      if ((LIST_OPERATORS as readonly string[]).includes(key) && Array.isArray(value)) {
        checkOperands(key, value.length, [...loc, key], limits);
        value.forEach((child, i) => push(child, [...loc, key, i]));
      } else if (key === '$in' && Array.isArray(value)) {
        push(value[0], [...loc, key, 0]);
        const list = value[1];
        if (Array.isArray(list)) {
          checkOperands(key, list.length, [...loc, key, 1], limits);
          list.forEach((child, i) => push(child, [...loc, key, 1, i]));
        }
      } else if (Array.isArray(value)) {
        value.forEach((child, i) => push(child, [...loc, key, i]));
      } else if (isObject(value)) {
        // `$convert: {input, to}`, `$contains: {input, substr}`: one level, like an operation.
        for (const [k, v] of Object.entries(value)) push(v, [...loc, key, k]);
      }
    }
  }
}

function checkOperands(operator: string, count: number, loc: Loc, limits: Limits): void {
  if (count > limits.maxQueryOperands) {
    fail(loc, `${operator} has ${count} operands; ${limitText('maxQueryOperands', limits)}`, 'too_long');
  }
}

/** A NUL cannot travel in a SQLite JSON path (the text ends there), and no stored key holds one. */
function checkFieldPath(path: string, loc: Loc): void {
  if (path.includes('\u0000')) fail(loc, 'A field path cannot contain a NUL character', 'string_pattern_mismatch');
}

function fail(loc: Loc, msg: string, type = 'value_error'): never {
  throw new ValidationError([{ loc, msg, type }]);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
