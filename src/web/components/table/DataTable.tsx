/**
 * The dashboard's data table: TanStack Table for columns, sorting and selection state, TanStack
 * Virtual for rows. Rows are addressed by index and fetched by the caller (`getRow`), so a table
 * can span 100,000 server-side rows while only the visible ones exist in the DOM.
 * Sorting is server-side: the table only reports the wanted order.
 */
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type Row,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, type ReactNode, type RefObject } from 'react';

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
}

/** Virtualized, server-sorted table. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rowCount, getRow, getRowId, scrollRef, rowHeight = 32, onRangeChange } = props;
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (last >= first) onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

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
    state: { sorting: props.sorting, rowSelection: props.rowSelection ?? {} },
    onSortingChange: props.onSortingChange,
    onRowSelectionChange: props.onRowSelectionChange,
    enableRowSelection: props.onRowSelectionChange !== undefined,
    manualSorting: true,
    enableMultiSort: props.enableMultiSort ?? false,
    enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(),
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  // Fixed column widths, then an empty track that takes the leftover width.
  const template = `${headers.map((h) => `${h.getSize()}px`).join(' ')} 1fr`;
  const minWidth = headers.reduce((w, h) => w + h.getSize(), 0);
  const rowsById = new Map(table.getRowModel().rows.map((r) => [r.id, r]));

  return (
    <div className="data-table" role="table" aria-label={props.ariaLabel} aria-rowcount={rowCount + 1} ref={scrollRef}>
      <div className="dt-head" role="rowgroup" style={{ gridTemplateColumns: template, minWidth }}>
        <div className="dt-row dt-header-row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
          {headers.map((header) => {
            const sortable = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            const order = sorted && props.sorting.length > 1 ? header.column.getSortIndex() + 1 : null;
            return (
              <div
                key={header.id}
                role="columnheader"
                className={`dt-th ${header.column.columnDef.meta?.align === 'right' ? 'right' : ''}`}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : sortable ? 'none' : undefined}
              >
                {sortable ? (
                  <button type="button" className="dt-sort" onClick={header.column.getToggleSortingHandler()}>
                    {flexRender(header.column.columnDef.header, header.getContext())}
                    <span className="dt-sort-icon" aria-hidden="true">
                      {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                    </span>
                    {order !== null && (
                      <span className="dt-sort-order" aria-hidden="true" title={`Sort priority ${order}`}>
                        {order}
                      </span>
                    )}
                  </button>
                ) : (
                  flexRender(header.column.columnDef.header, header.getContext())
                )}
              </div>
            );
          })}
        </div>
      </div>
      {rowCount === 0 ? (
        props.empty
      ) : (
        <div className="dt-body" role="rowgroup" style={{ height: virtualizer.getTotalSize(), minWidth }}>
          {items.map((item) => {
            const data = getRow(item.index);
            const row = data === undefined ? undefined : rowsById.get(getRowId(data));
            return (
              <DataRow
                key={row ? row.id : `placeholder-${item.index}`}
                row={row}
                index={item.index}
                top={item.start}
                height={rowHeight}
                template={template}
                columns={columns}
                selected={row?.getIsSelected() ?? false}
                onRowClick={props.onRowClick}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}

interface DataRowProps<T> {
  row: Row<T> | undefined;
  index: number;
  top: number;
  height: number;
  template: string;
  /** Only for memo comparison: cells change when the column set does. */
  columns: unknown;
  selected: boolean;
  onRowClick?: (row: T) => void;
}

/** Skips work for rows whose data, position and selection did not change while scrolling. */
const DataRow = memo(
  function DataRow<T>({ row, index, top, height, template, selected, onRowClick }: DataRowProps<T>) {
    const style = { transform: `translateY(${top}px)`, height, gridTemplateColumns: template };
    if (!row) {
      return (
        <div className="dt-row placeholder" role="row" aria-rowindex={index + 2} aria-busy="true" style={style}>
          <div className="dt-td" role="cell">
            <span className="skeleton" />
          </div>
        </div>
      );
    }
    return (
      <div
        className={`dt-row${selected ? ' selected' : ''}${onRowClick ? ' clickable' : ''}`}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected || undefined}
        style={style}
        onClick={(e) => {
          // Links, buttons and checkboxes inside a row keep their own meaning.
          if ((e.target as HTMLElement).closest('a,button,input,label')) return;
          onRowClick?.(row.original);
        }}
      >
        {row.getVisibleCells().map((cell) => (
          <div key={cell.id} role="cell" className={`dt-td ${cell.column.columnDef.meta?.align === 'right' ? 'right' : ''}`}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </div>
        ))}
      </div>
    );
  },
  (a, b) =>
    a.row?.original === b.row?.original &&
    a.top === b.top &&
    a.selected === b.selected &&
    a.template === b.template &&
    a.columns === b.columns &&
    a.onRowClick === b.onRowClick,
) as <T>(props: DataRowProps<T>) => ReactNode;
