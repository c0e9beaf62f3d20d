/**
 * Place keeping (useListPlace) for plain, not virtualized lists with a row cursor (useRowCursor's
 * `place`): the page around the list scrolls, so its nearest scrolling ancestor's offset and the
 * cursor row are restored once the rows exist, with the cursor row in view. DataTable keeps its
 * own place (useKeptPlace). See docs/dashboard.md "Keys and layout".
 */
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { ListPlaceHandle } from './useListPlace.js';

/** The element that scrolls the list: its nearest ancestor with a vertical overflow. */
function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}

export interface PlainListPlaceOptions {
  place: ListPlaceHandle | undefined;
  containerRef: RefObject<HTMLElement | null>;
  rowCount: number;
  /** Puts the cursor on a row without focusing it. */
  setCursor: (index: number) => void;
}

/** Restores `place.initial` once the rows are there, then remembers the scroll offset. */
export function usePlainListPlace({ place, containerRef, rowCount, setCursor }: PlainListPlaceOptions): void {
  const pending = useRef(place?.initial);

  useLayoutEffect(() => {
    const p = pending.current;
    const list = containerRef.current;
    if (!p || !list || rowCount === 0) return;
    pending.current = undefined;
    const cursor = Math.min(p.cursor, rowCount - 1);
    setCursor(cursor);
    const scroller = scrollParent(list);
    if (scroller) scroller.scrollTop = p.scrollTop;
    list.querySelector(`[data-row-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  });

  const hasRows = rowCount > 0;
  useEffect(() => {
    const list = containerRef.current;
    const scroller = list && scrollParent(list);
    if (!scroller || !place || !hasRows) return;
    const onScroll = () => {
      if (!pending.current) place.save({ scrollTop: scroller.scrollTop });
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [place, containerRef, hasRows]);
}
