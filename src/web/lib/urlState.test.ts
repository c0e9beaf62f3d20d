import { describe, expect, it } from 'vitest';
import { choice, custom, flag, list, number, optionalSortKey, sortKey, sortKeys, text, urlState } from './urlState.js';

interface View {
  q: string;
  owner: string | null;
  kind: 'all' | 'op' | 'dataset';
  roots: boolean;
  live: boolean;
  below: number | null;
  ids: string[];
  sort: { field: 'name' | 'updated'; direction: 'asc' | 'desc' };
  order: { field: string; direction: 'asc' | 'desc' } | null;
  keys: { field: 'a' | 'b' | 'c'; direction: 'asc' | 'desc' }[];
  json: number[];
}

const state = urlState<View>({
  q: text('q', ''),
  owner: text('owner'),
  kind: choice('kind', ['all', 'op', 'dataset'], 'all'),
  roots: flag('roots', true),
  live: flag('live'),
  below: number('below'),
  ids: list('ids'),
  sort: sortKey('sort', { field: 'updated', direction: 'desc' }, ['name', 'updated']),
  order: optionalSortKey('order'),
  keys: sortKeys('keys', [{ field: 'a', direction: 'desc' }], ['a', 'b', 'c']),
  json: custom(
    'json',
    (raw) => (raw ? (JSON.parse(raw) as number[]) : []),
    (v) => (v.length ? JSON.stringify(v) : null),
  ),
});

const DEFAULTS: View = {
  q: '',
  owner: null,
  kind: 'all',
  roots: true,
  live: false,
  below: null,
  ids: [],
  sort: { field: 'updated', direction: 'desc' },
  order: null,
  keys: [{ field: 'a', direction: 'desc' }],
  json: [],
};

const read = (search: string) => {
  const problems: string[] = [];
  return { view: state.read(new URLSearchParams(search), problems), problems };
};

describe('urlState', () => {
  it('reads an empty URL as the defaults and writes the defaults as an empty URL', () => {
    expect(read('')).toEqual({ view: DEFAULTS, problems: [] });
    expect(state.write(DEFAULTS).toString()).toBe('');
  });

  it('round-trips every kind of field', () => {
    const view: View = {
      q: 'refund & more',
      owner: 'ana',
      kind: 'dataset',
      roots: false,
      live: true,
      below: 0.5,
      ids: ['t1', 't2'],
      sort: { field: 'name', direction: 'asc' },
      order: { field: 'scores.x:y', direction: 'desc' },
      keys: [
        { field: 'b', direction: 'asc' },
        { field: 'a', direction: 'desc' },
      ],
      json: [1, 2],
    };
    const written = state.write(view);
    expect(read(written.toString())).toEqual({ view, problems: [] });
    // And the same text back: reading then writing a link changes nothing.
    expect(state.write(read(written.toString()).view).toString()).toBe(written.toString());
  });

  it('keeps params it does not own and removes its own when they return to the default', () => {
    const params = new URLSearchParams('other=1&kind=op&live=1');
    state.write({ ...DEFAULTS }, params);
    expect(params.toString()).toBe('other=1');
  });

  it('reads hand-edited values as the defaults instead of throwing', () => {
    const { view, problems } = read(
      'q=&owner=&kind=table&roots=maybe&live=yes&below=abc&ids=,,&sort=color:up&order=nope&keys=z:asc,b:sideways&json={broken',
    );
    expect(view).toEqual({ ...DEFAULTS, roots: true });
    // The multi-sort reports the parts it dropped; a parser that throws is reported too.
    expect(problems).toEqual(['keys “z:asc”', 'keys “b:sideways”', 'json “{broken”']);
  });

  it('reads a field of the wrong kind of text as its default', () => {
    expect(read('sort=updated:asc:extra').view.sort).toEqual(DEFAULTS.sort);
    expect(read('below=Infinity').view.below).toBeNull();
    expect(read('below=%20').view.below).toBeNull();
    expect(read('roots=0').view.roots).toBe(false);
    expect(read('live=0').view.live).toBe(false);
  });

  it('trims, de-duplicates and drops empty list items, and keeps a repeated sort field once', () => {
    expect(read('ids=%20a%20,b,,a').view.ids).toEqual(['a', 'b']);
    expect(read('keys=b:asc,b:desc,c:desc').view.keys).toEqual([
      { field: 'b', direction: 'asc' },
      { field: 'c', direction: 'desc' },
    ]);
  });

  it('leaves a value out when it equals the default, but writes a different one', () => {
    expect(state.write({ ...DEFAULTS, sort: { field: 'updated', direction: 'asc' } }).toString()).toBe('sort=updated%3Aasc');
    expect(state.write({ ...DEFAULTS, roots: false }).toString()).toBe('roots=0');
    expect(state.write({ ...DEFAULTS, q: '' }).toString()).toBe('');
  });
});
