import { describe, expect, it } from 'vitest';
import { isolatedPoints } from './chartGaps.js';

describe('isolatedPoints', () => {
  it('marks values whose neighbours are both empty, at the edges too', () => {
    const rows = [{ p: 1 }, { p: null }, { p: 3 }, { p: null }, { p: 5 }, { p: 6 }, { p: null }, { p: 8 }];
    expect([...isolatedPoints(rows, 'p')]).toEqual([0, 2, 7]);
  });
  it('marks nothing in a line without gaps or without values', () => {
    expect(isolatedPoints([{ p: 1 }, { p: 2 }], 'p').size).toBe(0);
    expect(isolatedPoints([{ p: null }, { p: null }], 'p').size).toBe(0);
  });
});
