/**
 * Server-side paging of a table's rows for the virtualized DataTable: only the pages under the
 * viewport are queried (one `/table/query` per 100 rows), the total comes from
 * `/table/query_stats`, and pages scrolled past are dropped by react-query's gc.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { TABLE_PAGE_SIZE, tableCountQueryOptions, tablePageQueryOptions, type TableRow, type TableSort } from './tableQueries.js';

/** What the table needs from the pager. */
export interface TablePages {
  rowCount: number;
  /** Total from query_stats, or null until it arrives. */
  total: number | null;
  getRow: (index: number) => TableRow | undefined;
  /** The first page, once loaded (columns are read from it). */
  firstPage: TableRow[] | undefined;
  isFetching: boolean;
  error: Error | null;
  retry: () => void;
  onRangeChange: (start: number, end: number) => void;
}

const pageOf = (index: number) => Math.floor(index / TABLE_PAGE_SIZE);

/** Paging and total for one table in one order. */
export function useTablePages({ projectId, digest, sort }: { projectId: string; digest: string; sort: TableSort | null }): TablePages {
  const [span, setSpan] = useState<[number, number]>([0, 0]);
  const pages = useMemo(() => Array.from({ length: span[1] - span[0] + 1 }, (_, i) => span[0] + i), [span]);
  const results = useQueries({ queries: pages.map((page) => tablePageQueryOptions({ projectId, digest, sort, page })) });
  const count = useQuery(tableCountQueryOptions({ projectId, digest }));
  const first = useQuery(tablePageQueryOptions({ projectId, digest, sort, page: 0 }));

  // The same array while its pages are the same objects: rows re-render only on new data.
  const stable = useRef<(TableRow[] | undefined)[]>([]);
  const data = results.map((r) => r.data);
  if (data.length !== stable.current.length || data.some((d, i) => d !== stable.current[i])) stable.current = data;
  const pageData = stable.current;

  const getRow = useCallback((index: number) => pageData[pageOf(index) - span[0]]?.[index % TABLE_PAGE_SIZE], [pageData, span]);
  const onRangeChange = useCallback((start: number, end: number) => {
    const next: [number, number] = [pageOf(start), pageOf(end)];
    setSpan((prev) => (prev[0] === next[0] && prev[1] === next[1] ? prev : next));
  }, []);

  const total = count.data ?? null;
  const failed = results.find((r) => r.error)?.error ?? count.error ?? null;
  return {
    // Until the count arrives, a short first page is the whole table.
    rowCount: total ?? first.data?.length ?? 0,
    total,
    getRow,
    firstPage: first.data,
    isFetching: count.isFetching || results.some((r) => r.isFetching),
    error: failed,
    retry: () => {
      for (const r of results) if (r.error) void r.refetch();
      if (count.error) void count.refetch();
    },
    onRangeChange,
  };
}
