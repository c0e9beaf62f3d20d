import { describe, expect, it } from 'vitest';
import type { EvalResultsTrial } from '../../../../contract/evalResults.js';
import { delta, formatDelta, rowDiffers, setupDifferences, type CompareRow } from './compareModel.js';
import { failureQuery, histogram, metricOf } from '../scoreModel.js';

const trial = (scores: Record<string, unknown>): EvalResultsTrial => ({
  predict_and_score_call_id: 'p',
  predict_call_id: null,
  model_output: null,
  scores,
  scorer_call_ids: {},
  model_latency_seconds: null,
  total_tokens: null,
  total_cost: null,
  genai_span_ref: null,
});
const row = (byRun: Record<string, Record<string, unknown>[]>): CompareRow => ({
  rowDigest: 'd',
  example: {},
  trials: new Map(Object.entries(byRun).map(([id, ts]) => [id, ts.map(trial)])),
});
const correct = metricOf({ scorer_key: 'correct', path: null, value_type: 'binary' });
const quality = metricOf({ scorer_key: 'quality', path: null, value_type: 'continuous' });

describe('deltas against a baseline', () => {
  it('gives the difference and its share of the baseline, pass rates in points', () => {
    const d = delta(0.7, 0.5)!;
    expect(d.abs).toBeCloseTo(-0.2, 12);
    expect(formatDelta(d, 'binary')).toEqual({ abs: '−20.0 pp', pct: '−28.6%' });
    expect(formatDelta(delta(0.72, 0.6)!, 'continuous')).toEqual({ abs: '−0.120', pct: '−16.7%' });
    expect(formatDelta(delta(10, 10)!, 'count')).toEqual({ abs: '±0', pct: '±0.0%' });
    expect(delta(0, 0.5)).toEqual({ abs: 0.5, pct: null });
    expect(delta(null, 1)).toBeNull();
  });
});

describe('rows that differ', () => {
  it('compares each metric across runs, trials folded into a mean, and counts missing rows', () => {
    const runs = ['a', 'b'];
    expect(rowDiffers(row({ a: [{ correct: true, quality: 0.5 }], b: [{ correct: true, quality: 0.5 }] }), runs, [correct, quality])).toBe(
      false,
    );
    expect(rowDiffers(row({ a: [{ correct: true, quality: 0.5 }], b: [{ correct: false, quality: 0.5 }] }), runs, [correct, quality])).toBe(
      true,
    );
    expect(rowDiffers(row({ a: [{ quality: 0.5 }], b: [{ quality: 0.25 }, { quality: 0.75 }] }), runs, [quality])).toBe(false);
    expect(rowDiffers(row({ a: [{ quality: 0.5 }] }), runs, [quality])).toBe(true);
    expect(rowDiffers(row({ a: [{ quality: 0.5 }], b: [{}] }), runs, [quality])).toBe(true);
  });
});

describe('dataset and scorer versions', () => {
  it('reports each differing setup with the runs that used each variant', () => {
    const e1 = { dataset: 'ds:1', scorers: ['s1', 's2'] };
    const e2 = { dataset: 'ds:2', scorers: ['s2', 's1'] };
    expect(
      setupDifferences(
        new Map([
          ['a', e1],
          ['b', e1],
        ]),
      ),
    ).toEqual([]);
    expect(
      setupDifferences(
        new Map([
          ['a', e1],
          ['b', e2],
          ['c', null],
        ]),
      ),
    ).toEqual([
      {
        what: 'dataset',
        variants: [
          { value: 'ds:1', runIds: ['a'] },
          { value: 'ds:2', runIds: ['b'] },
        ],
      },
    ]);
    expect(
      setupDifferences(
        new Map([
          ['a', e1],
          ['b', { ...e1, scorers: ['s1'] }],
        ]),
      )[0]!.what,
    ).toBe('scorers');
  });
});

describe('scores', () => {
  it('builds the failures filter from binary scores and a threshold on continuous ones', () => {
    expect(failureQuery([quality], null)).toBeNull();
    expect(failureQuery([correct], null)).toEqual({ $expr: { $eq: [{ $getField: 'scores.correct' }, { $literal: false }] } });
    expect(failureQuery([correct, quality], 0.5)).toEqual({
      $expr: {
        $or: [
          { $eq: [{ $getField: 'scores.correct' }, { $literal: false }] },
          { $lt: [{ $getField: 'scores.quality' }, { $literal: 0.5 }] },
        ],
      },
    });
    expect(metricOf({ scorer_key: 'judge', path: 'relevance', value_type: 'continuous' }).field).toBe('scores.judge.relevance');
  });

  it('bins 0–1 scores on a fixed scale, the top edge in the last bin', () => {
    const bins = histogram([0.3, 0.8, 0.8, 0.9, 1.0]);
    expect(bins).toHaveLength(10);
    expect(bins.map((b) => b.count)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 2, 2]);
    expect(histogram([5, 5])).toEqual([{ from: 5, to: 5, count: 2 }]);
  });
});
