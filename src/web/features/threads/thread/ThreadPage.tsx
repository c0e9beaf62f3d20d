/**
 * One thread: its turns in order beside the conversation they make up. The selected turn
 * (`?turn=`) lives in the URL; ↑/↓ or j/k move it, Enter (or a click on ↗) opens its trace,
 * whose "← Thread" leads back here. p/n walk to the previous/next thread of the list.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CopyButton } from '../../../components/ui/CopyButton.js';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatCompact, formatDuration, formatInteger, formatRelative } from '../../../lib/format.js';
import type { Call } from '../../../entities/calls/callFields.js';
import { AddThreadsToQueue } from '../AddThreadsToQueue.js';
import { useCan } from '../../auth/useCan.js';
import { threadConversation, turnPreview } from './threadChat.js';
import { ThreadChat } from './ThreadChat.js';
import { ThreadNav } from './ThreadNav.js';
import { threadQueryOptions, threadTurnsQueryOptions, type Thread } from '../threadQueries.js';
import { recallThreadsList } from '../threadsMemory.js';
import { TurnList } from './TurnList.js';
import { useTurnKeys } from './useTurnKeys.js';
import '../threads.css';

/** Thread page. */
export function ThreadPage() {
  const { entity = '', project = '', threadId = '' } = useParams();
  const ids = { projectId: `${entity}/${project}`, threadId };
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const thread = useQuery(threadQueryOptions(ids));
  const mayQueue = useCan(ids.projectId)('annotationQueueAddThreads').allowed;
  const turnsQuery = useInfiniteQuery(threadTurnsQueryOptions(ids));

  const turns = useMemo(() => turnsQuery.data?.pages.flat() ?? [], [turnsQuery.data]);
  const conversation = useMemo(() => threadConversation(turns), [turns]);
  const previews = useMemo(() => conversation.map(turnPreview), [conversation]);
  const wanted = params.get('turn');
  const found = wanted ? turns.findIndex((t) => t.id === wanted) : -1;
  const selectedIndex = Math.max(0, found);
  const selectedId = turns[selectedIndex]?.id ?? null;

  // `thread=` tells the trace page the way back (it survives a reload or a new tab).
  const traceHref = useCallback(
    (turn: Call) => `/${entity}/${project}/traces/${turn.trace_id}?call=${turn.id}&thread=${encodeURIComponent(threadId)}`,
    [entity, project, threadId],
  );
  const onSelect = useCallback(
    (id: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('turn', id);
          return next;
        },
        // Keep the router state: it holds the way back to the threads list as it was.
        { replace: true, state: location.state },
      ),
    [setParams, location.state],
  );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = turnsQuery;
  useTurnKeys({
    count: turns.length,
    selectedIndex,
    onSelect: (index) => onSelect(turns[index]!.id),
    onOpen: (index) => void navigate(traceHref(turns[index]!), { state: { threadsSearch } }),
    onPastEnd: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
  });

  const threadsSearch =
    (location.state as { threadsSearch?: string } | null)?.threadsSearch ?? recallThreadsList(ids.projectId)?.search ?? '';
  const error = thread.error ?? turnsQuery.error;

  return (
    <div className="page thread-page">
      <header className="page-header">
        <Link className="button ghost" to={`/${entity}/${project}/threads${threadsSearch}`}>
          ← Threads
        </Link>
        <h1>Thread</h1>
        <span className="mono thread-id" title={threadId}>
          {threadId}
        </span>
        <CopyButton text={threadId} label="Copy id" />
        {(thread.isFetching || turnsQuery.isFetching) && <Spinner label="Loading thread" />}
        <div className="spacer" />
        {mayQueue && thread.data && <AddThreadsToQueue projectId={ids.projectId} threadIds={[threadId]} />}
        <ThreadNav entity={entity} project={project} threadId={threadId} threadsSearch={threadsSearch} />
      </header>
      {thread.data && <ThreadStats thread={thread.data} />}
      {error ? (
        <ErrorState error={error} onRetry={() => void (thread.error ? thread.refetch() : turnsQuery.refetch())} />
      ) : turnsQuery.isPending || thread.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading turns" />
        </div>
      ) : turns.length === 0 || thread.data === null ? (
        <div className="empty-state" role="status">
          <h2>Thread not found</h2>
          <p>This project has no thread “{threadId}” (or its turns were deleted).</p>
          <Link className="button" to={`/${entity}/${project}/threads${threadsSearch}`}>
            Back to threads
          </Link>
        </div>
      ) : (
        <div className="thread-layout">
          <div className="thread-left">
            <TurnList turns={turns} previews={previews} selectedId={selectedId} onSelect={onSelect} traceHref={traceHref} />
            {hasNextPage && (
              <button type="button" className="button" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading…' : 'Load more turns'}
              </button>
            )}
            <p className="muted small keys-hint">
              <kbd>↑</kbd>
              <kbd>↓</kbd> or <kbd>j</kbd>
              <kbd>k</kbd> move between turns · <kbd>Enter</kbd> opens the trace · <kbd>p</kbd>
              <kbd>n</kbd> previous and next thread
            </p>
          </div>
          <ThreadChat turns={turns} conversation={conversation} selectedId={selectedId} onSelect={onSelect} traceHref={traceHref} />
        </div>
      )}
    </div>
  );
}

/** The thread's statistics in one line. */
function ThreadStats({ thread }: { thread: Thread }) {
  const dur = (ms: number | null) => (ms === null ? '—' : formatDuration(ms));
  return (
    <dl className="thread-stats" aria-label="Thread statistics">
      <div>
        <dt>Turns</dt>
        <dd>{formatInteger(thread.turn_count)}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd title={thread.start_time}>{formatRelative(thread.start_time)}</dd>
      </div>
      <div>
        <dt>Last updated</dt>
        <dd title={thread.last_updated ?? undefined}>{thread.last_updated ? formatRelative(thread.last_updated) : '—'}</dd>
      </div>
      <div>
        <dt>p50 turn</dt>
        <dd>{dur(thread.p50_turn_duration_ms)}</dd>
      </div>
      <div>
        <dt>p99 turn</dt>
        <dd>{dur(thread.p99_turn_duration_ms)}</dd>
      </div>
      <div>
        <dt>Errors</dt>
        <dd className={thread.error_count ? 'thread-errors' : undefined}>{formatInteger(thread.error_count)}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd>{thread.total_tokens ? formatCompact(thread.total_tokens) : '—'}</dd>
      </div>
    </dl>
  );
}
