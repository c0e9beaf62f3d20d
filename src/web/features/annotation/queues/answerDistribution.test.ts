import { describe, expect, it } from 'vitest';
import { distributionRows } from './answerDistribution.js';

describe('distributionRows', () => {
  it('orders a 1–5 score as its scale, with the values nobody chose', () => {
    const rows = distributionRows(
      [
        { value: 4, count: 7 },
        { value: 2, count: 3 },
        { value: 5, count: 1 },
      ],
      { kind: 'number', integer: true, min: 1, max: 5 },
    );
    expect(rows).toEqual([
      { value: 1, count: 0 },
      { value: 2, count: 3 },
      { value: 3, count: 0 },
      { value: 4, count: 7 },
      { value: 5, count: 1 },
    ]);
  });

  it('orders a category by its options and yes/no as yes then no', () => {
    const counts = [
      { value: 'okay', count: 2 },
      { value: 'good', count: 1 },
    ];
    expect(distributionRows(counts, { kind: 'category', options: ['good', 'okay', 'bad'] }).map((r) => r.value)).toEqual([
      'good',
      'okay',
      'bad',
    ]);
    expect(distributionRows([{ value: false, count: 3 }], { kind: 'boolean' })).toEqual([
      { value: true, count: 0 },
      { value: false, count: 3 },
    ]);
  });

  it('puts free numbers in ascending order and other answers by count', () => {
    const rows = distributionRows(
      [
        { value: 0.9, count: 1 },
        { value: 'n/a', count: 1 },
        { value: 0.1, count: 4 },
        { value: 'other', count: 5 },
      ],
      { kind: 'number', integer: false, min: null, max: null },
    );
    expect(rows.map((r) => r.value)).toEqual([0.1, 0.9, 'other', 'n/a']);
  });
});
