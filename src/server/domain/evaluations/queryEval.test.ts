import { describe, expect, it } from 'vitest';
import type { Query } from '../../../contract/common.js';
import { matchesQuery, valueAt } from './queryEval.js';

const row = (value: unknown) => (path: string) => valueAt(value, path.split('.'));

describe('matchesQuery: $size', () => {
  const atLeastTwo: Query = { $expr: { $gte: [{ $size: { $getField: 'tags' } }, { $literal: 2 }] } };

  it('compares the length of a list', () => {
    expect(matchesQuery(atLeastTwo, row({ tags: ['a', 'b'] }))).toBe(true);
    expect(matchesQuery(atLeastTwo, row({ tags: ['a'] }))).toBe(false);
  });

  it('gives nothing but a list a size, so comparisons with it fail', () => {
    const below: Query = { $expr: { $lt: [{ $size: { $getField: 'tags' } }, { $literal: 100 }] } };
    expect(matchesQuery(below, row({ tags: 'ab' }))).toBe(false);
    expect(matchesQuery(below, row({}))).toBe(false);
    expect(matchesQuery(below, row({ tags: [] }))).toBe(true);
  });
});
