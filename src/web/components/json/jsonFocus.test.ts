import { describe, expect, it } from 'vitest';
import { focusJsonPath, jsonRowId } from './jsonFocus.js';
import { flattenJson } from './jsonTree.js';

describe('focusJsonPath', () => {
  it('opens every container on the way and names the target row', () => {
    const value = { a: { 'b/c': [10, 20, { d: 1 }] } };
    const focus = focusJsonPath(value, ['a', 'b/c', 2, 'd'])!;
    expect(focus.rowId).toBe(jsonRowId(['a', 'b/c', 2, 'd']));
    const rows = flattenJson({ value, expanded: new Set(focus.expanded), limits: new Map(focus.limits) });
    expect(rows.some((r) => r.id === focus.rowId)).toBe(true);
  });

  it('raises the cap of a big list so a far item has a row', () => {
    const value = { items: Array.from({ length: 5000 }, (_, i) => i) };
    const focus = focusJsonPath(value, ['items', 4321])!;
    const rows = flattenJson({ value, expanded: new Set(focus.expanded), limits: new Map(focus.limits) });
    expect(rows.find((r) => r.id === focus.rowId)?.value).toBe(4321);
  });

  it('stops where the path stops existing, and is null for an empty path', () => {
    expect(focusJsonPath({ a: 1 }, ['a', 'b'])!.rowId).toBe('$/a');
    expect(focusJsonPath({ a: 1 }, [])).toBeNull();
    expect(focusJsonPath({ a: 1 }, ['zzz'])).toBeNull();
  });
});
