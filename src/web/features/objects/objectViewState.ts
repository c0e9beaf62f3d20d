/**
 * An object page's view lives in the URL: `?version=<digest|v3|alias>&tab=rows&row=<digest>`.
 * `version` absent means latest; `path` holds a ref's extra edges (`attr/rows/index/3`) to open
 * in the value; `against` is the other side of a comparison; `sort` orders a table's rows.
 */
import { useUrlView, type UrlViewUpdateOptions } from '../../lib/useUrlView.js';
import type { TableSort } from './tables/tableQueries.js';

/** An object page's view. */
export interface ObjectViewState {
  version: string | null;
  /** `value`, `code`, `compare`, or `table:<field label>`; null picks the page's default. */
  tab: string | null;
  against: string | null;
  path: string | null;
  row: string | null;
  sort: TableSort | null;
}

const KEYS = ['version', 'tab', 'against', 'path', 'row', 'sort'] as const;

/** `answer:desc` → a table sort; anything else → none. */
export function parseTableSort(raw: string | null): TableSort | null {
  const m = /^(.+):(asc|desc)$/.exec(raw ?? '');
  return m ? { field: m[1]!, direction: m[2] as 'asc' | 'desc' } : null;
}

/** Reads the view from search params. */
export function readObjectView(params: URLSearchParams): ObjectViewState {
  const get = (k: string) => params.get(k) || null;
  return {
    version: get('version'),
    tab: get('tab'),
    against: get('against'),
    path: get('path'),
    row: get('row'),
    sort: parseTableSort(get('sort')),
  };
}

/** Writes a view into search params. */
export function writeObjectView(view: ObjectViewState, params = new URLSearchParams()): URLSearchParams {
  for (const key of KEYS) {
    const value = key === 'sort' ? (view.sort ? `${view.sort.field}:${view.sort.direction}` : null) : view[key];
    if (value) params.set(key, value);
    else params.delete(key);
  }
  return params;
}

/** The view plus an updater; `push` makes a history entry (a version pick), else it replaces. */
export function useObjectView(): [ObjectViewState, (patch: Partial<ObjectViewState>, options?: UrlViewUpdateOptions) => void] {
  return useUrlView(readObjectView, writeObjectView);
}
