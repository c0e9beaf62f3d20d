import { describe, expect, it } from 'vitest';
import {
  fromLeaderboardValue,
  leaderboardProblem,
  leaderboardRows,
  metricPaths,
  sortRows,
  toLeaderboardValue,
} from './leaderboardModel.js';

const EVAL_A = 'weave:///e/p/object/eval-a:aaa';
const EVAL_B = 'weave:///e/p/object/eval-b:bbb';
const M1 = 'weave:///e/p/object/m1:111';
const M2 = 'weave:///e/p/object/m2:222';

const run = (id: string, at: string, self: string, model: string, output: unknown) => ({
  id,
  started_at: at,
  inputs: { self, model },
  output,
});

const columns = [
  { evaluation: EVAL_A, scorer: 'exact', metricPath: 'correct.true_fraction', minimize: null },
  { evaluation: EVAL_B, scorer: 'model_latency', metricPath: 'mean', minimize: true },
];

describe('leaderboardRows', () => {
  it('makes one row per model, taking the newest run of each column', () => {
    const rows = leaderboardRows(columns, [
      run('r1', '2026-01-01T00:00:00Z', EVAL_A, M1, { exact: { correct: { true_fraction: 0.5 } } }),
      run('r2', '2026-01-02T00:00:00Z', EVAL_A, M1, { exact: { correct: { true_fraction: 0.75 } } }),
      run('r3', '2026-01-01T00:00:00Z', EVAL_B, M2, { model_latency: { mean: 1.5 } }),
      run('r4', '2026-01-01T00:00:00Z', 'weave:///e/p/object/other:x', M2, { exact: 1 }),
    ]);
    expect(rows).toEqual([
      { model: M1, cells: [{ value: 0.75, runId: 'r2' }, null] },
      { model: M2, cells: [null, { value: 1.5, runId: 'r3' }] },
    ]);
  });

  it('takes the newest run by time when one started on a whole second (written without a fraction)', () => {
    const rows = leaderboardRows(columns, [
      run('whole', '2026-01-01T00:00:01Z', EVAL_A, M1, { exact: { correct: { true_fraction: 0.5 } } }),
      run('later', '2026-01-01T00:00:01.092000Z', EVAL_A, M1, { exact: { correct: { true_fraction: 0.75 } } }),
    ]);
    // As text the whole second sorts last ("Z" after "."), as time first.
    expect(rows[0]!.cells[0]).toEqual({ value: 0.75, runId: 'later' });
  });

  it('sorts best first by the column direction, rows without a value last', () => {
    const rows = [
      { model: 'a', cells: [{ value: 2, runId: 'x' }] },
      { model: 'b', cells: [null] },
      { model: 'c', cells: [{ value: 5, runId: 'y' }] },
    ];
    expect(sortRows(rows, 0, null, true).map((r) => r.model)).toEqual(['c', 'a', 'b']);
    expect(sortRows(rows, 0, true, true).map((r) => r.model)).toEqual(['a', 'c', 'b']);
    expect(sortRows(rows, 0, null, false).map((r) => r.model)).toEqual(['a', 'c', 'b']);
  });
});

describe('the leaderboard form', () => {
  it('reads a stamped SDK value and writes it back unstamped, keeping other fields', () => {
    const val = {
      _type: 'Leaderboard',
      name: 'b',
      description: null,
      columns: [
        {
          _type: 'LeaderboardColumn',
          evaluation_object_ref: EVAL_A,
          scorer_name: 'exact',
          summary_metric_path: 'correct.true_fraction',
          should_minimize: null,
          _class_name: 'LeaderboardColumn',
          _bases: ['BaseModel'],
        },
      ],
      color_scheme: 'diverging',
      _class_name: 'Leaderboard',
      _bases: ['BaseObject', 'BaseModel'],
    };
    const form = fromLeaderboardValue('b', val);
    expect(form.columns).toEqual([columns[0]]);
    expect(toLeaderboardValue({ ...form, description: 'd' }, val)).toEqual({
      name: 'b',
      description: 'd',
      color_scheme: 'diverging',
      columns: [
        { evaluation_object_ref: EVAL_A, scorer_name: 'exact', summary_metric_path: 'correct.true_fraction', should_minimize: null },
      ],
    });
    expect(leaderboardProblem(form)).toBeNull();
    expect(leaderboardProblem({ ...form, columns: [{ ...columns[0]!, scorer: '' }] })).toMatch(/Column 1/);
  });

  it('suggests the numeric leaf paths under a scorer', () => {
    expect(metricPaths({ exact: { correct: { true_count: 3, true_fraction: 0.5 }, note: 'x' } }, 'exact')).toEqual([
      'correct.true_count',
      'correct.true_fraction',
    ]);
  });
});
