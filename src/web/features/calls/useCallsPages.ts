/**
 * Server-side paging for the virtualized calls table. Only the pages under the viewport are
 * queried (one stream_query per 100 rows), the total comes from query_stats, and pages scrolled
 * past are cancelled by react-query when nobody watches them any more.
 *
 * Live refresh swaps in a whole new snapshot ("generation") at once: it fetches the new total and
 * the pages under the viewport first, then switches, and tells the table how many rows appeared
 * above the viewport so it can keep the same rows in place instead of jumping.
 */
import { keepPreviousData, useQueries, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Call } from '../../entities/calls/callFields.js';
import { callsCountQueryOptions, callsPageQueryOptions, PAGE_SIZE, type CallsListReq } from '../../entities/calls/callQueries.js';

/** How often live mode refreshes. */
const LIVE_INTERVAL_MS = 5000;

/** What the table needs from the pager. */
export interface CallsPages {
  rowCount: number;
  getRow: (index: number) => Call | undefined;
  /** Total from query_stats, or null until it arrives. */
  total: number | null;
  firstPageReady: boolean;
  isFetching: boolean;
  error: Error | null;
  retry: () => void;
  onRangeChange: (start: number, end: number) => void;
  generation: number;
  /** Rows that appeared above the viewport in the last live refresh (the table scrolls by this). */
  takeShift: () => number;
}

const pageOf = (index: number) => Math.floor(index / PAGE_SIZE);

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

/** Keeps a page's previous data only while its filter or snapshot changes, never across pages. */
function keepSamePage(page: number) {
  return (previous: Call[] | undefined, previousQuery: Query<Call[], Error, Call[], readonly unknown[]> | undefined) =>
    previousQuery && previousQuery.queryKey[previousQuery.queryKey.length - 1] === page ? keepPreviousData(previous) : undefined;
}

/** Paging, totals and live refresh for one calls list request. */
export function useCallsPages({ req, live, newestFirst }: { req: CallsListReq; live: boolean; newestFirst: boolean }): CallsPages {
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const [span, setSpan] = useState<[number, number]>([0, 0]);
  const range = useRef<[number, number]>([0, 0]);
  const shift = useRef(0);

  const pages = useMemo(() => Array.from({ length: span[1] - span[0] + 1 }, (_, i) => span[0] + i), [span]);
  const results = useQueries({
    queries: pages.map((page) => ({ ...callsPageQueryOptions({ req, generation, page }), placeholderData: keepSamePage(page) })),
  });
  const count = useQuery({ ...callsCountQueryOptions({ req, generation }), placeholderData: keepPreviousData });

  const pageData = useShallowStable(results.map((r) => r.data));
  const getRow = useCallback((index: number) => pageData[pageOf(index) - span[0]]?.[index % PAGE_SIZE], [span, pageData]);

  const first = span[0] === 0 ? pageData[0] : undefined;
  const total = count.data?.count ?? null;
  // A short first page is the whole answer; no need to wait for the count.
  const rowCount = total ?? (first ? first.length : Math.max(0, ...pageData.map((p, i) => (p ? (span[0] + i) * PAGE_SIZE + p.length : 0))));

  const onRangeChange = useCallback((start: number, end: number) => {
    range.current = [start, end];
    const next: [number, number] = [pageOf(start), pageOf(end)];
    setSpan((prev) => (prev[0] === next[0] && prev[1] === next[1] ? prev : next));
  }, []);

  // Live mode: a timer drives react-query fetches of the next snapshot (nothing is stored outside
  // the query cache); the swap happens only once the data under the viewport is there.
  const state = useRef({ generation, total, req, newestFirst, busy: false });
  state.current = { ...state.current, generation, total, req, newestFirst };
  useEffect(() => {
    if (!live) return;
    const tick = async () => {
      const s = state.current;
      if (s.busy || document.hidden) return;
      s.busy = true;
      try {
        const next = s.generation + 1;
        const { count: newTotal } = await queryClient.fetchQuery(callsCountQueryOptions({ req: s.req, generation: next }));
        const [start, end] = range.current;
        const grown = s.newestFirst && start > 0 && s.total !== null ? Math.max(0, newTotal - s.total) : 0;
        const wanted = new Set([pageOf(start + grown), pageOf(end + grown)]);
        await Promise.all([...wanted].map((page) => queryClient.fetchQuery(callsPageQueryOptions({ req: s.req, generation: next, page }))));
        if (state.current.req !== s.req) return; // the view changed meanwhile; that snapshot is stale
        shift.current = grown;
        setGeneration(next);
      } catch {
        // A failed refresh keeps the current snapshot; the next tick tries again.
      } finally {
        s.busy = false;
      }
    };
    const id = setInterval(() => void tick(), LIVE_INTERVAL_MS);
    return () => clearInterval(id);
  }, [live, queryClient]);

  const takeShift = useCallback(() => {
    const rows = shift.current;
    shift.current = 0;
    return rows;
  }, []);

  const failed = results.find((r) => r.error)?.error ?? count.error ?? null;
  return {
    rowCount,
    getRow,
    total,
    firstPageReady: pageData.some((p) => p !== undefined),
    isFetching: count.isFetching || results.some((r) => r.isFetching),
    error: failed,
    retry: () => {
      for (const r of results) if (r.error) void r.refetch();
      if (count.error) void count.refetch();
    },
    onRangeChange,
    generation,
    takeShift,
  };
}
