/**
 * Paging for the virtualized calls table: the shared pager (components/table/usePagedRows.ts;
 * one stream_query per 100 rows, the total from query_stats) plus live refresh.
 *
 * Live refresh swaps in a whole new snapshot ("generation") at once: it fetches the new total and
 * the pages under the viewport first, then switches, and tells the table how many rows appeared
 * above the viewport so it can keep the same rows in place instead of jumping.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePagedRows, type PagedRows } from '../../components/table/usePagedRows.js';
import type { Call } from '../../entities/calls/callFields.js';
import { callsCountQueryOptions, callsPageQueryOptions, PAGE_SIZE, type CallsListReq } from '../../entities/calls/callQueries.js';

/** How often live mode refreshes. */
const LIVE_INTERVAL_MS = 5000;

/** What the table needs from the pager. */
export interface CallsPages extends PagedRows<Call> {
  generation: number;
  /** Rows that appeared above the viewport in the last live refresh (the table scrolls by this). */
  takeShift: () => number;
}

const pageOf = (index: number) => Math.floor(index / PAGE_SIZE);

/** Paging, totals and live refresh for one calls list request. */
export function useCallsPages({ req, live, newestFirst }: { req: CallsListReq; live: boolean; newestFirst: boolean }): CallsPages {
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const shift = useRef(0);
  const paged = usePagedRows({
    pageSize: PAGE_SIZE,
    page: (page) => callsPageQueryOptions({ req, generation, page }),
    count: callsCountQueryOptions({ req, generation }),
    countOf: (c) => c.count,
    keepPreviousWhileChanging: true,
  });
  const { total, range } = paged;

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
  }, [live, queryClient, range]);

  const takeShift = useCallback(() => {
    const rows = shift.current;
    shift.current = 0;
    return rows;
  }, []);

  return { ...paged, generation, takeShift };
}
