import { describe, expect, it } from 'vitest';
import { readObjectView, writeObjectView } from './objectViewState.js';
import { readObjectsView, writeObjectsView } from './objectsViewState.js';

describe('objects list view in the URL', () => {
  it('round-trips a kind, a search and a sort, leaving defaults out', () => {
    const view = { category: 'dataset' as const, search: 'qa', sort: { field: 'versions' as const, direction: 'asc' as const } };
    expect(readObjectsView(writeObjectsView(view))).toEqual(view);
    expect(writeObjectsView(readObjectsView(new URLSearchParams())).toString()).toBe('');
  });

  it('reads an unknown kind or sort column as the defaults', () => {
    expect(readObjectsView(new URLSearchParams('kind=table&sort=color:asc'))).toEqual({
      category: 'all',
      search: '',
      sort: { field: 'updated', direction: 'desc' },
    });
  });
});

describe('object page view in the URL', () => {
  it('round-trips every field and reads empty or unreadable ones as none', () => {
    const view = {
      version: 'v3',
      tab: 'table:rows',
      against: 'latest',
      path: 'attr/rows',
      row: 'abc',
      sort: { field: 'a.b', direction: 'desc' as const },
    };
    expect(readObjectView(writeObjectView(view))).toEqual(view);
    expect(readObjectView(new URLSearchParams('version=&sort=a.b:sideways'))).toEqual({
      version: null,
      tab: null,
      against: null,
      path: null,
      row: null,
      sort: null,
    });
  });
});
