/**
 * The span tree of a trace, built from its server outline (docs/trace-outline.md), and what the
 * tree view shows of it: visible rows for an expansion state and search, the next error, the
 * slowest path. Pure functions: the tree view only renders what they return.
 */
import type { OutlineSpan } from '../../../contract/traceOutline.js';
import { callName } from '../../entities/calls/callFields.js';

/** One span in the tree. */
export interface TraceNode {
  span: OutlineSpan;
  parent: TraceNode | null;
  children: TraceNode[];
  depth: number;
  /** Epoch ms of its start. */
  start: number;
}

/** The whole tree plus its time span. */
export interface TraceTree {
  roots: TraceNode[];
  byId: Map<string, TraceNode>;
  /** Every node depth first (the order of a fully expanded tree). */
  order: TraceNode[];
  /** Epoch ms of the earliest start and the latest end (or start of a running span). */
  start: number;
  end: number;
}

/** Builds the tree; spans whose parent is not in the outline become roots, so nothing is hidden. */
export function buildTraceTree(spans: readonly OutlineSpan[]): TraceTree {
  const byId = new Map<string, TraceNode>();
  for (const span of spans) byId.set(span.id, { span, parent: null, children: [], depth: 0, start: Date.parse(span.started_at) });
  const roots: TraceNode[] = [];
  let start = Infinity;
  let end = -Infinity;
  for (const node of byId.values()) {
    const parent = node.span.parent_id ? byId.get(node.span.parent_id) : undefined;
    if (parent && parent !== node) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      roots.push(node);
    }
    start = Math.min(start, node.start);
    end = Math.max(end, node.start + (node.span.latency_ms ?? 0));
  }
  // Depths and the depth-first order in one iterative walk (traces can be deep).
  const order: TraceNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    order.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      child.depth = node.depth + 1;
      stack.push(child);
    }
  }
  if (!Number.isFinite(start)) start = end = 0;
  return { roots, byId, order, start, end: Math.max(end, start + 1) };
}

/**
 * Whether a span has children in the trace, before they have come: a streamed outline answers a
 * big trace's hidden levels last, and the row's toggle and count should not appear late.
 */
export const hasChildren = (node: TraceNode): boolean => node.children.length > 0 || node.span.rollup.descendants > 0;

/** One row of the rendered tree. */
export interface VisibleRow {
  node: TraceNode;
  expanded: boolean;
  /** True when the row matches the search (and is not only an ancestor of a match). */
  match: boolean;
}

/** Whether a node is open: an explicit toggle wins, else shallow nodes start open. */
export function isExpanded(node: TraceNode, overrides: ReadonlyMap<string, boolean>, defaultDepth: number): boolean {
  return overrides.get(node.span.id) ?? node.depth < defaultDepth;
}

/** True when a span's name, op or id contains the search text. */
export function matchesSearch(span: OutlineSpan, needle: string): boolean {
  return callName(span).toLowerCase().includes(needle) || span.op_name.toLowerCase().includes(needle) || span.id.startsWith(needle);
}

/**
 * Rows in display order. With a search, only matches and their ancestors show (expanded);
 * otherwise collapsed nodes hide their subtree, except ancestors of the `reveal` ids (the
 * selection, the end of the slowest path).
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
  reveal: readonly (string | null)[];
}): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const needle = search.trim().toLowerCase();
  if (needle) {
    const keep = new Set<TraceNode>();
    const hits = new Set<TraceNode>();
    for (const node of tree.order) {
      if (!matchesSearch(node.span, needle)) continue;
      hits.add(node);
      for (let n: TraceNode | null = node; n && !keep.has(n); n = n.parent) keep.add(n);
    }
    for (const node of tree.order) if (keep.has(node)) rows.push({ node, expanded: true, match: hits.has(node) });
    return rows;
  }
  const forced = new Set<string>();
  for (const id of reveal) {
    for (let n = id ? tree.byId.get(id)?.parent : null; n && !forced.has(n.span.id); n = n.parent) forced.add(n.span.id);
  }
  // Iterative walk: traces can be deep enough to overflow recursion.
  const stack: TraceNode[] = [...tree.roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    const expanded = forced.has(node.span.id) || isExpanded(node, overrides, defaultDepth);
    rows.push({ node, expanded, match: false });
    if (expanded) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return rows;
}

/** The first span with an error after `fromId` in tree order, wrapping around; null when none failed. */
export function nextError(tree: TraceTree, fromId: string | null): string | null {
  const from = fromId ? tree.order.indexOf(tree.byId.get(fromId)!) : -1;
  const n = tree.order.length;
  for (let k = 1; k <= n; k++) {
    const node = tree.order[(from + k + n) % n]!;
    if (node.span.error) return node.span.id;
  }
  return null;
}

/** A span's duration for the slowest path; a running span lasts until the trace's end. */
const durationOf = (tree: TraceTree, node: TraceNode) => node.span.latency_ms ?? tree.end - node.start;

/**
 * The slowest path (the critical path by latency): from the slowest root, down through the
 * slowest child at each level to a leaf. Ids from the root down; empty for an empty trace.
 */
export function slowestPath(tree: TraceTree): string[] {
  const slowest = (nodes: TraceNode[]) =>
    nodes.reduce<TraceNode | null>((best, n) => (best === null || durationOf(tree, n) > durationOf(tree, best) ? n : best), null);
  const path: string[] = [];
  for (let node = slowest(tree.roots); node; node = slowest(node.children)) path.push(node.span.id);
  return path;
}

/** What a key press in the tree does: move the selection and/or open or close a node. */
export interface TreeKeyAction {
  select?: string;
  toggle?: { id: string; expanded: boolean };
}

/** Tree keyboard behaviour (WAI-ARIA tree pattern); null for keys the tree does not handle. */
export function keyboardAction(key: string, rows: VisibleRow[], index: number): TreeKeyAction | null {
  const at = (i: number) => rows[Math.max(0, Math.min(rows.length - 1, i))]?.node.span.id;
  if (key === 'ArrowDown') return { select: at(index + 1) };
  if (key === 'ArrowUp') return { select: at(Math.max(0, index - 1)) };
  if (key === 'Home') return { select: at(0) };
  if (key === 'End') return { select: at(rows.length - 1) };
  const row = rows[index];
  if (!row || (key !== 'ArrowRight' && key !== 'ArrowLeft')) return null;
  const { node, expanded } = row;
  if (key === 'ArrowRight') {
    if (hasChildren(node) && !expanded) return { toggle: { id: node.span.id, expanded: true } };
    return node.children[0] ? { select: node.children[0].span.id } : {};
  }
  if (hasChildren(node) && expanded) return { toggle: { id: node.span.id, expanded: false } };
  return node.parent ? { select: node.parent.span.id } : {};
}
