/**
 * One trace: its call tree with a waterfall on the left, the selected call in full on the right.
 * The selected call (`?call=`) and the tree search (`?q=`) live in the URL; `?thread=` says it
 * was opened from a thread, and the way back then leads there instead of to Calls.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatDuration, formatInteger, plural } from '../../lib/format.js';
import { callName } from '../../entities/calls/callFields.js';
import { CallDetail } from './CallDetail.js';
import { traceCallsQueryOptions, traceCountQueryOptions } from './traceQueries.js';
import { buildTraceTree, visibleRows } from './traceModel.js';
import { TraceTree } from './TraceTree.js';
import { TraceUsageSummary } from './TraceUsageSummary.js';
import './traces.css';

/** Pages are fetched on their own up to this many calls; beyond, a button asks for more. */
const AUTO_LOAD_LIMIT = 20_000;
/** In bigger traces only the top levels start open. */
const LARGE_TRACE = 500;

/** Trace page. */
export function TracePage() {
  const { entity = '', project = '', traceId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const calls = useInfiniteQuery(traceCallsQueryOptions({ projectId, traceId }));
  const count = useQuery(traceCountQueryOptions({ projectId, traceId }));

  const flat = useMemo(() => calls.data?.pages.flat() ?? [], [calls.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = calls;
  // Keep paging through the trace (the tree grows as pages arrive) up to a sane size.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && flat.length < AUTO_LOAD_LIMIT) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, flat.length]);

  const tree = useMemo(() => buildTraceTree(flat), [flat]);
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  const defaultDepth = flat.length > LARGE_TRACE ? 2 : Infinity;
  const wanted = params.get('call');
  const selectedId = wanted && tree.byId.has(wanted) ? wanted : (tree.roots[0]?.call.id ?? null);
  const rows = useMemo(
    () => visibleRows({ tree, overrides, defaultDepth, search, reveal: selectedId }),
    [tree, overrides, defaultDepth, search, selectedId],
  );

  const setParam = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true, state: location.state },
      ),
    [setParams, location.state],
  );
  const onSelect = useCallback((id: string) => setParam('call', id), [setParam]);
  const onToggle = useCallback((id: string, expanded: boolean) => setOverrides((prev) => new Map(prev).set(id, expanded)), []);

  const callsSearch = (location.state as { callsSearch?: string } | null)?.callsSearch ?? '';
  const root = tree.roots[0]?.call;
  const selected = selectedId ? tree.byId.get(selectedId)?.call : undefined;
  const fromThread = params.get('thread');
  const back = fromThread ? (
    <Link
      className="button ghost"
      to={`/${entity}/${project}/threads/${encodeURIComponent(fromThread)}${root ? `?turn=${encodeURIComponent(root.id)}` : ''}`}
      state={location.state}
    >
      ← Thread
    </Link>
  ) : (
    <Link className="button ghost" to={`/${entity}/${project}/calls${callsSearch}`}>
      ← Calls
    </Link>
  );

  // No call at all: the id is unknown here (or everything in it was deleted). Say so, no Retry.
  if (!calls.isPending && !calls.error && flat.length === 0) {
    return (
      <div className="page trace-page">
        <header className="page-header">{back}</header>
        <div className="empty-state" role="status">
          <h1>Trace not found</h1>
          <p>
            This project has no trace <span className="mono">{traceId}</span> (or its calls were deleted).
          </p>
          {back}
        </div>
      </div>
    );
  }

  return (
    <div className="page trace-page">
      <header className="page-header">
        {back}
        <h1>{root ? callName(root) : 'Trace'}</h1>
        <span className="muted">
          {count.data !== undefined ? plural(count.data, 'call') : ''}
          {tree.end > tree.start && flat.length ? ` · ${formatDuration(tree.end - tree.start)}` : ''}
        </span>
        <TraceUsageSummary calls={flat} />
        {(calls.isFetching || isFetchingNextPage) && <Spinner label="Loading trace" />}
        {count.data !== undefined && flat.length < count.data && !calls.isPending && (
          <span className="muted small">
            loaded {formatInteger(flat.length)} of {formatInteger(count.data)}
            {!isFetchingNextPage && hasNextPage && (
              <button type="button" className="link-button" onClick={() => void fetchNextPage()}>
                load more
              </button>
            )}
          </span>
        )}
      </header>
      {calls.error ? (
        <ErrorState error={calls.error} onRetry={() => void calls.refetch()} />
      ) : calls.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading trace" />
        </div>
      ) : (
        <div className="trace-layout">
          <div className="trace-left">
            <input
              className="input"
              type="search"
              placeholder="Search calls in this trace"
              aria-label="Search calls in this trace"
              value={search}
              onChange={(e) => setParam('q', e.target.value || null)}
            />
            {search && rows.length === 0 && <p className="muted small">No call in this trace matches “{search}”.</p>}
            <TraceTree tree={tree} rows={rows} selectedId={selectedId} onSelect={onSelect} onToggle={onToggle} />
          </div>
          {selected && <CallDetail key={selected.id} projectId={projectId} light={selected} />}
        </div>
      )}
    </div>
  );
}
