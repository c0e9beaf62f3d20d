/**
 * The objects list view lives in the URL, so a copied link reproduces it:
 * `?kind=dataset&q=qa&sort=versions:desc`. Defaults (all kinds, no search, most recently
 * updated first) are left out to keep links short.
 */
import { choice, sortKey, text, urlState } from '../../lib/urlState.js';
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

/** Reads and writes the view in search params, omitting defaults; unknown values read as defaults. */
export const { read: readObjectsView, write: writeObjectsView } = urlState<ObjectsViewState>({
  category: choice(
    'kind',
    OBJECT_CATEGORIES.map((c) => c.id),
    'all',
  ),
  search: text('q', ''),
  sort: sortKey('sort', { field: 'updated', direction: 'desc' }, OBJECT_SORT_FIELDS),
});

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useObjectsView(): [ObjectsViewState, (patch: Partial<ObjectsViewState>) => void] {
  return useUrlView(readObjectsView, writeObjectsView);
}
