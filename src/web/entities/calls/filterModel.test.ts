import { describe, expect, it } from 'vitest';
import { Query } from '../../../contract/common.js';
import { compileClause, compileQuery, resolveDateTime } from './filterModel.js';

const NOW = Date.parse('2025-03-04T12:00:00Z');

describe('compileQuery', () => {
  it('is null without clauses or time range', () => {
    expect(compileQuery({ clauses: [], since: null, now: NOW })).toBeNull();
  });

  it('ANDs the time range and every complete clause, and skips incomplete ones', () => {
    const q = compileQuery({
      clauses: [
        { field: 'summary.weave.status', op: 'eq', value: 'error' },
        { field: 'inputs.q', op: 'contains', value: '' },
      ],
      since: '-24h',
      now: NOW,
    });
    expect(q).toEqual({
      $expr: {
        $and: [
          { $gte: [{ $getField: 'started_at' }, { $literal: '2025-03-03T12:00:00.000Z' }] },
          { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] },
        ],
      },
    });
    expect(Query.safeParse(q).success).toBe(true);
  });
});

describe('compileClause', () => {
  it('contains is case-insensitive', () => {
    expect(compileClause({ field: 'op_name', op: 'contains', value: 'LLM' }, NOW)).toEqual({
      $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'LLM' }, case_insensitive: true },
    });
  });

  it('op name equality also matches SDK op refs', () => {
    expect(compileClause({ field: 'op_name', op: 'eq', value: 'search' }, NOW)).toEqual({
      $or: [
        { $eq: [{ $getField: 'op_name' }, { $literal: 'search' }] },
        { $contains: { input: { $getField: 'op_name' }, substr: { $literal: '/op/search:' } } },
      ],
    });
  });

  it('numbers stay numbers on numeric fields; < compiles to $not $gte for older servers', () => {
    expect(compileClause({ field: 'summary.weave.latency_ms', op: 'lt', value: '500' }, NOW)).toEqual({
      $not: [{ $gte: [{ $getField: 'summary.weave.latency_ms' }, { $literal: 500 }] }],
    });
    expect(compileClause({ field: 'summary.weave.latency_ms', op: 'gt', value: 'abc' }, NOW)).toBeNull();
  });

  it('numeric comparisons on JSON paths convert the field to double', () => {
    expect(compileClause({ field: 'inputs.n', op: 'gte', value: '3' }, NOW)).toEqual({
      $gte: [{ $convert: { input: { $getField: 'inputs.n' }, to: 'double' } }, { $literal: 3 }],
    });
  });

  it('in splits on commas; empty checks null and ""', () => {
    expect(compileClause({ field: 'summary.weave.status', op: 'in', value: 'error, running' }, NOW)).toEqual({
      $in: [{ $getField: 'summary.weave.status' }, [{ $literal: 'error' }, { $literal: 'running' }]],
    });
    expect(compileClause({ field: 'output', op: 'not_empty', value: '' }, NOW)).toEqual({
      $not: [{ $or: [{ $eq: [{ $getField: 'output' }, { $literal: null }] }, { $eq: [{ $getField: 'output' }, { $literal: '' }] }] }],
    });
  });
});

describe('resolveDateTime', () => {
  it('reads relative, ISO and invalid values', () => {
    expect(resolveDateTime('-15m', NOW)).toBe('2025-03-04T11:45:00.000Z');
    expect(resolveDateTime('2025-01-01T00:00:00Z', NOW)).toBe('2025-01-01T00:00:00.000Z');
    expect(resolveDateTime('yesterday', NOW)).toBeNull();
  });
});
