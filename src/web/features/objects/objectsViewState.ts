/**
 * The objects list view lives in the URL, so a copied link reproduces it:
 * `?kind=dataset&q=qa&sort=versions:desc`. Defaults (all kinds, no search, most recently
 * updated first) are left out to keep links short.
 */
import { useUrlView } from '../../lib/useUrlView.js';
import { OBJECT_CATEGORIES, type ObjectCategory } from './objectFields.js';

/** Columns the list sorts by (in the browser: the list is one request). */
export const OBJECT_SORT_FIELDS = ['name', 'type', 'versions', 'updated'] as const;

/** A list sort column. */
export type ObjectSortField = (typeof OBJECT_SORT_FIELDS)[number];

/** The objects list as the URL describes it. */
export interface ObjectsViewState {
  category: ObjectCategory;
  search: string;
  sort: { field: ObjectSortField; direction: 'asc' | 'desc' };
}

const DEFAULT_SORT = 'updated:desc';

/** Reads the view from search params; unknown values fall back to defaults. */
export function readObjectsView(params: URLSearchParams): ObjectsViewState {
  const kind = params.get('kind');
  const category = OBJECT_CATEGORIES.find((c) => c.id === kind)?.id ?? 'all';
  const m = /^(\w+):(asc|desc)$/.exec(params.get('sort') ?? DEFAULT_SORT);
  const field = (OBJECT_SORT_FIELDS as readonly string[]).includes(m?.[1] ?? '') ? (m![1] as ObjectSortField) : 'updated';
  return { category, search: params.get('q') ?? '', sort: { field, direction: m?.[1] === field ? (m[2] as 'asc' | 'desc') : 'desc' } };
}

/** Writes a view into search params, omitting defaults. */
export function writeObjectsView(view: ObjectsViewState, params = new URLSearchParams()): URLSearchParams {
  const set = (key: string, value: string | null) => (value ? params.set(key, value) : params.delete(key));
  const sort = `${view.sort.field}:${view.sort.direction}`;
  set('kind', view.category === 'all' ? null : view.category);
  set('q', view.search || null);
  set('sort', sort === DEFAULT_SORT ? null : sort);
  return params;
}

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useObjectsView(): [ObjectsViewState, (patch: Partial<ObjectsViewState>) => void] {
  return useUrlView(readObjectsView, writeObjectsView);
}
