import { describe, expect, it } from 'vitest';
import { appendAt, loadedLength, pathOfRow, rowIdOf, valueAtPath } from './jsonParts.js';
import { flattenJson } from './jsonTree.js';

describe('jsonParts', () => {
  const value = { 'a/b': [{ s: 'he' }, 1], list: [1, 2] };

  it('maps paths to the viewer row ids and back', () => {
    const id = rowIdOf(['a/b', 0, 's']);
    expect(id).toBe('$/a%2Fb/0/s');
    expect(flattenJson({ value, expanded: new Set(['$', '$/a%2Fb', '$/a%2Fb/0']), limits: new Map() }).map((r) => r.id)).toContain(id);
    expect(pathOfRow(value, id)).toEqual(['a/b', 0, 's']);
    expect(pathOfRow(value, '$')).toEqual([]);
    expect(pathOfRow(value, '$/list/0/x')).toBeNull();
  });

  it('appends a part at a path without touching the rest', () => {
    const next = appendAt(value, ['a/b', 0, 's'], 'llo') as typeof value;
    expect(valueAtPath(next, ['a/b', 0, 's'])).toBe('hello');
    expect(next.list).toBe(value.list);
    expect(value['a/b'][0]).toEqual({ s: 'he' });
    expect(loadedLength(valueAtPath(appendAt(value, ['list'], [3]), ['list']))).toBe(3);
  });

  it('counts a cut container at its full size with a "more" row', () => {
    const rows = flattenJson({
      value: { list: [1, 2] },
      expanded: new Set(['$', '$/list']),
      limits: new Map(),
      cuts: new Map([['$/list', 500]]),
    });
    expect(rows.find((r) => r.id === '$/list')?.size).toBe(500);
    expect(rows.at(-1)).toMatchObject({ kind: 'more', size: 498, parentId: '$/list' });
  });
});
