import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMNS, readCallsView, withColumn, writeCallsView } from './callsViewState.js';

describe('calls view in the URL', () => {
  it('defaults leave the URL empty', () => {
    const view = readCallsView(new URLSearchParams());
    expect(view).toEqual({
      clauses: [],
      sort: { field: 'started_at', direction: 'desc' },
      columns: [...DEFAULT_COLUMNS],
      since: null,
      rootsOnly: true,
      search: null,
      weftCalls: false,
      live: false,
    });
    expect(writeCallsView(view).toString()).toBe('');
  });

  it('round-trips every field', () => {
    const view = {
      clauses: [{ field: 'inputs.q', op: 'contains' as const, value: 'a,b' }],
      sort: { field: 'summary.weave.latency_ms', direction: 'asc' as const },
      columns: ['op', 'inputs.q'],
      since: '-7d',
      rootsOnly: false,
      search: '退款 "policy"',
      weftCalls: true,
      live: true,
    };
    expect(readCallsView(writeCallsView(view))).toEqual(view);
  });

  it('ignores malformed filters instead of failing the page', () => {
    expect(readCallsView(new URLSearchParams('f=not-json')).clauses).toEqual([]);
    expect(readCallsView(new URLSearchParams('f=[["x","nope","1"]]')).clauses).toEqual([]);
  });

  it('shows a built-in column in its place, before path columns, once', () => {
    expect(withColumn(['op', 'latency', 'inputs.q'], 'scores')).toEqual(['op', 'latency', 'scores', 'inputs.q']);
    expect(withColumn(['op', 'latency', 'inputs.q'], 'status')).toEqual(['op', 'status', 'latency', 'inputs.q']);
    expect(withColumn(['op', 'scores'], 'scores')).toEqual(['op', 'scores']);
  });
});
