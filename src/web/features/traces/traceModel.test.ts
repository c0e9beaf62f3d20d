import { describe, expect, it } from 'vitest';
import type { Call } from '../../entities/calls/callFields.js';
import { buildTraceTree, keyboardAction, visibleRows } from './traceModel.js';

function call(id: string, parent: string | null, startMs: number, endMs: number, op = id): Call {
  const t = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
  return {
    id,
    project_id: 'e/p',
    op_name: op,
    display_name: null,
    trace_id: 't',
    parent_id: parent,
    thread_id: null,
    turn_id: null,
    started_at: t(startMs),
    ended_at: t(endMs),
    attributes: {},
    inputs: {},
    output: null,
    exception: null,
    summary: {},
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
  };
}

const calls = [call('root', null, 0, 100), call('a', 'root', 5, 40), call('a1', 'a', 6, 20, 'search'), call('b', 'root', 50, 90)];

describe('buildTraceTree', () => {
  it('links parents, depths and the time span; orphans become roots', () => {
    const tree = buildTraceTree([...calls, call('orphan', 'missing', 10, 11)]);
    expect(tree.roots.map((r) => r.call.id)).toEqual(['root', 'orphan']);
    expect(tree.byId.get('a1')!.depth).toBe(2);
    expect(tree.end - tree.start).toBe(100);
  });
});

describe('visibleRows', () => {
  const tree = buildTraceTree(calls);
  const ids = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => r.node.call.id);

  it('hides collapsed subtrees but reveals the selection', () => {
    expect(ids(visibleRows({ tree, overrides: new Map([['a', false]]), defaultDepth: Infinity, search: '', reveal: null }))).toEqual([
      'root',
      'a',
      'b',
    ]);
    expect(ids(visibleRows({ tree, overrides: new Map([['a', false]]), defaultDepth: Infinity, search: '', reveal: 'a1' }))).toEqual([
      'root',
      'a',
      'a1',
      'b',
    ]);
  });

  it('search keeps matches and their ancestors', () => {
    const rows = visibleRows({ tree, overrides: new Map(), defaultDepth: 1, search: 'SEARCH', reveal: null });
    expect(ids(rows)).toEqual(['root', 'a', 'a1']);
    expect(rows.map((r) => r.match)).toEqual([false, false, true]);
  });
});

describe('keyboardAction', () => {
  const tree = buildTraceTree(calls);
  const rows = visibleRows({ tree, overrides: new Map(), defaultDepth: Infinity, search: '', reveal: null });

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
