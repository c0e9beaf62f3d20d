/**
 * An object page's view lives in the URL: `?version=<digest|v3|alias>&tab=rows&row=<digest>`.
 * `version` absent means latest; `path` holds a ref's extra edges (`attr/rows/index/3`) to open
 * in the value; `against` is the other side of a comparison; `sort` orders a table's rows.
 */
import { optionalSortKey, text, urlState } from '../../lib/urlState.js';
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

/** Reads and writes the view in search params. */
export const { read: readObjectView, write: writeObjectView } = urlState<ObjectViewState>({
  version: text('version'),
  tab: text('tab'),
  against: text('against'),
  path: text('path'),
  row: text('row'),
  sort: optionalSortKey('sort'),
});

/** The view plus an updater; `push` makes a history entry (a version pick), else it replaces. */
export function useObjectView(): [ObjectViewState, (patch: Partial<ObjectViewState>, options?: UrlViewUpdateOptions) => void] {
  return useUrlView(readObjectView, writeObjectView);
}
