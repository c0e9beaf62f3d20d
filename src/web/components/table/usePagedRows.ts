/**
 * Server-side paging for a virtualized DataTable: only the pages under the viewport are queried
 * (one request per `pageSize` rows), the total comes from a separate count query, and pages
 * scrolled past are dropped by react-query once nobody watches them. The calls table (with live
 * refresh on top, features/calls/useCallsPages.ts) and the Weave table viewer both page this way.
 */
import { keepPreviousData, useQueries, useQuery, type Query, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';

/** What the table needs from the pager. */
export interface PagedRows<Row> {
  rowCount: number;
  getRow: (index: number) => Row | undefined;
  /** Total from the count query, or null until it arrives. */
  total: number | null;
  /** The first page, when loaded (tables read their columns from it). */
  firstPage: Row[] | undefined;
  /** Some page under the viewport has arrived. */
  firstPageReady: boolean;
  isFetching: boolean;
  error: Error | null;
  retry: () => void;
  /** The table reports the rows it shows; the pages under them are queried. */
  onRangeChange: (start: number, end: number) => void;
  /** The rows last reported by `onRangeChange`. */
  range: { readonly current: readonly [number, number] };
}

export interface PagedRowsSource<Row, Count, PageKey extends QueryKey, CountKey extends QueryKey> {
  pageSize: number;
  /** The query of one page (0-based). */
  page: (index: number) => UseQueryOptions<Row[], Error, Row[], PageKey>;
  count: UseQueryOptions<Count, Error, Count, CountKey>;
  countOf: (count: Count) => number;
  /** Keep the first page queried while scrolled away from it (its rows name the columns). */
  keepFirstPage?: boolean;
  /**
   * While the request changes (filter, sort, snapshot), keep showing each page's previous rows
   * and the previous total until the new ones arrive, instead of blanking the table.
   */
  keepPreviousWhileChanging?: boolean;
}

/**
 * The same array object while its members are the same: the table re-renders rows only when a
 * page's data really changed, not on every fetch-status update.
 */
function useShallowStable<T>(items: T[]): T[] {
  const ref = useRef(items);
  const prev = ref.current;
  if (items.length !== prev.length || items.some((x, i) => x !== prev[i])) ref.current = items;
  return ref.current;
}

/** Keeps a page's previous data only while its request changes, never across pages. */
function keepSamePage<Row, Key extends QueryKey>(page: number) {
  return (previous: Row[] | undefined, previousQuery: Query<Row[], Error, Row[], Key> | undefined) =>
    previousQuery && previousQuery.queryKey[previousQuery.queryKey.length - 1] === page ? keepPreviousData(previous) : undefined;
}

/** Paging and total for one list request. */
export function usePagedRows<Row, Count, PageKey extends QueryKey, CountKey extends QueryKey>(
  source: PagedRowsSource<Row, Count, PageKey, CountKey>,
): PagedRows<Row> {
  const { pageSize, keepPreviousWhileChanging = false } = source;
  const [span, setSpan] = useState<[number, number]>([0, 0]);
  const range = useRef<readonly [number, number]>([0, 0]);
  const pageOf = useCallback((index: number) => Math.floor(index / pageSize), [pageSize]);

  const pages = useMemo(() => Array.from({ length: span[1] - span[0] + 1 }, (_, i) => span[0] + i), [span]);
  const results = useQueries({
    queries: pages.map((page) => ({
      ...source.page(page),
      ...(keepPreviousWhileChanging ? { placeholderData: keepSamePage<Row, PageKey>(page) } : {}),
    })),
  });
  const count = useQuery({ ...source.count, ...(keepPreviousWhileChanging ? { placeholderData: keepPreviousData } : {}) });
  // Read from the cache when it is not kept queried: no request for it while scrolled away.
  const first = useQuery({ ...source.page(0), enabled: source.keepFirstPage === true });

  const pageData = useShallowStable(results.map((r) => r.data));
  const getRow = useCallback((index: number) => pageData[pageOf(index) - span[0]]?.[index % pageSize], [span, pageData, pageOf, pageSize]);

  const firstPage = span[0] === 0 ? (pageData[0] ?? first.data) : first.data;
  const total = count.data === undefined ? null : source.countOf(count.data);
  // Until the count arrives, the rows known so far (a short first page is the whole answer).
  const loaded = Math.max(0, ...pageData.map((p, i) => (p ? (span[0] + i) * pageSize + p.length : 0)));
  const rowCount = total ?? Math.max(firstPage?.length ?? 0, loaded);

  const onRangeChange = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      const next: [number, number] = [pageOf(start), pageOf(end)];
      setSpan((prev) => (prev[0] === next[0] && prev[1] === next[1] ? prev : next));
    },
    [pageOf],
  );

  const failed = results.find((r) => r.error)?.error ?? count.error ?? null;
  return {
    rowCount,
    getRow,
    total,
    firstPage,
    firstPageReady: pageData.some((p) => p !== undefined),
    isFetching: count.isFetching || results.some((r) => r.isFetching),
    error: failed,
    retry: () => {
      for (const r of results) if (r.error) void r.refetch();
      if (count.error) void count.refetch();
    },
    onRangeChange,
    range,
  };
}
