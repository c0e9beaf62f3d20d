import { describe, expect, it } from 'vitest';
import type { OutlineSpan } from '../../../contract/traceOutline.js';
import { buildTraceTree, keyboardAction, nextError, slowestPath, visibleRows } from './traceModel.js';

function span(
  id: string,
  parent: string | null,
  startMs: number,
  endMs: number | null,
  o: { op?: string; error?: boolean } = {},
): OutlineSpan {
  const t = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
  return {
    id,
    parent_id: parent,
    op_name: o.op ?? id,
    display_name: null,
    status: o.error ? 'error' : endMs === null ? 'running' : 'success',
    error: o.error ?? false,
    started_at: t(startMs),
    ended_at: endMs === null ? null : t(endMs),
    latency_ms: endMs === null ? null : endMs - startMs,
    tokens: null,
    cost: null,
    rollup: { descendants: 0, errors: 0, tokens: 0, cost: null },
  };
}

const spans = [span('root', null, 0, 100), span('a', 'root', 5, 40), span('a1', 'a', 6, 20, { op: 'search' }), span('b', 'root', 50, 90)];

describe('buildTraceTree', () => {
  it('links parents, depths, the depth-first order and the time span; orphans become roots', () => {
    const tree = buildTraceTree([...spans, span('orphan', 'missing', 10, 11)]);
    expect(tree.roots.map((r) => r.span.id)).toEqual(['root', 'orphan']);
    expect(tree.order.map((n) => n.span.id)).toEqual(['root', 'a', 'a1', 'b', 'orphan']);
    expect(tree.byId.get('a1')!.depth).toBe(2);
    expect(tree.end - tree.start).toBe(100);
  });
});

describe('visibleRows', () => {
  const tree = buildTraceTree(spans);
  const ids = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => r.node.span.id);

  it('hides collapsed subtrees but reveals the selection', () => {
    const collapsed = new Map([['a', false]]);
    expect(ids(visibleRows({ tree, overrides: collapsed, defaultDepth: Infinity, search: '', reveal: [null] }))).toEqual([
      'root',
      'a',
      'b',
    ]);
    expect(ids(visibleRows({ tree, overrides: collapsed, defaultDepth: Infinity, search: '', reveal: [null, 'a1'] }))).toEqual([
      'root',
      'a',
      'a1',
      'b',
    ]);
  });

  it('search keeps matches and their ancestors', () => {
    const rows = visibleRows({ tree, overrides: new Map(), defaultDepth: 1, search: 'SEARCH', reveal: [] });
    expect(ids(rows)).toEqual(['root', 'a', 'a1']);
    expect(rows.map((r) => r.match)).toEqual([false, false, true]);
  });
});

describe('nextError and slowestPath', () => {
  it('walks the failed spans in tree order and wraps around', () => {
    const tree = buildTraceTree([
      span('r', null, 0, 10),
      span('x', 'r', 1, 2, { error: true }),
      span('y', 'r', 3, 4),
      span('z', 'y', 3, 4, { error: true }),
    ]);
    expect(nextError(tree, 'r')).toBe('x');
    expect(nextError(tree, 'x')).toBe('z');
    expect(nextError(tree, 'z')).toBe('x');
    expect(nextError(buildTraceTree(spans), 'root')).toBeNull();
  });

  it('follows the slowest child from the root down; a running span lasts to the trace end', () => {
    expect(slowestPath(buildTraceTree(spans))).toEqual(['root', 'b']);
    // Still running since 20 ms: it lasts until the trace's end at 100 ms, longer than b's 40.
    const running = buildTraceTree([...spans, span('late', 'root', 20, null)]);
    expect(slowestPath(running)).toEqual(['root', 'late']);
    expect(slowestPath(buildTraceTree([]))).toEqual([]);
  });
});

describe('keyboardAction', () => {
  const tree = buildTraceTree(spans);
  const rows = visibleRows({ tree, overrides: new Map(), defaultDepth: Infinity, search: '', reveal: [] });

  it('moves, collapses, expands and climbs', () => {
    expect(keyboardAction('ArrowDown', rows, 0)).toEqual({ select: 'a' });
    expect(keyboardAction('ArrowUp', rows, 0)).toEqual({ select: 'root' });
    expect(keyboardAction('End', rows, 0)).toEqual({ select: 'b' });
    expect(keyboardAction('ArrowLeft', rows, 1)).toEqual({ toggle: { id: 'a', expanded: false } });
    expect(keyboardAction('ArrowLeft', rows, 2)).toEqual({ select: 'a' });
    expect(keyboardAction('ArrowRight', rows, 1)).toEqual({ select: 'a1' });
    expect(keyboardAction('x', rows, 1)).toBeNull();
  });
});
