/**
 * @module
 * Bounds the nesting of JSON values. Checked on every JSON body right after parsing, so a
 * body nested 5,000 deep is a 422 instead of a stack overflow in a later `JSON.stringify`,
 * and nothing is stored deeper than every backend can query (see limits.ts `maxJsonDepth`).
 *
 * The walk is iterative, so it never overflows the stack itself, and it stops at the first
 * value past the limit.
 */
import { limitText, type Limits } from '../limits.js';
import { ValidationError } from '../errors.js';

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Frame | null;
}

/** The path (keys and indexes) to the first object or array nested deeper than `maxDepth`, or null. */
export function findTooDeep(root: unknown, maxDepth: number): (string | number)[] | null {
  return exceeds(root, maxDepth) ? pathTooDeep(root, maxDepth) : null;
}

/**
 * Whether anything nests deeper than `maxDepth`: the fast walk every JSON body takes (two
 * parallel stacks, nothing allocated per value), run before the slower one that finds the path.
 */
function exceeds(root: unknown, maxDepth: number): boolean {
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return true;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

function pathTooDeep(root: unknown, maxDepth: number): (string | number)[] | null {
  const stack: Frame[] = [{ value: root, depth: 1, key: null, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return pathOf(frame);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item = value[i];
        if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, key: i, parent: frame });
      }
    } else {
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, key, parent: frame });
      }
    }
  }
  return null;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.push(f.key);
  return path.reverse();
}

/** Throws a 422 whose `loc` points at the value nested too deep (under `loc`, e.g. ["body"]). */
export function assertJsonDepth(value: unknown, limits: Limits, loc: (string | number)[] = ['body']): void {
  const path = findTooDeep(value, limits.maxJsonDepth);
  if (!path) return;
  throw new ValidationError([
    {
      loc: [...loc, ...path],
      msg: `JSON is nested more than ${limits.maxJsonDepth} levels deep here; ${limitText('maxJsonDepth', limits)}`,
      type: 'json_too_deep',
    },
  ]);
}
