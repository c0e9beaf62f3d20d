/**
 * The call tree of a trace, built from its flat call list, and the visible rows for a given
 * expansion state and search. Pure functions: the tree view only renders what they return.
 */
import { callLatencyMs, callName, type Call } from '../../entities/calls/callFields.js';

/** One call in the tree. */
export interface TraceNode {
  call: Call;
  parent: TraceNode | null;
  children: TraceNode[];
  depth: number;
}

/** The whole tree plus its time span. */
export interface TraceTree {
  roots: TraceNode[];
  byId: Map<string, TraceNode>;
  /** Epoch ms of the earliest start and the latest end (or start of a running call). */
  start: number;
  end: number;
}

/** Builds the tree; calls whose parent is not (yet) loaded become roots, so nothing is hidden. */
export function buildTraceTree(calls: Call[]): TraceTree {
  const byId = new Map<string, TraceNode>();
  for (const call of calls) byId.set(call.id, { call, parent: null, children: [], depth: 0 });
  const roots: TraceNode[] = [];
  let start = Infinity;
  let end = -Infinity;
  for (const node of byId.values()) {
    const parent = node.call.parent_id ? byId.get(node.call.parent_id) : undefined;
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      roots.push(node);
    }
    const s = Date.parse(node.call.started_at);
    const latency = callLatencyMs(node.call);
    start = Math.min(start, s);
    end = Math.max(end, latency === null ? s : s + latency);
  }
  // Depths in one pass from the roots (calls arrive in start order, children after parents).
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop()!;
    for (const child of node.children) {
      child.depth = node.depth + 1;
      stack.push(child);
    }
  }
  if (!Number.isFinite(start)) start = end = 0;
  return { roots, byId, start, end: Math.max(end, start + 1) };
}

/** One row of the rendered tree. */
export interface VisibleRow {
  node: TraceNode;
  expanded: boolean;
  /** True when the row matches the search (and is not only an ancestor of a match). */
  match: boolean;
}

/** Whether a node is open: an explicit toggle wins, else shallow nodes start open. */
export function isExpanded(node: TraceNode, overrides: ReadonlyMap<string, boolean>, defaultDepth: number): boolean {
  return overrides.get(node.call.id) ?? node.depth < defaultDepth;
}

/** True when a call's name, op or id contains the search text. */
export function matchesSearch(call: Call, needle: string): boolean {
  return callName(call).toLowerCase().includes(needle) || call.op_name.toLowerCase().includes(needle) || call.id.startsWith(needle);
}

/**
 * Rows in display order. With a search, only matches and their ancestors show (expanded);
 * otherwise collapsed nodes hide their subtree, except ancestors of `reveal` (the selection).
 */
export function visibleRows({
  tree,
  overrides,
  defaultDepth,
  search,
  reveal,
}: {
  tree: TraceTree;
  overrides: ReadonlyMap<string, boolean>;
  defaultDepth: number;
  search: string;
  reveal: string | null;
}): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const needle = search.trim().toLowerCase();
  if (needle) {
    const keep = new Set<TraceNode>();
    const hits = new Set<TraceNode>();
    for (const node of tree.byId.values()) {
      if (!matchesSearch(node.call, needle)) continue;
      hits.add(node);
      for (let n: TraceNode | null = node; n && !keep.has(n); n = n.parent) keep.add(n);
    }
    const stack = [...tree.roots].reverse();
    while (stack.length) {
      const node = stack.pop()!;
      if (!keep.has(node)) continue;
      rows.push({ node, expanded: true, match: hits.has(node) });
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
    return rows;
  }
  const forced = new Set<string>();
  for (let n = reveal ? tree.byId.get(reveal)?.parent : null; n; n = n.parent) forced.add(n.call.id);
  // Iterative walk: traces can be deep enough to overflow recursion.
  const stack: TraceNode[] = [...tree.roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    const expanded = forced.has(node.call.id) || isExpanded(node, overrides, defaultDepth);
    rows.push({ node, expanded, match: false });
    if (expanded) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return rows;
}

/** What a key press in the tree does: move the selection and/or open or close a node. */
export interface TreeKeyAction {
  select?: string;
  toggle?: { id: string; expanded: boolean };
}

/** Tree keyboard behaviour (WAI-ARIA tree pattern); null for keys the tree does not handle. */
export function keyboardAction(key: string, rows: VisibleRow[], index: number): TreeKeyAction | null {
  const at = (i: number) => rows[Math.max(0, Math.min(rows.length - 1, i))]?.node.call.id;
  if (key === 'ArrowDown') return { select: at(index + 1) };
  if (key === 'ArrowUp') return { select: at(Math.max(0, index - 1)) };
  if (key === 'Home') return { select: at(0) };
  if (key === 'End') return { select: at(rows.length - 1) };
  const row = rows[index];
  if (!row || (key !== 'ArrowRight' && key !== 'ArrowLeft')) return null;
  const { node, expanded } = row;
  if (key === 'ArrowRight') {
    if (node.children.length && !expanded) return { toggle: { id: node.call.id, expanded: true } };
    return node.children[0] ? { select: node.children[0].call.id } : {};
  }
  if (node.children.length && expanded) return { toggle: { id: node.call.id, expanded: false } };
  return node.parent ? { select: node.parent.call.id } : {};
}
