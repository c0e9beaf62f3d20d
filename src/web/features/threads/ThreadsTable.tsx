/**
 * The threads table: virtualized rows loaded page by page as they scroll into view,
 * server-side multi-column sorting kept in the URL, a keyboard row cursor (j/k, Enter), and
 * the scroll position and cursor row remembered for the way back from a thread.
 */
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { OnChangeFn, RowSelectionState, SortingState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { DataTable } from '../../components/table/DataTable.js';
import { useListPlace } from '../../components/table/useListPlace.js';
import { useColumnChoice } from '../../components/table/columnChoice.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { HIDDEN_THREAD_COLUMNS, isSortColumn, threadColumns, threadSelectColumn } from './threadColumns.js';
import type { Thread, ThreadsPage } from './threadQueries.js';
import { rememberThreadsList } from './threadsMemory.js';
import type { ThreadSort } from './threadsViewState.js';
import { TablePanel } from '../../components/table/TablePanel.js';

/** Rows from the end at which the next page is asked for. */
const PREFETCH_ROWS = 30;

/** Props of ThreadsTable. */
export interface ThreadsTableProps {
  list: UseInfiniteQueryResult<InfiniteData<ThreadsPage>, Error>;
  projectId: string;
  sort: ThreadSort[];
  onSortChange: (sort: ThreadSort[]) => void;
  empty: ReactNode;
  /** Checkbox selection (for "Add to queue"); without it the table has no checkbox column. */
  rowSelection?: RowSelectionState;
  onRowSelectionChange?: OnChangeFn<RowSelectionState>;
}

const getRowId = (t: Thread) => t.thread_id;

/** Threads table. */
export function ThreadsTable({ list, projectId, sort, onSortChange, empty, rowSelection, onRowSelectionChange }: ThreadsTableProps) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const { entity, project } = useParams();
  const scrollRef = useRef<HTMLDivElement>(null);

  const columns = useMemo(() => (onRowSelectionChange ? [threadSelectColumn, ...threadColumns] : threadColumns), [onRowSelectionChange]);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);

  // Back on the list it was left from: same scroll, cursor on the thread last opened.
  const place = useListPlace('threads');
  const columnChoice = useColumnChoice('threads', HIDDEN_THREAD_COLUMNS);
  useEffect(() => rememberThreadsList(projectId, { search }), [projectId, search]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  // One placeholder row at the end while more exist: it shows as loading when scrolled to.
  const rowCount = rows.length + (hasNextPage ? 1 : 0);
  const getRow = useCallback((index: number) => rows[index], [rows]);

  const onRangeChange = useCallback(
    (_start: number, end: number) => {
      if (hasNextPage && !isFetchingNextPage && end >= rows.length - PREFETCH_ROWS) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length],
  );

  const sorting: SortingState = useMemo(() => sort.map((s) => ({ id: s.field, desc: s.direction === 'desc' })), [sort]);
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const keys = next.flatMap((s): ThreadSort[] => (isSortColumn(s.id) ? [{ field: s.id, direction: s.desc ? 'desc' : 'asc' }] : []));
      if (keys.length) onSortChange(keys);
    },
    [sorting, onSortChange],
  );

  const onRowClick = useCallback(
    (t: Thread) => {
      void navigate(`/${entity}/${project}/threads/${encodeURIComponent(t.thread_id)}`, { state: { threadsSearch: search } });
    },
    [navigate, entity, project, search],
  );

  return (
    <TablePanel>
      {list.error && <ErrorState error={list.error} onRetry={() => void list.refetch()} compact />}
      <DataTable
        ariaLabel="Threads"
        columns={columns}
        rowCount={rowCount}
        getRow={getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        sorting={sorting}
        onSortingChange={onSortingChange}
        rowSelection={rowSelection}
        onRowSelectionChange={onRowSelectionChange}
        enableMultiSort
        onRowClick={onRowClick}
        onRangeChange={onRangeChange}
        // A failed request is not an empty result: the error above says what happened.
        empty={list.error ? null : empty}
        place={place}
        columnChoice={columnChoice}
        pageKeys
      />
    </TablePanel>
  );
}
