import { describe, expect, it } from 'vitest';
import { diffJson, jsonEqual } from './jsonDiff.js';

describe('diffJson', () => {
  it('finds added, removed and changed paths in document order', () => {
    const before = { name: 'qa', rows: 'weave:///a/b/table/t1', config: { temperature: 0.2, stop: ['\n'] }, old: true };
    const after = { name: 'qa', rows: 'weave:///a/b/table/t2', config: { temperature: 0.7, stop: ['\n', '###'] }, description: 'v2' };
    expect(diffJson(before, after).entries).toEqual([
      { path: ['rows'], kind: 'changed', before: 'weave:///a/b/table/t1', after: 'weave:///a/b/table/t2' },
      { path: ['config', 'temperature'], kind: 'changed', before: 0.2, after: 0.7 },
      { path: ['config', 'stop', 1], kind: 'added', after: '###' },
      { path: ['old'], kind: 'removed', before: true },
      { path: ['description'], kind: 'added', after: 'v2' },
    ]);
  });

  it('reports a change of type once, at its path', () => {
    expect(diffJson({ a: { x: 1 } }, { a: [1] }).entries).toEqual([{ path: ['a'], kind: 'changed', before: { x: 1 }, after: [1] }]);
  });

  it('is empty for equal values, whatever the key order', () => {
    expect(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }).entries).toEqual([]);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
  });

  it('stops at the limit and says so', () => {
    const a = Array.from({ length: 50 }, (_, i) => i);
    const b = a.map((i) => i + 1);
    const diff = diffJson(a, b, { limit: 10 });
    expect(diff.entries).toHaveLength(10);
    expect(diff.truncated).toBe(true);
  });

  it('handles a changed root leaf', () => {
    expect(diffJson('x', 'y').entries).toEqual([{ path: [], kind: 'changed', before: 'x', after: 'y' }]);
  });
});
