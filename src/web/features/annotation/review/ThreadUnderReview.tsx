/**
 * A queued thread as its reviewer sees it: the whole conversation, turn by turn, with the
 * thread page's own conversation view (features/threads/ThreadChat). Turns load page by page.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatInteger } from '../../../lib/format.js';
import type { Call } from '../../../entities/calls/callFields.js';
import { threadConversation } from '../../threads/thread/threadChat.js';
import { ThreadChat } from '../../threads/thread/ThreadChat.js';
import { threadTurnsQueryOptions } from '../../threads/threadQueries.js';
import '../annotation.css';

/** The conversation of one thread. */
export function ThreadUnderReview({ projectId, threadId }: { projectId: string; threadId: string }) {
  const turnsQuery = useInfiniteQuery(threadTurnsQueryOptions({ projectId, threadId }));
  const turns = useMemo(() => turnsQuery.data?.pages.flat() ?? [], [turnsQuery.data]);
  const conversation = useMemo(() => threadConversation(turns), [turns]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const traceHref = useCallback((turn: Call) => `/${projectId}/traces/${turn.trace_id}?call=${turn.id}`, [projectId]);

  if (turnsQuery.isPending) return <Spinner showLabel label="Loading conversation" />;
  if (turnsQuery.error) return <p className="form-error">Could not load the conversation: {turnsQuery.error.message}</p>;
  return (
    <div className="review-thread" aria-label="Conversation under review">
      <p className="muted small">
        Conversation of {formatInteger(turns.length)} {turns.length === 1 ? 'turn' : 'turns'} ·{' '}
        <Link to={`/${projectId}/threads/${encodeURIComponent(threadId)}`} target="_blank" rel="noreferrer">
          Open thread ↗
        </Link>
      </p>
      <ThreadChat turns={turns} conversation={conversation} selectedId={selectedId} onSelect={setSelectedId} traceHref={traceHref} />
      {turnsQuery.hasNextPage && (
        <button
          type="button"
          className="button small"
          disabled={turnsQuery.isFetchingNextPage}
          onClick={() => void turnsQuery.fetchNextPage()}
        >
          Load more turns
        </button>
      )}
    </div>
  );
}
