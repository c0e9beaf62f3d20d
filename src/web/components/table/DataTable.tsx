/**
 * The dashboard's data table: TanStack Table for columns, sorting and selection state, TanStack
 * Virtual for rows. Rows are addressed by index and fetched by the caller (`getRow`), so a table
 * can span 100,000 server-side rows while only the visible ones exist in the DOM.
 * Sorting is server-side: the table only reports the wanted order.
 */
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { DataTableBody } from './DataTableBody.js';
import { DataTableHead } from './DataTableHead.js';
import type { ColumnChoice } from './columnChoice.js';
import { ColumnsMenu } from './ColumnsMenu.js';
import type { ListPlaceHandle } from './useListPlace.js';
import { offsetShowingRow, useKeptPlace } from './useKeptPlace.js';
import { useRowCursor } from './useRowCursor.js';
import './table.css';

/** Rows are rendered in aligned blocks of this many. */
const BLOCK = 8;

/**
 * The rendered rows, widened to whole blocks: while scrolling, the set of rows in the DOM then
 * changes once every few rows instead of on every frame, so most frames are pure scrolling.
 */
function blockRange(range: Range): number[] {
  if (range.count === 0) return [];
  const start = Math.max(0, Math.floor((range.startIndex - range.overscan) / BLOCK) * BLOCK);
  const end = Math.min(range.count - 1, Math.ceil((range.endIndex + range.overscan + 1) / BLOCK) * BLOCK - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** Props of DataTable. */
export interface DataTableProps<T> {
  ariaLabel: string;
  // Column value types differ per column; TanStack itself types mixed column lists this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  rowCount: number;
  /** The row at an index, or undefined while its page loads (a placeholder row shows). */
  getRow: (index: number) => T | undefined;
  getRowId: (row: T) => string;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowHeight?: number;
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  /** Shift-click adds a column to the sort; headers then number their sort order. Default off. */
  enableMultiSort?: boolean;
  rowSelection?: RowSelectionState;
  onRowSelectionChange?: OnChangeFn<RowSelectionState>;
  onRowClick?: (row: T) => void;
  /** Called with the visible index range (inclusive) whenever it changes. */
  onRangeChange?: (start: number, end: number) => void;
  /** Shown instead of rows when rowCount is 0. */
  empty?: ReactNode;
  /** Columns get a drag handle (and ←/→ on it) to change their width. Default off. */
  enableColumnResizing?: boolean;
  /**
   * Where the list was left (`useListPlace`): scroll offset and cursor row are restored once the
   * rows are there and remembered as they change, for Back and links back to the list.
   */
  place?: ListPlaceHandle;
  /** Called when the keyboard cursor moves. */
  onCursorMove?: (index: number) => void;
  /** j/k anywhere on the page (outside inputs) move into the table: for a page's main list. */
  pageKeys?: boolean;
  /**
   * Shown and hidden columns (`useColumnChoice`): the header then ends in a "Columns" button.
   * Hidden columns still sort, so a link sorting by one keeps working.
   */
  columnChoice?: ColumnChoice;
}

/** Width of the header's last track, which holds the column chooser. */
const CHOOSER_WIDTH = 36;

/** Virtualized, server-sorted table. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rowCount, getRow, getRowId, scrollRef, rowHeight = 32, onRangeChange, place } = props;
  // The sticky header sits above the first row inside the scroll container: the virtualizer
  // places rows below it (scrollMargin) and scrolls a row into view below it (scrollPaddingStart).
  const [headerHeight, setHeaderHeight] = useState(rowHeight + 1);
  useLayoutEffect(() => {
    const head = scrollRef.current?.querySelector<HTMLElement>(':scope > .dt-head');
    if (head && head.offsetHeight > 0) setHeaderHeight(head.offsetHeight);
  }, [scrollRef]);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    rangeExtractor: blockRange,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (last >= first) onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  // The keyboard cursor: Enter opens a row as a click does.
  const { onRowClick, onCursorMove } = props;
  // Not the virtualizer's scrollToIndex: computed here from the DOM's own offset, it cannot act
  // on an offset the virtualizer has not read yet (just after a restore).
  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scrollRef.current;
      if (!el) return;
      const top = offsetShowingRow(el.scrollTop, index, rowHeight, headerHeight, el.clientHeight);
      if (top !== el.scrollTop) virtualizer.scrollToOffset(top);
    },
    [virtualizer, scrollRef, rowHeight, headerHeight],
  );
  const openRow = useCallback(
    (row: T) => {
      const el = scrollRef.current;
      if (el) place?.save({ scrollTop: el.scrollTop });
      onRowClick?.(row);
    },
    [onRowClick, place, scrollRef],
  );
  const onOpen = useCallback(
    (index: number) => {
      const row = getRow(index);
      if (row !== undefined) openRow(row);
    },
    [getRow, openRow],
  );
  const setCursorRef = useRef<(index: number) => void>(() => undefined);
  const { cancelRestore } = useKeptPlace({
    place,
    virtualizer,
    scrollRef,
    rowCount,
    rowHeight,
    headerHeight,
    getRow,
    getRowId,
    // The cursor is made below, and its hook needs this one's cancelRestore.
    setCursor: (index) => setCursorRef.current(index),
  });
  const onMove = useCallback(
    (index: number) => {
      cancelRestore();
      const row = getRow(index);
      place?.save({ cursor: index, cursorId: row === undefined ? null : getRowId(row) });
      onCursorMove?.(index);
    },
    [getRow, getRowId, place, onCursorMove, cancelRestore],
  );
  const cursor = useRowCursor({
    rowCount,
    containerRef: scrollRef,
    initial: place?.initial?.cursor,
    onOpen,
    onMove,
    scrollToIndex,
    pageSize: Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 320) - headerHeight) / rowHeight) - 1),
    pageKeys: props.pageKeys,
  });
  setCursorRef.current = cursor.setCursor;
  const cursorRendered = cursor.cursor >= first && cursor.cursor <= last;

  // Only the rows in view go through TanStack Table; rebuilt when the window or data moves.
  const windowRows = useMemo(() => {
    const rows: T[] = [];
    for (let i = first; i <= last; i++) {
      const row = getRow(i);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }, [first, last, getRow]);

  const table = useReactTable({
    data: windowRows,
    columns,
    getRowId: (row) => getRowId(row),
    state: { sorting: props.sorting, rowSelection: props.rowSelection ?? {}, columnVisibility: props.columnChoice?.visibility ?? {} },
    onSortingChange: props.onSortingChange,
    onRowSelectionChange: props.onRowSelectionChange,
    enableRowSelection: props.onRowSelectionChange !== undefined,
    manualSorting: true,
    enableMultiSort: props.enableMultiSort ?? false,
    enableSortingRemoval: false,
    // Widths live in the table's own state: resizing is a view preference, not a URL concern.
    enableColumnResizing: props.enableColumnResizing ?? false,
    columnResizeMode: 'onChange',
    getCoreRowModel: getCoreRowModel(),
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  // Fixed column widths, then an empty track that takes the leftover width (and the chooser).
  const choice = props.columnChoice;
  const lastTrack = choice ? `minmax(${CHOOSER_WIDTH}px, 1fr)` : '1fr';
  const template = `${headers.map((h) => `${h.getSize()}px`).join(' ')} ${lastTrack}`;
  const minWidth = headers.reduce((w, h) => w + h.getSize(), choice ? CHOOSER_WIDTH : 0);
  const allColumns = table.getAllLeafColumns();
  const chooser = useMemo(
    () => (choice ? <ColumnsMenu tableLabel={props.ariaLabel} columns={allColumns} setVisible={choice.setVisible} /> : null),
    // The column objects read visibility when rendered: rebuilt when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [choice?.visibility, choice?.setVisible, columns, props.ariaLabel],
  );
  const modelRows = table.getRowModel().rows;
  const rowsById = useMemo(() => new Map(modelRows.map((r) => [r.id, r])), [modelRows]);

  return (
    <div
      className="data-table"
      role="table"
      aria-label={props.ariaLabel}
      aria-rowcount={rowCount + 1}
      ref={scrollRef}
      // The cursor row is the Tab stop; the container only while that row is scrolled away.
      tabIndex={rowCount > 0 && !cursorRendered ? 0 : -1}
      onKeyDown={cursor.onKeyDown}
      onFocus={cursor.onContainerFocus}
    >
      {/* Both halves are memoized: the virtualizer re-renders this component on every scroll
          event, but rows only change when the rendered block, data, columns or selection do. */}
      <DataTableHead
        headers={headers}
        sorting={props.sorting}
        rowSelection={props.rowSelection}
        template={template}
        minWidth={minWidth}
        chooser={chooser}
      />
      {rowCount === 0 ? (
        props.empty
      ) : (
        <DataTableBody
          first={first}
          last={last}
          getRow={getRow}
          getRowId={getRowId}
          rowsById={rowsById}
          rowCount={rowCount}
          rowHeight={rowHeight}
          template={template}
          minWidth={minWidth}
          columns={columns}
          rowSelection={props.rowSelection}
          onRowClick={props.onRowClick ? openRow : undefined}
          cursor={cursor.cursor}
          onRowFocus={cursor.onRowFocus}
        />
      )}
    </div>
  );
}
