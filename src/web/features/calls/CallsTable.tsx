/** The calls table: columns from the view, rows paged from the server, sorting in the URL. */
import type { OnChangeFn, RowSelectionState, SortingState } from '@tanstack/react-table';
import { useCallback, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { DataTable } from '../../components/table/DataTable.js';
import { useListPlace } from '../../components/table/useListPlace.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { builtinColumns, columnIdOfSortField, pathColumn, selectColumn, sortFieldOf } from './callColumns.js';
import type { Call } from '../../entities/calls/callFields.js';
import type { CallsViewState, SortState } from '../../entities/calls/callsViewState.js';
import type { CallsPages } from './useCallsPages.js';
import { TablePanel } from '../../components/table/TablePanel.js';

/** Row height in px; fixed, so the virtualizer needs no measuring. */
export const ROW_HEIGHT = 32;

/** Props of CallsTable. */
export interface CallsTableProps {
  view: CallsViewState;
  pages: CallsPages;
  onSortChange: (sort: SortState) => void;
  rowSelection: RowSelectionState;
  onRowSelectionChange: OnChangeFn<RowSelectionState>;
  empty: ReactNode;
}

const getRowId = (call: Call) => call.id;

/** Calls table. */
export function CallsTable({ view, pages, onSortChange, rowSelection, onRowSelectionChange, empty }: CallsTableProps) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const { entity, project } = useParams();
  const scrollRef = useRef<HTMLDivElement>(null);
  const place = useListPlace('calls');

  const columns = useMemo(() => [selectColumn, ...view.columns.map((id) => builtinColumns[id]?.def ?? pathColumn(id))], [view.columns]);
  const sorting: SortingState = useMemo(
    () => [{ id: columnIdOfSortField(view.sort.field), desc: view.sort.direction === 'desc' }],
    [view.sort],
  );
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      const field = first ? sortFieldOf(first.id) : undefined;
      if (first && field) onSortChange({ field, direction: first.desc ? 'desc' : 'asc' });
    },
    [sorting, onSortChange],
  );
  const onRowClick = useCallback(
    // The trace page's "back to calls" link restores this view from `callsSearch`.
    (call: Call) => void navigate(`/${entity}/${project}/traces/${call.trace_id}?call=${call.id}`, { state: { callsSearch: search } }),
    [navigate, entity, project, search],
  );

  // After a live refresh added rows above the viewport, scroll by as many rows before the
  // browser paints, so the rows the person was reading stay where they were.
  const { generation, takeShift } = pages;
  useLayoutEffect(() => {
    const shift = takeShift();
    if (shift > 0 && scrollRef.current) scrollRef.current.scrollTop += shift * ROW_HEIGHT;
  }, [generation, takeShift]);

  return (
    <TablePanel>
      {pages.error && <ErrorState error={pages.error} onRetry={pages.retry} compact />}
      <DataTable
        ariaLabel="Calls"
        columns={columns}
        rowCount={pages.rowCount}
        getRow={pages.getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        place={place}
        rowHeight={ROW_HEIGHT}
        sorting={sorting}
        onSortingChange={onSortingChange}
        rowSelection={rowSelection}
        onRowSelectionChange={onRowSelectionChange}
        onRowClick={onRowClick}
        onRangeChange={pages.onRangeChange}
        empty={pages.error ? null : empty}
        pageKeys
      />
    </TablePanel>
  );
}
