/**
 * Opening a JSON viewer at one path (a ref's `attr/…/index/…` edges): the row ids to expand so
 * the path shows, the per-container limits that bring a far child into view, and its row id.
 * Ids follow jsonTree.ts: `$`, then `/<index>` or `/<encoded key>` per step.
 */
import { DEFAULT_LIMIT } from './jsonTree.js';

/** One step into a JSON value: an object key or a list index. */
export type JsonPathStep = string | number;

/** What a viewer needs to show `path`: ids to open, container limits, and the target's row id. */
export interface JsonFocus {
  rowId: string;
  expanded: string[];
  limits: [string, number][];
}

/** The row id of a path (`['rows', 3]` → `$/rows/3`). */
export function jsonRowId(path: readonly JsonPathStep[]): string {
  return ['$', ...path.map((p) => encodeURIComponent(String(p)))].join('/');
}

/**
 * Walks `path` through `value`; stops at the last step that exists, so a stale path still
 * lands as near as it can. Null for an empty path.
 */
export function focusJsonPath(value: unknown, path: readonly JsonPathStep[]): JsonFocus | null {
  if (path.length === 0) return null;
  const expanded: string[] = ['$'];
  const limits: [string, number][] = [];
  let id = '$';
  let current: unknown = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) break;
    let position: number;
    let next: unknown;
    if (Array.isArray(current)) {
      position = Number(step);
      if (!Number.isInteger(position) || position < 0 || position >= current.length) break;
      next = current[position];
    } else {
      const key = String(step);
      if (!Object.prototype.hasOwnProperty.call(current, key)) break;
      position = Object.keys(current).indexOf(key);
      next = (current as Record<string, unknown>)[key];
    }
    // A child past the container's default cap needs a bigger limit to get a row.
    if (position >= DEFAULT_LIMIT) limits.push([id, Math.ceil((position + 1) / 100) * 100]);
    id = `${id}/${encodeURIComponent(String(step))}`;
    expanded.push(id);
    current = next;
  }
  return id === '$' ? null : { rowId: id, expanded, limits };
}
