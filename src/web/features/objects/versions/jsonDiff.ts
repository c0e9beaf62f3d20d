/**
 * A structural diff of two JSON values: the paths that were added, removed or changed, with
 * the values on each side. Objects compare key by key, lists index by index; a change of type
 * (or of a leaf) is one "changed" entry at that path. Stops after `limit` entries.
 */
import type { JsonPathStep } from '../../../components/json/jsonFocus.js';

/** How a path differs between the two sides. */
export type DiffKind = 'added' | 'removed' | 'changed';

/** One difference; `before` is absent for additions, `after` for removals. */
export interface DiffEntry {
  path: JsonPathStep[];
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

/** The differences, and whether the list was cut at the limit. */
export interface JsonDiff {
  entries: DiffEntry[];
  truncated: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Diffs `before` against `after`. */
export function diffJson(before: unknown, after: unknown, { limit = 2000 } = {}): JsonDiff {
  const entries: DiffEntry[] = [];
  let truncated = false;
  const add = (entry: DiffEntry) => {
    if (entries.length >= limit) truncated = true;
    else entries.push(entry);
  };
  // Explicit stack: deep values must not overflow the call stack.
  const stack: { path: JsonPathStep[]; a: unknown; b: unknown }[] = [{ path: [], a: before, b: after }];
  while (stack.length && !truncated) {
    const { path, a, b } = stack.pop()!;
    const children: typeof stack = [];
    if (isObj(a) && isObj(b)) {
      for (const k of Object.keys(a)) {
        if (!(k in b)) children.push({ path: [...path, k], a: a[k], b: undefined });
        else children.push({ path: [...path, k], a: a[k], b: b[k] });
      }
      for (const k of Object.keys(b)) if (!(k in a)) children.push({ path: [...path, k], a: undefined, b: b[k] });
    } else if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++)
        children.push({ path: [...path, i], a: i < a.length ? a[i] : undefined, b: i < b.length ? b[i] : undefined });
    } else if (a === undefined) {
      add({ path, kind: 'added', after: b });
    } else if (b === undefined) {
      add({ path, kind: 'removed', before: a });
    } else if (!jsonEqual(a, b)) {
      add({ path, kind: 'changed', before: a, after: b });
    }
    // Pushed in reverse so entries come out in document order.
    for (let i = children.length - 1; i >= 0; i--) {
      const c = children[i]!;
      if (c.a === undefined || c.b === undefined || !jsonEqual(c.a, c.b)) stack.push(c);
    }
  }
  return { entries, truncated };
}

/** Counts of each kind of difference. */
export function countDiff(entries: readonly DiffEntry[]): Record<DiffKind, number> {
  const counts: Record<DiffKind, number> = { added: 0, removed: 0, changed: 0 };
  for (const e of entries) counts[e.kind]++;
  return counts;
}
