/**
 * `expand_columns` on call reads: each listed column that holds an object ref is replaced by
 * the referenced value, recursively for dotted paths, as the reference's `_expand_call_refs`
 * (clickhouse_trace_server_batched.py) does:
 * - columns are expanded shallowest first (by number of dots), so `inputs.model.prompt` is
 *   read out of the already expanded `inputs.model`;
 * - only object (and op) refs expand, including refs that walk into a value
 *   (`.../object/ds:<digest>/attr/rows/id/<row>`, a dataset row); table and call refs stay as
 *   they are;
 * - an expanded dict gains `_ref` (the ref it came from) unless it has one; other values
 *   replace the ref as they are;
 * - a ref that resolves to nothing (missing, deleted, another project's — its access was not
 *   checked) stays a ref string;
 * - `return_expanded_column_values: false` skips all this: the columns then only serve
 *   filters and sorts.
 * Refs are read once per distinct ref per request (a page of calls usually shares a handful
 * of models and datasets), so the cost follows the page, not the project.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { Store } from '../../store/Store.js';
import { readRefs } from '../objects/refsRead.js';
import { isRefString, parseRef } from '../objects/refs.js';

type Dict = Record<string, unknown>;

/** The value at a dotted path: the whole key first (the reference checks `col in call`). */
function getNested(value: unknown, path: string): unknown {
  if (value && typeof value === 'object' && Object.hasOwn(value, path)) return (value as Dict)[path];
  let v: unknown = value;
  for (const key of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Dict)[key];
  }
  return v;
}

/** Sets the value at a dotted path, copying the dicts on the way so shared values stay intact. */
function setNested(target: Dict, path: string, value: unknown): void {
  const keys = path.split('.');
  let v: Dict = target;
  for (const key of keys.slice(0, -1)) {
    const next = v[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) return;
    v[key] = { ...(next as Dict) };
    v = v[key] as Dict;
  }
  v[keys.at(-1)!] = value;
}

/** True for an object or op ref of `projectId` that names a version by digest. */
function isExpandable(value: unknown, projectId: string): value is string {
  if (!isRefString(value)) return false;
  try {
    const ref = parseRef(value);
    return (ref.kind === 'object' || ref.kind === 'op') && ref.projectId === projectId;
  } catch {
    return false;
  }
}

/** Caches resolved refs for one request; undefined marks a ref that resolves to nothing. */
export type RefCache = Map<string, unknown>;

/** Refs a request keeps resolved at most (the reference's LRU holds 1000 too). */
const CACHE_SIZE = 1000;

async function resolve(store: Store, refs: string[], cache: RefCache): Promise<void> {
  for (const ref of refs) {
    if (cache.has(ref)) continue;
    // Drop the oldest entry: the page's own refs are all resolved just before they are used.
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    try {
      const [value] = await readRefs(store, [ref]);
      cache.set(ref, value ?? undefined);
    } catch {
      cache.set(ref, undefined);
    }
  }
}

/** The page of calls (one project) with the listed columns expanded. */
export async function expandCallRefs(
  store: Store,
  req: { projectId: string; columns: string[]; cache: RefCache },
  calls: CallSchema[],
): Promise<CallSchema[]> {
  const byDepth = [...new Set(req.columns)].sort((a, b) => a.split('.').length - b.split('.').length);
  const out = calls.map((c) => ({ ...c }) as Dict);
  for (const column of byDepth) {
    const found = out.map((call) => getNested(call, column)).map((v) => (isExpandable(v, req.projectId) ? v : null));
    const refs = [...new Set(found.filter((r): r is string => r !== null))];
    if (refs.length === 0) continue;
    await resolve(store, refs, req.cache);
    found.forEach((ref, i) => {
      if (ref === null) return;
      const value = req.cache.get(ref);
      if (value === undefined || value === null) return;
      const copy = structuredClone(value);
      if (copy && typeof copy === 'object' && !Array.isArray(copy) && !('_ref' in copy)) (copy as Dict)._ref = ref;
      setNested(out[i]!, column, copy);
    });
  }
  return out as CallSchema[];
}
