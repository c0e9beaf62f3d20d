/** The table's header row: column titles and server-side sort buttons. */
import { flexRender, type Header, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { memo, type ReactNode } from 'react';
import './table.css';

/** Header props; `sorting` and `rowSelection` are there so the memo sees what headers read. */
export interface DataTableHeadProps<T> {
  headers: Header<T, unknown>[];
  sorting: SortingState;
  rowSelection: RowSelectionState | undefined;
  template: string;
  minWidth: number;
  /** The column chooser, in the last track; null for a table without one. */
  chooser?: ReactNode;
}

/** Width keys move a column edge by this many pixels. */
const RESIZE_STEP = 16;

/** A column's right edge: drag it, or focus it and press ←/→, to change the column's width. */
function ResizeHandle<T>({ header }: { header: Header<T, unknown> }) {
  const column = header.column;
  const label = typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id;
  return (
    <span
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${label}`}
      aria-valuenow={column.getSize()}
      tabIndex={0}
      className={`dt-resize${column.getIsResizing() ? ' active' : ''}`}
      onPointerDown={header.getResizeHandler()}
      onDoubleClick={() => column.resetSize()}
      onKeyDown={(e) => {
        const by = e.key === 'ArrowRight' ? RESIZE_STEP : e.key === 'ArrowLeft' ? -RESIZE_STEP : 0;
        if (!by) return;
        e.preventDefault();
        header.getContext().table.setColumnSizing((old) => ({ ...old, [column.id]: Math.max(40, column.getSize() + by) }));
      }}
    />
  );
}

/** Memoized header row. */
export const DataTableHead = memo(function DataTableHead<T>({ headers, sorting, template, minWidth, chooser }: DataTableHeadProps<T>) {
  return (
    <div className="dt-head" role="rowgroup" style={{ gridTemplateColumns: template, minWidth }}>
      <div className="dt-row dt-header-row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
        {headers.map((header) => {
          const sortable = header.column.getCanSort();
          const sorted = header.column.getIsSorted();
          const order = sorted && sorting.length > 1 ? header.column.getSortIndex() + 1 : null;
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
              {header.column.getCanResize() && <ResizeHandle header={header} />}
            </div>
          );
        })}
        {chooser && <div className="dt-th dt-chooser">{chooser}</div>}
      </div>
    </div>
  );
}) as <T>(props: DataTableHeadProps<T>) => ReactNode;
