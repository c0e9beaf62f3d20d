/**
 * A payload preview grown part by part (docs/trace-outline.md "Payloads in parts"): row ids of
 * cut values, and a part merged into the value at its path. Pure, so the viewer's owner keeps
 * one immutable value that React re-renders from.
 */

/** A step of a JSON path: an object key or a list index. */
export type PathStep = string | number;

/** The JSON viewer's row id of a path below the root (jsonTree.ts: `$`, `/index`, `/encoded key`). */
export const rowIdOf = (path: readonly PathStep[]): string =>
  path.reduce<string>((id, step) => `${id}/${typeof step === 'number' ? step : encodeURIComponent(step)}`, '$');

/** The path of a row id in `value` (a list's steps are indexes), or null when it leads nowhere. */
export function pathOfRow(value: unknown, rowId: string): PathStep[] | null {
  if (rowId === '$') return [];
  const path: PathStep[] = [];
  let v = value;
  for (const seg of rowId.slice(2).split('/')) {
    if (Array.isArray(v)) {
      const i = Number(seg);
      path.push(i);
      v = v[i];
    } else if (typeof v === 'object' && v !== null) {
      const key = decodeURIComponent(seg);
      path.push(key);
      v = (v as Record<string, unknown>)[key];
    } else return null;
  }
  return path;
}

/** The value at a path. */
export const valueAtPath = (value: unknown, path: readonly PathStep[]): unknown =>
  path.reduce<unknown>((v, step) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[step] : undefined), value);

/** How much of a string, list or object is here: characters or entries. */
export function loadedLength(v: unknown): number {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  return typeof v === 'object' && v !== null ? Object.keys(v).length : 0;
}

/** `value` with `part` appended to what is at `path` (a string's next characters, a list's or object's next entries). */
export function appendAt(value: unknown, path: readonly PathStep[], part: unknown): unknown {
  if (path.length === 0) {
    if (typeof value === 'string' && typeof part === 'string') return value + part;
    if (Array.isArray(value) && Array.isArray(part)) return [...value, ...part];
    if (typeof value === 'object' && value !== null && typeof part === 'object' && part !== null) return { ...value, ...part };
    return value;
  }
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[step as number] = appendAt(value[step as number], rest, part);
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    return { ...v, [step!]: appendAt(v[step as string], rest, part) };
  }
  return value;
}
