/**
 * Reading what an object version is from its wire shape: its category (op, dataset, model...),
 * its type label, the tables it points at, its source file, and where a ref's extra path lands.
 */
import type { JsonPathStep } from '../../components/json/jsonFocus.js';
import { formatEdges, isRefString, parseRef, type RefEdge } from '../../lib/refs.js';
import type { ObjVersion } from './objectQueries.js';

/** The tabs of the objects list. */
export const OBJECT_CATEGORIES = [
  { id: 'all', label: 'All' },
  { id: 'op', label: 'Ops' },
  { id: 'dataset', label: 'Datasets' },
  { id: 'model', label: 'Models' },
  { id: 'scorer', label: 'Scorers' },
  { id: 'evaluation', label: 'Evaluations' },
  { id: 'prompt', label: 'Prompts' },
  { id: 'other', label: 'Other' },
] as const;

/** A tab of the objects list. */
export type ObjectCategory = (typeof OBJECT_CATEGORIES)[number]['id'];

const BY_BASE_CLASS: Record<string, ObjectCategory> = {
  Dataset: 'dataset',
  Model: 'model',
  Scorer: 'scorer',
  Evaluation: 'evaluation',
  Prompt: 'prompt',
  StringPrompt: 'prompt',
  MessagesPrompt: 'prompt',
  EasyPrompt: 'prompt',
};

type Classified = Pick<ObjVersion, 'kind' | 'base_object_class' | 'leaf_object_class'>;

/** Which tab an object belongs to: ops by kind, the rest by base (then leaf) class. */
export function objectCategory(o: Classified): Exclude<ObjectCategory, 'all'> {
  if (o.kind === 'op') return 'op';
  const byClass = BY_BASE_CLASS[o.base_object_class ?? ''] ?? BY_BASE_CLASS[o.leaf_object_class ?? ''];
  return (byClass as Exclude<ObjectCategory, 'all'> | undefined) ?? 'other';
}

/** `Op`, the leaf class (`QADataset`), else the base class, else `Object`. */
export function objectTypeLabel(o: Classified): string {
  if (o.kind === 'op') return 'Op';
  return o.leaf_object_class ?? o.base_object_class ?? 'Object';
}

/** A field of a version whose value is a table ref (a dataset's `rows`). */
export interface TableField {
  path: JsonPathStep[];
  /** `rows`, `config.examples`, `items[2]`. */
  label: string;
  digest: string;
}

/** `['config', 'examples', 2]` → `config.examples[2]`. */
export function pathLabel(path: readonly JsonPathStep[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('') || '(value)';
}

/** Table refs inside a value, breadth first, a few levels deep (values can be huge). */
export function findTableFields(val: unknown, { maxDepth = 4, maxNodes = 5000 } = {}): TableField[] {
  const found: TableField[] = [];
  let queue: { path: JsonPathStep[]; value: unknown }[] = [{ path: [], value: val }];
  let seen = 0;
  for (let depth = 0; depth <= maxDepth && queue.length; depth++) {
    const next: typeof queue = [];
    for (const { path, value } of queue) {
      if (++seen > maxNodes) return found;
      if (isRefString(value)) {
        const ref = parseRef(value);
        if (ref?.kind === 'table' && ref.extra.length === 0) found.push({ path, label: pathLabel(path), digest: ref.digest });
      } else if (Array.isArray(value)) {
        value.slice(0, 200).forEach((v, i) => next.push({ path: [...path, i], value: v }));
      } else if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value).slice(0, 200)) next.push({ path: [...path, k], value: v });
      }
    }
    queue = next;
  }
  return found;
}

/** The digest of a version's source file (`files["obj.py"]`, else its only file), if any. */
export function sourceFile(val: unknown): { name: string; digest: string } | null {
  const files = (val as { files?: unknown } | null)?.files;
  if (typeof files !== 'object' || files === null) return null;
  const entries = Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string');
  const main = entries.find(([name]) => name === 'obj.py') ?? (entries.length === 1 ? entries[0] : undefined);
  return main ? { name: main[0], digest: main[1] } : null;
}

/** Where a ref's extra edges land inside a version's value. */
export type PathTarget =
  | { kind: 'json'; path: JsonPathStep[] }
  | { kind: 'table'; path: JsonPathStep[]; row: string }
  | { kind: 'ref'; path: JsonPathStep[]; uri: string };

/**
 * Walks edges through a value: to a JSON path, to a row of a table field (`…/attr/rows/id/<row>`),
 * or, when the walk reaches another object's ref, to that ref with the remaining edges.
 */
export function resolveRefPath(val: unknown, edges: readonly RefEdge[]): PathTarget {
  const path: JsonPathStep[] = [];
  let current = val;
  for (let i = 0; i < edges.length; i++) {
    const { edge, value } = edges[i]!;
    if (isRefString(current)) {
      const ref = parseRef(current);
      if (ref?.kind === 'table' && edge === 'id') return { kind: 'table', path, row: value };
      if (ref?.kind === 'object' || ref?.kind === 'op') return { kind: 'ref', path, uri: `${current}/${formatEdges(edges.slice(i))}` };
      break;
    }
    if (edge === 'index' && Array.isArray(current)) {
      path.push(Number(value));
      current = current[Number(value)];
    } else if ((edge === 'key' || edge === 'attr') && typeof current === 'object' && current !== null && !Array.isArray(current)) {
      path.push(value);
      current = (current as Record<string, unknown>)[value];
    } else {
      break;
    }
  }
  return { kind: 'json', path };
}
