/** The table's rows: one absolutely placed row per index of the rendered block. */
import { flexRender, type ColumnDef, type Row, type RowSelectionState } from '@tanstack/react-table';
import { memo, type ReactNode } from 'react';
import './table.css';

/** Body props. */
export interface DataTableBodyProps<T> {
  first: number;
  last: number;
  getRow: (index: number) => T | undefined;
  getRowId: (row: T) => string;
  rowsById: ReadonlyMap<string, Row<T>>;
  rowCount: number;
  rowHeight: number;
  template: string;
  minWidth: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  rowSelection: RowSelectionState | undefined;
  onRowClick?: (row: T) => void;
  /** Index of the keyboard cursor row (-1: none). */
  cursor: number;
  /** A row or something in it got the focus. */
  onRowFocus: (index: number) => void;
}

/** Memoized body; rows still loading show as placeholders. */
export const DataTableBody = memo(function DataTableBody<T>(props: DataTableBodyProps<T>) {
  const { first, last, getRow, getRowId, rowsById, rowHeight, template, columns, rowSelection, onRowClick, cursor, onRowFocus } = props;
  const rows: ReactNode[] = [];
  for (let index = first; index <= last; index++) {
    const data = getRow(index);
    const row = data === undefined ? undefined : rowsById.get(getRowId(data));
    rows.push(
      <DataRow
        key={row ? row.id : `placeholder-${index}`}
        row={row}
        index={index}
        top={index * rowHeight}
        height={rowHeight}
        template={template}
        columns={columns}
        selected={row ? (rowSelection?.[row.id] ?? false) : false}
        onRowClick={onRowClick}
        isCursor={index === cursor}
        onRowFocus={onRowFocus}
      />,
    );
  }
  return (
    <div className="dt-body" role="rowgroup" style={{ height: props.rowCount * rowHeight, minWidth: props.minWidth }}>
      {rows}
    </div>
  );
}) as <T>(props: DataTableBodyProps<T>) => ReactNode;

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
  isCursor: boolean;
  onRowFocus: (index: number) => void;
}

/** Skips work for rows whose data, position and selection did not change while scrolling. */
const DataRow = memo(
  function DataRow<T>({ row, index, top, height, template, selected, onRowClick, isCursor, onRowFocus }: DataRowProps<T>) {
    const style = { transform: `translateY(${top}px)`, height, gridTemplateColumns: template };
    // Roving tab stop: only the cursor row is reachable with Tab; the focus ring marks it.
    const cursorProps = {
      'data-row-index': index,
      tabIndex: isCursor ? 0 : -1,
      onFocus: () => onRowFocus(index),
    };
    if (!row) {
      return (
        <div
          className={`dt-row placeholder${isCursor ? ' cursor' : ''}`}
          role="row"
          aria-rowindex={index + 2}
          aria-busy="true"
          style={style}
          {...cursorProps}
        >
          <div className="dt-td" role="cell">
            <span className="skeleton" />
          </div>
        </div>
      );
    }
    return (
      <div
        className={`dt-row${selected ? ' selected' : ''}${onRowClick ? ' clickable' : ''}${isCursor ? ' cursor' : ''}`}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected || undefined}
        style={style}
        {...cursorProps}
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
    a.onRowClick === b.onRowClick &&
    a.isCursor === b.isCursor &&
    a.onRowFocus === b.onRowFocus,
) as <T>(props: DataRowProps<T>) => ReactNode;
