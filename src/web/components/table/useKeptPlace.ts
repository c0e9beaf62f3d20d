/**
 * DataTable's side of place keeping (useListPlace): restores the remembered scroll offset and
 * cursor row once enough rows exist to show them, with the cursor row fully in view, then
 * remembers the offset as the table scrolls. See docs/dashboard.md "Keys and layout".
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { ListPlace } from './listPlace.js';
import type { ListPlaceHandle } from './useListPlace.js';

/** How far from its remembered index the cursor row is looked for by id. */
const ID_SEARCH = 500;

export interface KeptPlaceOptions<T> {
  place: ListPlaceHandle | undefined;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowCount: number;
  rowHeight: number;
  /** Height of the sticky header above the first row. */
  headerHeight: number;
  getRow: (index: number) => T | undefined;
  getRowId: (row: T) => string;
  /** Puts the cursor on a row without focusing or scrolling. */
  setCursor: (index: number) => void;
}

/** The row remembered by id, searched near its remembered index (rows may have moved). */
function findCursor<T>(place: ListPlace, rowCount: number, getRow: (i: number) => T | undefined, getRowId: (row: T) => string): number {
  const at = Math.min(place.cursor, rowCount - 1);
  const row = getRow(at);
  if (!place.cursorId || row === undefined || getRowId(row) === place.cursorId) return at;
  for (let d = 1; d <= ID_SEARCH; d++) {
    for (const i of [at + d, at - d]) {
      const r = i >= 0 && i < rowCount ? getRow(i) : undefined;
      if (r !== undefined && getRowId(r) === place.cursorId) return i;
    }
  }
  return at;
}

/** The scroll offset closest to `top` that shows row `index` whole, below the sticky header. */
export function offsetShowingRow(top: number, index: number, rowHeight: number, headerHeight: number, viewport: number): number {
  const rowTop = headerHeight + index * rowHeight;
  if (rowTop < top + headerHeight) return rowTop - headerHeight;
  if (rowTop + rowHeight > top + viewport) return rowTop + rowHeight - viewport;
  return top;
}

/** Restores `place.initial` once, then keeps `place` up to date with the scroll offset. */
export function useKeptPlace<T>(options: KeptPlaceOptions<T>): { cancelRestore: () => void } {
  const { place, virtualizer, scrollRef, rowCount, rowHeight, headerHeight, getRow, getRowId, setCursor } = options;
  const pending = useRef(place?.initial);

  // Every render until restored: the rows arrive from the cache at once, or page by page.
  useLayoutEffect(() => {
    const p = pending.current;
    const el = scrollRef.current;
    if (!p || !el || rowCount === 0) return;
    const viewport = el.clientHeight;
    const tallEnough = headerHeight + rowCount * rowHeight >= p.scrollTop + viewport;
    if (!tallEnough && rowCount <= p.cursor) return;
    pending.current = undefined;
    const cursor = findCursor(p, rowCount, getRow, getRowId);
    // Rows added above the cursor row since (a live refresh): keep it where it was on screen.
    const top = p.scrollTop + (cursor - Math.min(p.cursor, rowCount - 1)) * rowHeight;
    setCursor(cursor);
    virtualizer.scrollToOffset(Math.max(0, offsetShowingRow(top, cursor, rowHeight, headerHeight, viewport)));
  });

  const cancelRestore = useCallback(() => {
    pending.current = undefined;
  }, []);

  // Remember the offset as it changes (scroll events come once per frame), unless a restore is
  // still due; the person scrolling or pressing keys first cancels that restore.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !place) return;
    const onScroll = () => {
      if (!pending.current) place.save({ scrollTop: el.scrollTop });
    };
    const taken = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    el.addEventListener('scroll', onScroll, { passive: true });
    for (const type of taken) el.addEventListener(type, cancelRestore, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      for (const type of taken) el.removeEventListener(type, cancelRestore);
    };
  }, [place, scrollRef, cancelRestore]);

  return { cancelRestore };
}
