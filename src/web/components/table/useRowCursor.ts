/**
 * A keyboard row cursor for tables and lists: ↑/↓ or j/k move it, Home/End and PageUp/PageDown
 * jump, Enter opens the row. The cursor row is the table's one Tab stop (roving tabindex) and
 * takes the browser focus when the keys move it, so the focus ring shows where it is and screen
 * readers read the row. With `pageKeys`, j/k pressed anywhere on the page (outside a text
 * field) bring the focus to the table first, so the list is one key away instead of many Tabs.
 *
 * Works with virtualized rows: `scrollToIndex` brings the row into the DOM, and the focus is
 * given on the first render that has it. Rows mark themselves with `data-row-index`.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { ListPlaceHandle } from './useListPlace.js';
import { usePlainListPlace } from './usePlainListPlace.js';

/** Options of useRowCursor. */
export interface RowCursorOptions {
  rowCount: number;
  /** The element holding the rows (the table's scroll container). */
  containerRef: RefObject<HTMLElement | null>;
  /**
   * Where the cursor starts (a row remembered from an earlier visit); default the first row.
   * `setCursor` moves it later without focus or scrolling (a place restored once rows arrive).
   */
  initial?: number;
  /** Enter on the cursor row. */
  onOpen?: (index: number) => void;
  /** Called whenever the cursor moves (to remember it, or to load more rows). */
  onMove?: (index: number) => void;
  /** Makes the row exist in the DOM (virtualized tables). */
  scrollToIndex?: (index: number) => void;
  /** Rows per PageUp/PageDown. */
  pageSize?: number;
  /** Let j/k on the page (outside inputs) focus the table. */
  pageKeys?: boolean;
  /**
   * A plain (not virtualized) list's place (`useListPlace`): cursor row and page scroll restored
   * on the way back, and the cursor row scrolled into view as it moves. DataTable keeps its own.
   */
  place?: ListPlaceHandle;
}

/** True when a key press belongs to a text field or a control that uses arrows itself. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.closest('[role="dialog"],[role="menu"]') !== null
  );
}

/** The cursor, key handling for the rows' container, and props for each row. */
export function useRowCursor(options: RowCursorOptions) {
  const { rowCount, containerRef, onOpen, scrollToIndex, pageSize = 10, pageKeys = false, place } = options;
  const initial = options.initial ?? place?.initial?.cursor ?? 0;
  const [cursor, setCursor] = useState(() => Math.max(0, initial));
  usePlainListPlace({ place, containerRef, rowCount, setCursor });
  const onMoveOption = options.onMove;
  const onMove = useCallback(
    (index: number) => {
      place?.save({ cursor: index });
      onMoveOption?.(index);
    },
    [place, onMoveOption],
  );
  const wantFocus = useRef(false);
  const current = rowCount === 0 ? -1 : Math.min(cursor, rowCount - 1);

  /** Focuses row `index` if it is rendered; true when it was. */
  const focusRow = useCallback(
    (index: number) => {
      const row = containerRef.current?.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
      if (!row) return false;
      if (!row.contains(document.activeElement)) row.focus({ preventScroll: true });
      // A plain list is not scrolled by scrollToIndex: bring the row into view here.
      if (!scrollToIndex) row.scrollIntoView({ block: 'nearest' });
      return true;
    },
    [containerRef, scrollToIndex],
  );

  const moveTo = useCallback(
    (index: number) => {
      if (rowCount === 0) return;
      const next = Math.max(0, Math.min(rowCount - 1, index));
      setCursor(next);
      scrollToIndex?.(next);
      onMove(next);
      // A row already rendered takes the focus now (the cursor may not have moved at all);
      // one scrolled into view takes it on the render that brings it.
      wantFocus.current = !focusRow(next);
    },
    [rowCount, scrollToIndex, onMove, focusRow],
  );

  // Give the focus to the cursor row once it is rendered (it may have been virtualized away).
  useEffect(() => {
    if (wantFocus.current && current >= 0 && focusRow(current)) wantFocus.current = false;
  });

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target) || current < 0) return;
      const steps: Record<string, number> = {
        ArrowDown: 1,
        j: 1,
        ArrowUp: -1,
        k: -1,
        PageDown: pageSize,
        PageUp: -pageSize,
        Home: -Infinity,
        End: Infinity,
      };
      const step = steps[e.key];
      if (step !== undefined) {
        e.preventDefault();
        moveTo(step === -Infinity ? 0 : step === Infinity ? rowCount - 1 : current + step);
      } else if (e.key === 'Enter' && (e.target as HTMLElement).closest('a,button') === null) {
        e.preventDefault();
        onOpen?.(current);
      }
    },
    [current, moveTo, onOpen, pageSize, rowCount],
  );

  // j/k anywhere on the page start keyboard use of the table. A layout effect, so a key pressed
  // the moment the rows show is not lost (docs/dashboard.md "Keys and layout").
  useLayoutEffect(() => {
    if (!pageKeys) return;
    const onPageKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'j' && e.key !== 'k') return;
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || isTypingTarget(e.target)) return;
      if (containerRef.current?.contains(e.target as Node)) return;
      e.preventDefault();
      moveTo(current < 0 ? 0 : current);
    };
    window.addEventListener('keydown', onPageKey);
    return () => window.removeEventListener('keydown', onPageKey);
  }, [pageKeys, moveTo, current, containerRef]);

  /** A row (or something inside it) got the focus by click or Tab: the cursor follows. */
  const onRowFocus = useCallback(
    (index: number) => {
      setCursor(index);
      onMove(index);
    },
    [onMove],
  );

  /** Tabbing into the container when the cursor row is not rendered: bring it back. */
  const onContainerFocus = useCallback(
    (e: FocusEvent<HTMLElement>) => {
      if (e.target === e.currentTarget && current >= 0) moveTo(current);
    },
    [current, moveTo],
  );

  /** Props for row `index` of a plain (not virtualized) table or list. */
  const rowProps = useCallback(
    (index: number) => ({
      'data-row-index': index,
      'data-cursor': index === current ? 'true' : undefined,
      tabIndex: index === current ? 0 : -1,
      onFocus: () => onRowFocus(index),
    }),
    [current, onRowFocus],
  );

  return { cursor: current, onKeyDown, onRowFocus, onContainerFocus, moveTo, rowProps, setCursor };
}
