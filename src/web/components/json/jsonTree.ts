/**
 * Flattens a JSON value into the rows a viewer shows for the current expansion. Only expanded
 * containers are walked and each shows at most `limit` children, so the cost follows what is on
 * screen, not the size of the payload (10 MB inputs stay cheap).
 */

/** A container row, a value row, or the "more children" row after a capped container. */
export interface JsonRow {
  id: string;
  depth: number;
  /** Object key or array index; null for the root. */
  name: string | number | null;
  kind: 'object' | 'array' | 'value' | 'more';
  value: unknown;
  /** Children count of a container; hidden children count of a "more" row. */
  size: number;
  expanded: boolean;
  /** For "more" rows: the container whose limit grows. */
  parentId?: string;
}

/** Children shown per container before a "more" row. */
export const DEFAULT_LIMIT = 100;

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

function childCount(v: Container): number {
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

/** Id suffix of the "more children" row after a capped container. */
const MORE = '\u0000more';

type StackItem = { id: string; depth: number; name: string | number | null; value: unknown };

/**
 * A container's shown children (up to its limit), plus a "more" marker when capped. `total` is
 * its full size when the value is a preview cut short (docs/trace-outline.md "Payloads in parts").
 */
function childrenOf(item: StackItem, v: Container, limit: number, total: number | undefined): StackItem[] {
  const out: StackItem[] = [];
  const depth = item.depth + 1;
  if (Array.isArray(v)) {
    for (let i = 0; i < Math.min(limit, v.length); i++) out.push({ id: `${item.id}/${i}`, depth, name: i, value: v[i] });
  } else {
    let i = 0;
    for (const k in v) {
      if (i++ >= limit) break;
      out.push({ id: `${item.id}/${encodeURIComponent(k)}`, depth, name: k, value: v[k] });
    }
  }
  const shown = Math.min(limit, childCount(v));
  const size = Math.max(total ?? 0, childCount(v));
  if (size > shown) out.push({ id: `${item.id}${MORE}`, depth, name: null, value: size - shown });
  return out;
}

/**
 * Rows for a value given expanded ids and per-container limits. A container root has no row of
 * its own (it is always open): its members are the top rows, at depth 0. `cuts` gives the full
 * size of containers a preview cut short, by row id.
 */
export function flattenJson({
  value,
  expanded,
  limits,
  cuts,
}: {
  value: unknown;
  expanded: ReadonlySet<string>;
  limits: ReadonlyMap<string, number>;
  cuts?: ReadonlyMap<string, number>;
}): JsonRow[] {
  const rows: JsonRow[] = [];
  const root: StackItem = { id: '$', depth: -1, name: null, value };
  // Explicit stack: deeply nested payloads must not overflow the call stack.
  const stack: StackItem[] = isContainer(value)
    ? childrenOf(root, value, limits.get('$') ?? DEFAULT_LIMIT, cuts?.get('$')).reverse()
    : [{ ...root, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.id.endsWith(MORE)) {
      rows.push({
        id: item.id,
        depth: item.depth,
        name: null,
        kind: 'more',
        value: null,
        size: item.value as number,
        expanded: false,
        parentId: item.id.slice(0, -MORE.length),
      });
      continue;
    }
    const v = item.value;
    if (!isContainer(v)) {
      rows.push({ ...item, kind: 'value', size: 0, expanded: false });
      continue;
    }
    const open = expanded.has(item.id);
    const total = cuts?.get(item.id);
    rows.push({ ...item, kind: Array.isArray(v) ? 'array' : 'object', size: Math.max(total ?? 0, childCount(v)), expanded: open });
    if (open) stack.push(...childrenOf(item, v, limits.get(item.id) ?? DEFAULT_LIMIT, total).reverse());
  }
  return rows;
}

/**
 * Opens the root, then whole levels breadth-first while fewer than `budget` rows would show:
 * small payloads open fully, big ones stay collapsed below the top.
 */
export function initialExpanded(value: unknown, budget = 40): Set<string> {
  const open = new Set<string>();
  if (!isContainer(value)) return open;
  open.add('$');
  let shown = 1 + Math.min(childCount(value), DEFAULT_LIMIT);
  let level: { id: string; value: Container }[] = [{ id: '$', value }];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: { id: string; value: Container }[] = [];
    for (const { id, value: v } of level) {
      const entries: [string, unknown][] = Array.isArray(v)
        ? v.slice(0, DEFAULT_LIMIT).map((x, i) => [String(i), x])
        : Object.entries(v).slice(0, DEFAULT_LIMIT);
      for (const [k, child] of entries)
        if (isContainer(child)) next.push({ id: `${id}/${Array.isArray(v) ? k : encodeURIComponent(k)}`, value: child });
    }
    for (const c of next) {
      const add = Math.min(childCount(c.value), DEFAULT_LIMIT);
      if (shown + add > budget) return open;
      open.add(c.id);
      shown += add;
    }
    level = next;
  }
  return open;
}
