import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, flattenJson, initialExpanded } from './jsonTree.js';

describe('flattenJson', () => {
  it('shows a container root as its members, nested containers collapsed', () => {
    const rows = flattenJson({ value: { a: 1, b: { c: 2 } }, expanded: new Set(['$']), limits: new Map() });
    expect(rows.map((r) => [r.name, r.kind, r.depth])).toEqual([
      ['a', 'value', 0],
      ['b', 'object', 0],
    ]);
  });

  it('walks only expanded containers', () => {
    const rows = flattenJson({ value: { b: { c: 2 } }, expanded: new Set(['$', '$/b']), limits: new Map() });
    expect(rows.map((r) => r.id)).toEqual(['$/b', '$/b/c']);
  });

  it('caps big containers with a "more" row, and limits grow', () => {
    const value = Array.from({ length: 100_000 }, (_, i) => i);
    const rows = flattenJson({ value, expanded: new Set(['$']), limits: new Map() });
    expect(rows).toHaveLength(DEFAULT_LIMIT + 1);
    expect(rows.at(-1)).toMatchObject({ kind: 'more', size: 100_000 - DEFAULT_LIMIT, parentId: '$' });
    expect(flattenJson({ value, expanded: new Set(['$']), limits: new Map([['$', 1100]]) })).toHaveLength(1101);
  });

  it('a primitive root is one row', () => {
    expect(flattenJson({ value: 'hi', expanded: new Set(), limits: new Map() })).toMatchObject([{ kind: 'value', value: 'hi' }]);
  });
});

describe('initialExpanded', () => {
  it('opens small payloads fully and keeps big ones shut below the top', () => {
    expect(initialExpanded({ a: { b: { c: 1 } } })).toEqual(new Set(['$', '$/a', '$/a/b']));
    const big = { messages: Array.from({ length: 500 }, () => ({ role: 'user', content: 'x' })) };
    expect(initialExpanded(big)).toEqual(new Set(['$']));
  });
});
