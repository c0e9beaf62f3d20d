import { describe, expect, it } from 'vitest';
import { readCompareView, readRunsView, readRunView, writeCompareView, writeRunsView, writeRunView } from './evalViewState.js';

describe('evaluation views in the URL', () => {
  it('round-trips the runs list, leaving the default sort out', () => {
    const view = readRunsView(new URLSearchParams('sort=score:scores.correct:asc&model=gpt&status=failed'));
    expect(view).toEqual({ sort: { id: 'score:scores.correct', direction: 'asc' }, evaluation: null, model: 'gpt', status: 'failed' });
    expect(readRunsView(writeRunsView(view))).toEqual(view);
    expect(writeRunsView(readRunsView(new URLSearchParams())).toString()).toBe('');
  });

  it('round-trips a run page, ignoring a threshold that is not a number', () => {
    const view = readRunView(new URLSearchParams('failures=1&below=0.85&sort=inputs.question:desc'));
    expect(view).toEqual({ failures: true, below: 0.85, sort: { id: 'inputs.question', direction: 'desc' } });
    expect(readRunView(writeRunView(view))).toEqual(view);
    expect(readRunView(new URLSearchParams('below=abc')).below).toBeNull();
  });

  it('keeps the baseline among the runs (none named: the page picks the oldest) and reads both sort modes', () => {
    const view = readCompareView(new URLSearchParams('runs=a,b,a&baseline=z&vs=y&diff=1&sort=value:scores.x:asc:b&row=d1&marks=1'));
    expect(view).toEqual({
      runIds: ['a', 'b'],
      baseline: null,
      against: null,
      diffOnly: true,
      sort: { mode: 'value', field: 'scores.x', direction: 'asc', runId: 'b' },
      row: 'd1',
      marks: true,
    });
    expect(readCompareView(new URLSearchParams('runs=a,b&baseline=b&vs=a'))).toMatchObject({ baseline: 'b', against: 'a' });
    expect(readCompareView(writeCompareView(view))).toEqual(view);
    expect(readCompareView(new URLSearchParams('runs=a,b&sort=difference:scores.q:desc')).sort).toEqual({
      mode: 'difference',
      field: 'scores.q',
      direction: 'desc',
      runId: null,
    });
  });
});
