/**
 * Previous / next thread in the order of the list the thread was opened from (its sort and
 * filters, carried as the list's URL search), with the position ("3 of 120"). Buttons, and
 * the keys p / n (or [ / ]) anywhere on the page outside text fields. Pages of the list load
 * as needed, from the react-query cache when the list was just shown.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { listPlaceKey, writeListPlace } from '../../../components/table/listPlace.js';
import { isTypingTarget } from '../../../components/table/useRowCursor.js';
import { formatInteger } from '../../../lib/format.js';
import { usePageKeys } from '../../../lib/usePageKeys.js';
import { roundedNow } from '../../../entities/calls/listRequest.js';
import { threadsCountQueryOptions, threadsListQueryOptions } from '../threadQueries.js';
import { readThreadsView, toThreadsRequest } from '../threadsViewState.js';
import '../threads.css';

/** How far down an unknown list is searched for the open thread. */
const SEARCH_LIMIT = 5000;

/** Props: where we are and the list we came from. */
export interface ThreadNavProps {
  entity: string;
  project: string;
  threadId: string;
  /** The list's URL search ('' for its default view). */
  threadsSearch: string;
}

/** Previous/next buttons with the thread's position. */
export function ThreadNav({ entity, project, threadId, threadsSearch }: ThreadNavProps) {
  const projectId = `${entity}/${project}`;
  const navigate = useNavigate();
  const req = useMemo(
    () => toThreadsRequest({ projectId, view: readThreadsView(new URLSearchParams(threadsSearch)), now: roundedNow() }),
    [projectId, threadsSearch],
  );
  const list = useInfiniteQuery(threadsListQueryOptions(req));
  const total = useQuery(threadsCountQueryOptions(req));
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);
  const index = rows.findIndex((r) => r.thread_id === threadId);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Load on until the open thread is found, and keep one thread beyond it loaded.
  const needMore = (index < 0 && rows.length < SEARCH_LIMIT) || (index >= 0 && index >= rows.length - 2);
  useEffect(() => {
    if (needMore && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [needMore, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const prev = index > 0 ? rows[index - 1]!.thread_id : null;
  const next = index >= 0 ? (rows[index + 1]?.thread_id ?? null) : null;
  // The list's cursor follows the thread shown (p/n, Back and Forward alike), so going back to
  // the list lands on it. The path is encoded as the list's own location is.
  useEffect(() => {
    if (index < 0) return;
    const listPath = new URL(`/${entity}/${project}/threads`, window.location.origin).pathname;
    writeListPlace(listPlaceKey('threads', listPath, threadsSearch), { cursor: index, cursorId: threadId });
  }, [entity, project, threadsSearch, index, threadId]);
  const go = useCallback(
    (id: string | null) => {
      if (id) void navigate(`/${entity}/${project}/threads/${encodeURIComponent(id)}`, { state: { threadsSearch } });
    },
    [navigate, entity, project, threadsSearch],
  );

  usePageKeys((e) => {
    if (isTypingTarget(e.target)) return;
    if (e.key === 'n' || e.key === ']') go(next);
    else if (e.key === 'p' || e.key === '[') go(prev);
    else return;
    e.preventDefault();
  });

  const position =
    index >= 0
      ? `${formatInteger(index + 1)} of ${total.data !== undefined ? formatInteger(total.data) : `${formatInteger(rows.length)}${hasNextPage ? '+' : ''}`}`
      : list.isPending || isFetchingNextPage
        ? '…'
        : 'not in the list';
  return (
    <nav className="thread-nav" aria-label="Threads in this list">
      <button type="button" className="button" disabled={!prev} onClick={() => go(prev)} title="Previous thread (p)">
        ‹ Previous
      </button>
      <span className="muted small num" aria-live="polite">
        Thread {position}
      </span>
      <button type="button" className="button" disabled={!next} onClick={() => go(next)} title="Next thread (n)">
        Next ›
      </button>
    </nav>
  );
}
