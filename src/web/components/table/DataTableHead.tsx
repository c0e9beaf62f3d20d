/** The table's header row: column titles and server-side sort buttons. */
import { flexRender, type Header, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { memo, type ReactNode } from 'react';

/** Header props; `sorting` and `rowSelection` are there so the memo sees what headers read. */
export interface DataTableHeadProps<T> {
  headers: Header<T, unknown>[];
  sorting: SortingState;
  rowSelection: RowSelectionState | undefined;
  template: string;
  minWidth: number;
}

/** Memoized header row. */
export const DataTableHead = memo(function DataTableHead<T>({ headers, sorting, template, minWidth }: DataTableHeadProps<T>) {
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
            </div>
          );
        })}
      </div>
    </div>
  );
}) as <T>(props: DataTableHeadProps<T>) => ReactNode;
