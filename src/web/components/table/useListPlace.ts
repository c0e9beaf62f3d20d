/**
 * The place-keeping handle a list page gives its DataTable (`place` prop): the place remembered
 * for this list at the current URL, and a way to remember a new one. DataTable restores it once
 * its rows are there and keeps it up to date while scrolling and moving the cursor.
 */
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { listPlaceKey, readListPlace, writeListPlace, type ListPlace } from './listPlace.js';

/** What DataTable needs to keep a list's place. */
export interface ListPlaceHandle {
  /** The place remembered when the list was shown. */
  initial: ListPlace | undefined;
  save: (patch: Partial<ListPlace>) => void;
}

/** The place of list `name` (one per page is 'list' enough; it tells apart tables of one page). */
export function useListPlace(name: string): ListPlaceHandle {
  const { pathname, search } = useLocation();
  const key = listPlaceKey(name, pathname, search);
  return useMemo(() => ({ initial: readListPlace(key), save: (patch) => writeListPlace(key, patch) }), [key]);
}
