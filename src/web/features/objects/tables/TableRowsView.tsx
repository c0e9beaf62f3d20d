/**
 * A table's rows (a dataset's `rows`, any table ref): virtualized and paged on the server,
 * sortable by a column on the server, a row's full value beside the table when one is picked.
 * A picked row that is not yet in view (a ref's `id/<row>`) is scrolled to once it is found.
 */
import { useQuery } from '@tanstack/react-query';
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { JsonViewer } from '../../../components/json/JsonViewer.js';
import { DataTable } from '../../../components/table/DataTable.js';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatInteger } from '../../../lib/format.js';
import { shortDigest } from '../../../lib/refs.js';
import { columnsFromRows } from './tableColumns.js';
import {
  TABLE_PAGE_SIZE,
  tableCountQueryOptions,
  tablePageQueryOptions,
  tableRowQueryOptions,
  type TableRow,
  type TableSort,
} from './tableQueries.js';
import { usePagedRows } from '../../../components/table/usePagedRows.js';
import '../objectPage.css';
import '../objects.css';

const ROW_HEIGHT = 32;
const getRowId = (r: TableRow) => `${r.original_index}:${r.digest}`;

/** Props: which table, its order and picked row (both from the URL), and how to change them. */
export interface TableRowsViewProps {
  projectId: string;
  digest: string;
  ariaLabel: string;
  sort: TableSort | null;
  onSortChange: (sort: TableSort | null) => void;
  selectedRow: string | null;
  onSelectRow: (rowDigest: string | null) => void;
}

/** Table rows view. */
export function TableRowsView({ projectId, digest, ariaLabel, sort, onSortChange, selectedRow, onSelectRow }: TableRowsViewProps) {
  const pages = usePagedRows({
    pageSize: TABLE_PAGE_SIZE,
    page: (page) => tablePageQueryOptions({ projectId, digest, sort, page }),
    count: tableCountQueryOptions({ projectId, digest }),
    countOf: (n) => n,
    keepFirstPage: true,
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => columnsFromRows(pages.firstPage ?? []), [pages.firstPage]);
  const picked = useQuery({ ...tableRowQueryOptions({ projectId, digest, rowDigest: selectedRow ?? '' }), enabled: selectedRow !== null });
  const pickedRow = selectedRow ? picked.data : null;

  // Scroll a picked row into view once (table order only: a sorted position is unknown).
  const scrolledTo = useRef<string | null>(null);
  const pickedIndex = pickedRow && !sort ? pickedRow.original_index : null;
  useEffect(() => {
    if (pickedIndex === null || pickedIndex === undefined || !scrollRef.current || scrolledTo.current === selectedRow) return;
    scrolledTo.current = selectedRow;
    const el = scrollRef.current;
    const top = pickedIndex * ROW_HEIGHT;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - ROW_HEIGHT * 2) el.scrollTop = Math.max(0, top - el.clientHeight / 3);
  }, [pickedIndex, selectedRow]);

  const sorting: SortingState = useMemo(() => (sort ? [{ id: sort.field, desc: sort.direction === 'desc' }] : []), [sort]);
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const first = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      onSortChange(first ? { field: first.id, direction: first.desc ? 'desc' : 'asc' } : null);
    },
    [sorting, onSortChange],
  );
  const rowSelection = useMemo(() => (pickedRow ? { [getRowId(pickedRow)]: true } : {}), [pickedRow]);
  const onRowClick = useCallback((r: TableRow) => onSelectRow(r.digest === selectedRow ? null : r.digest), [onSelectRow, selectedRow]);

  return (
    <div className="table-rows">
      <div className="table-rows-bar">
        <span className="muted" aria-live="polite">
          {pages.total !== null ? `${formatInteger(pages.total)} rows` : ''}
          {sort ? ` · sorted by ${sort.field} ${sort.direction === 'asc' ? '↑' : '↓'}` : ''}
        </span>
        {sort && (
          <button type="button" className="link-button" onClick={() => onSortChange(null)}>
            table order
          </button>
        )}
        {pages.isFetching && <Spinner label="Loading rows" />}
        <span className="spacer" />
        <span className="muted small">Click a row to see all of it</span>
      </div>
      {pages.error && <ErrorState error={pages.error} onRetry={pages.retry} compact />}
      <div className={pickedRow ? 'table-rows-body with-row' : 'table-rows-body'}>
        <div className="objects-table-wrap">
          {pages.firstPage === undefined && !pages.error ? (
            <div className="page-loading">
              <Spinner showLabel label="Loading rows" />
            </div>
          ) : (
            <DataTable
              ariaLabel={ariaLabel}
              columns={columns}
              rowCount={pages.rowCount}
              getRow={pages.getRow}
              getRowId={getRowId}
              scrollRef={scrollRef}
              rowHeight={ROW_HEIGHT}
              sorting={sorting}
              onSortingChange={onSortingChange}
              rowSelection={rowSelection}
              onRowClick={onRowClick}
              onRangeChange={pages.onRangeChange}
              empty={<div className="empty-state">This table has no rows.</div>}
            />
          )}
        </div>
        {selectedRow && (
          <aside className="row-panel" aria-label="Row">
            <header className="row">
              <h3>Row {pickedRow ? `#${formatInteger(pickedRow.original_index ?? 0)}` : ''}</h3>
              <span className="mono muted small" title={selectedRow}>
                {shortDigest(selectedRow)}
              </span>
              <span className="spacer" />
              <button type="button" className="button small ghost" aria-label="Close row" onClick={() => onSelectRow(null)}>
                ✕
              </button>
            </header>
            {picked.error ? (
              <ErrorState error={picked.error} compact />
            ) : picked.isPending ? (
              <Spinner label="Loading row" />
            ) : pickedRow === null ? (
              <p className="muted">This table has no row with digest {shortDigest(selectedRow)}.</p>
            ) : (
              <JsonViewer key={selectedRow} value={pickedRow?.val} maxHeight={2000} ariaLabel="Row value" />
            )}
          </aside>
        )}
      </div>
    </div>
  );
}
