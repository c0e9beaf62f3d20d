import { describe, expect, it } from 'vitest';
import type { Query } from '../../../contract/common.js';
import { planTableQuery, type TableColumns } from './tablePlan.js';

const COLUMNS: TableColumns = { id: 'text', created_at: 'datetime', cost: 'number', payload: 'json' };
const plan = (q: Parameters<typeof planTableQuery>[1], defaults?: string[]) => planTableQuery(COLUMNS, q, defaults);
const status = (q: Parameters<typeof planTableQuery>[1]) => {
  try {
    plan(q);
    return 200;
  } catch (err) {
    return (err as { status?: number }).status ?? 500;
  }
};
const where = (expr: unknown): Query => ({ $expr: expr }) as Query;

describe('flat-table query plan', () => {
  it('resolves fields: columns, escaped dots, list indexes; defaults when none are asked', () => {
    expect(plan({ fields: ['payload.a\\.b.0', 'id'] }).fields).toEqual([
      { name: 'payload.a\\.b.0', field: { kind: 'json', column: 'payload', path: [{ key: 'a.b' }, { index: 0 }] } },
      { name: 'id', field: { kind: 'column', name: 'id', type: 'text' } },
    ]);
    expect(plan({}, ['cost']).fields.map((f) => f.name)).toEqual(['cost']);
    expect(plan({}).fields.map((f) => f.name)).toEqual(['id', 'created_at', 'cost', 'payload']);
  });

  it('types a JSON path by its peer and converts datetime literals to epoch µs', () => {
    expect(plan({ query: where({ $gt: [{ $getField: 'payload.n' }, { $literal: 3 }] }) }).where).toEqual({
      k: 'compare',
      op: '>',
      a: { k: 'json', column: 'payload', path: [{ key: 'n' }], view: 'number' },
      b: { k: 'literal', value: 3, rep: 'number' },
    });
    expect(plan({ query: where({ $lt: [{ $getField: 'created_at' }, { $literal: '1970-01-01T00:00:01Z' }] }) }).where).toMatchObject({
      b: { k: 'literal', value: 1_000_000, rep: 'datetime' },
    });
  });

  it('pages only when asked', () => {
    expect(plan({})).toMatchObject({ limit: null, offset: null });
    expect(plan({ limit: 5 })).toMatchObject({ limit: 5, offset: 0 });
  });

  it.each([
    ['an unknown field', { fields: ['nope'] }],
    [
      'an unknown sort field',
      {
        sortBy: [
          { field: 'payload', direction: 'asc' as const },
          { field: 'x', direction: 'asc' as const },
        ],
      },
    ],
    ['a key holding a quote', { fields: ['payload.a"b'] }],
    ['text against a number', { query: where({ $eq: [{ $getField: 'id' }, { $literal: 1 }] }) }],
    ['a JSON path against a datetime column', { query: where({ $eq: [{ $getField: 'payload.t' }, { $getField: 'created_at' }] }) }],
    ['a datetime that is no date', { query: where({ $eq: [{ $getField: 'created_at' }, { $literal: 'soon' }] }) }],
    ['an empty $and', { query: where({ $and: [] }) }],
    ['$containsToken', { query: where({ $containsToken: { input: { $getField: 'id' }, token: { $literal: 'a' } } }) }],
  ])('refuses %s with a 400', (_, q) => expect(status(q)).toBe(400));
});
