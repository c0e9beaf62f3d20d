/**
 * Where each list was left: its scroll offset and the row under the keyboard cursor, per list and
 * per view (the page's path and URL search), kept in sessionStorage so Back, a "← List" link and
 * a reload of the tab all land on the same rows. See docs/dashboard.md "Keys and layout".
 */

/** A list's remembered place. */
export interface ListPlace {
  /** The table's scrollTop, in px. */
  scrollTop: number;
  /** Index of the cursor row. */
  cursor: number;
  /** Id of the cursor row: found again if rows were added above it meanwhile. */
  cursorId: string | null;
}

const STORAGE_KEY = 'weft.listPlaces';
/** Places kept; the oldest are dropped so the tab's storage stays small. */
const MAX_PLACES = 50;

/** The key of a list shown at a URL: `name` tells apart the tables of one page. */
export const listPlaceKey = (name: string, pathname: string, search: string) => `${name} ${pathname}${search}`;

// The storage's copy, read once; sessionStorage may be unavailable (private modes, quotas).
let places: Map<string, ListPlace> | null = null;

function load(): Map<string, ListPlace> {
  if (places) return places;
  places = new Map();
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (Array.isArray(stored)) for (const [key, place] of stored as [string, ListPlace][]) places.set(key, place);
  } catch {
    // Unreadable or unavailable: start empty.
  }
  return places;
}

/** The place remembered for a list, if any. */
export const readListPlace = (key: string): ListPlace | undefined => load().get(key);

/** Remembers (part of) a list's place; the list becomes the most recent one. */
export function writeListPlace(key: string, patch: Partial<ListPlace>): void {
  const all = load();
  const next = { scrollTop: 0, cursor: 0, cursorId: null, ...all.get(key), ...patch };
  all.delete(key);
  all.set(key, next);
  while (all.size > MAX_PLACES) all.delete(all.keys().next().value!);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...all]));
  } catch {
    // Kept in memory only.
  }
}
