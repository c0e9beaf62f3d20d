/**
 * Reviewing a queue, one call (or thread) at a time: `?item=<id>` names the item on screen;
 * without it the server picks and reserves my next item (one nobody else holds and that still
 * needs reviewers; `?after=<id>` asks for one after that item). Submit (or skip) records my
 * answers, releases the item and asks for the next; j/k browse in queue order; E edits an item
 * I already answered or skipped. The next calls are fetched ahead of time.
 */
import { usePrefetchQuery, useQuery, useSuspenseQueries, useSuspenseQuery } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { useMemo, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { formatInteger } from '../../../lib/format.js';
import { whoamiQueryOptions } from '../../auth/authQueries.js';
import { callQueryOptions } from '../../../entities/calls/callQueries.js';
import {
  myAnswersQueryOptions,
  nextItemQueryOptions,
  queueFieldsQueryOptions,
  queueItemsQueryOptions,
  queueQueryOptions,
} from '../annotationQueries.js';
import { CompletionBar } from '../CompletionBar.js';
import { ItemReview } from './ItemReview.js';
import { useSubmitItem, type ItemSubmission } from '../queueMutations.js';
import { shownFields } from '../displayFields.js';
import { answersOnCall, myItemStates, nextUnfinished } from './reviewModel.js';
import { ShortcutHelp } from './ShortcutHelp.js';
import { useReviewKeys } from './useReviewKeys.js';
import { useCan } from '../../auth/useCan.js';
import '../annotation.css';
import './review.css';

/** Fetches a call before it is needed. */
function PrefetchCall({ projectId, callId }: { projectId: string; callId: string }) {
  usePrefetchQuery(callQueryOptions({ projectId, id: callId }));
  return null;
}

/** Review page. */
export function ReviewPage() {
  const { entity = '', project = '', queueId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [search, setSearch] = useSearchParams();
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const [{ data: queue }, { data: items }, { data: answers }] = useSuspenseQueries({
    queries: [
      queueQueryOptions({ projectId, queueId }),
      queueItemsQueryOptions({ projectId, queueId }),
      myAnswersQueryOptions({ projectId, queueId, user: user.username }),
    ],
  });
  const { data: fields } = useSuspenseQuery(queueFieldsQueryOptions(queue.scorer_refs));
  const [helpOpen, setHelpOpen] = useState(false);

  const done = useMemo(() => myItemStates({ items, answers, user: user.username }), [items, answers, user.username]);
  const requested = search.get('item');
  const requestedIndex = requested ? items.findIndex((i) => i.id === requested) : -1;
  const index = requestedIndex;
  const item = items[index] ?? null;
  const upcoming = item ? nextUnfinished({ items, done: new Map(done).set(item.id, 'completed'), after: index }) : null;
  // Bumped after an edit is saved, so the item's review starts again from the saved answers.
  const [edits, setEdits] = useState(0);

  const submit = useSubmitItem({ projectId, queueId, user: user.username });
  const send = (submission: ItemSubmission) =>
    submit.mutate(submission, {
      onSuccess: () => {
        if (submission.replace) return setEdits((n) => n + 1);
        setSearch({ after: submission.item.id }, { replace: true });
      },
    });
  const go = (i: number) => {
    submit.reset();
    setSearch({ item: items[i]!.id }, { replace: true });
  };
  const toggleHelp = () => setHelpOpen((o) => !o);

  const paths = shownFields(queue.display_fields, item?.display_fields);
  const queuesUrl = `/${entity}/${project}/annotation`;
  const answer = useCan(projectId)('annotationQueueItemSubmit');

  return (
    <div className="page review-page">
      <header className="page-header">
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link to={queuesUrl}>Annotation queues</Link>
          <span className="muted" aria-hidden="true">
            /
          </span>
        </nav>
        <h1 className="ellipsis">{queue.name}</h1>
        <span className="spacer" />
        {item && (
          <span className="review-position" aria-live="polite">
            <strong>{formatInteger(index + 1)}</strong> of {formatInteger(items.length)}
          </span>
        )}
        {items.length > 0 && (
          <div className="review-progress">
            <span className="muted small">You</span>
            <CompletionBar done={done.size} total={items.length} label="Your progress" />
          </div>
        )}
      </header>
      {!answer.allowed ? (
        <div className="empty-state">
          <div className="empty-state-badge">Read only</div>
          <p>Reviewing a queue needs the {answer.need} role in this project; an admin of the entity can grant it in Settings.</p>
          <Link className="button" to={`${queuesUrl}/${queueId}`}>
            See the queue&apos;s results
          </Link>
        </div>
      ) : items.length === 0 ? (
        <div className="empty-state">
          <div className="empty-state-badge">Nothing to review</div>
          <p>This queue has no calls yet. Select calls on the Calls page and choose “Add to queue”.</p>
          <Link className="button" to={`/${entity}/${project}/calls`}>
            Go to Calls
          </Link>
        </div>
      ) : item === null ? (
        <NextItem
          projectId={projectId}
          queueId={queueId}
          after={search.get('after')}
          finished={done.size}
          count={items.length}
          queuesUrl={queuesUrl}
          onBrowse={() => go(0)}
          onHelp={toggleHelp}
          helpOpen={helpOpen}
        />
      ) : (
        <ItemReview
          key={`${item.id}:${edits}`}
          projectId={projectId}
          user={user.username}
          item={item}
          fields={fields}
          paths={paths}
          myState={done.get(item.id)}
          myAnswers={answersOnCall(answers, item.call_id)}
          submitting={submit.isPending}
          submitError={submit.variables?.item.id === item.id ? submit.error : null}
          helpOpen={helpOpen}
          onSubmit={(annotations, replace) => send({ item, annotations, skip: false, replace })}
          onSkip={(replace) => send({ item, annotations: [], skip: true, replace })}
          onContinue={() => setSearch(upcoming === null ? {} : { after: item.id }, { replace: true })}
          onNext={index < items.length - 1 ? () => go(index + 1) : null}
          onPrev={index > 0 ? () => go(index - 1) : null}
          onHelp={toggleHelp}
        />
      )}
      {upcoming !== null && <PrefetchCall projectId={projectId} callId={items[upcoming]!.call_id} />}
      {item && index + 1 < items.length && <PrefetchCall projectId={projectId} callId={items[index + 1]!.call_id} />}
      {helpOpen && <ShortcutHelp onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

interface NextItemProps {
  projectId: string;
  queueId: string;
  after: string | null;
  finished: number;
  count: number;
  queuesUrl: string;
  onBrowse: () => void;
  onHelp: () => void;
  helpOpen: boolean;
}

/** Asks the server for my next item (reserving it) and opens it; "All done" when there is none. */
function NextItem({ projectId, queueId, after, ...rest }: NextItemProps) {
  const next = useQuery(nextItemQueryOptions({ projectId, queueId, after }));
  if (next.isPending) return <Spinner showLabel label="Finding your next call" />;
  if (next.error) return <ErrorState error={next.error} onRetry={() => void next.refetch()} />;
  if (next.data.item) return <Navigate to={`?item=${next.data.item.id}`} replace />;
  return <AllDone {...rest} />;
}

/** Shown once nothing is left for me: I finished every item, or the rest is taken. */
function AllDone({ finished, count, queuesUrl, onBrowse, onHelp, helpOpen }: Omit<NextItemProps, 'projectId' | 'queueId' | 'after'>) {
  useReviewKeys({ onHelp, onNext: helpOpen ? undefined : onBrowse });
  const rest = count - finished;
  return (
    <div className="empty-state">
      <div className="empty-state-badge">All done</div>
      {rest === 0 ? (
        <p>You have answered or skipped {count === 1 ? 'the one call' : `all ${formatInteger(count)} calls`} in this queue. Thank you!</p>
      ) : (
        <p>
          Nothing is left for you: the other {formatInteger(rest)} {rest === 1 ? 'call has' : 'calls have'} enough reviews or{' '}
          {rest === 1 ? 'is' : 'are'} being reviewed by someone else. Thank you!
        </p>
      )}
      <div className="row center">
        <Link className="button primary" to={queuesUrl}>
          Back to queues
        </Link>
        <button type="button" className="button" onClick={onBrowse}>
          Browse your answers <kbd>J</kbd>
        </button>
      </div>
    </div>
  );
}
