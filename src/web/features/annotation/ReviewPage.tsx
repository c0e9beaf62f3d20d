/**
 * Reviewing a queue, one call at a time: `?item=<id>` names the item on screen; without it the
 * page resumes at my first unfinished item. Submit (or skip) records my answers and moves to my
 * next unfinished item; j/k browse in queue order. The next calls are fetched ahead of time.
 */
import { useMutation, usePrefetchQuery, useQueryClient, useSuspenseQueries, useSuspenseQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { JsonValue } from '../../../contract/common.js';
import { api } from '../../lib/api.js';
import { formatInteger } from '../../lib/format.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { callQueryOptions } from '../calls/callQueries.js';
import {
  annotationKeys,
  myAnswersQueryOptions,
  queueFieldsQueryOptions,
  queueItemsQueryOptions,
  queueQueryOptions,
  type MyAnswer,
  type QueueItem,
} from './annotationQueries.js';
import { CompletionBar } from './CompletionBar.js';
import { ItemReview, type Answer } from './ItemReview.js';
import { shownFields } from './displayFields.js';
import { answersOnCall, myItemStates, nextUnfinished, resumeIndex } from './reviewModel.js';
import { ShortcutHelp } from './ShortcutHelp.js';
import { useReviewKeys } from './useReviewKeys.js';
import './annotation.css';
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
  const queryClient = useQueryClient();
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
  const index = requestedIndex >= 0 ? requestedIndex : (resumeIndex({ items, done }) ?? -1);
  const item = items[index] ?? null;
  const upcoming = item ? nextUnfinished({ items, done: new Map(done).set(item.id, 'completed'), after: index }) : null;

  const submit = useMutation({
    mutationFn: ({ item, annotations, skip }: { item: QueueItem; annotations: Answer[]; skip: boolean }) =>
      api.annotationQueueItemSubmit({
        project_id: projectId,
        queue_id: queueId,
        item_id: item.id,
        annotations: annotations as { annotation_ref: string; value: JsonValue }[],
        skip,
      }),
    onSuccess: (res, { item, annotations }) => {
      const itemsKey = queueItemsQueryOptions({ projectId, queueId }).queryKey;
      queryClient.setQueryData(itemsKey, (old) =>
        old?.map((i) => (i.id === item.id ? { ...res.item, position_in_queue: i.position_in_queue } : i)),
      );
      const mine: MyAnswer[] = annotations.map((a) => ({ callId: item.call_id, annotationRef: a.annotation_ref, value: a.value }));
      queryClient.setQueryData(myAnswersQueryOptions({ projectId, queueId, user: user.username }).queryKey, (old) => [
        ...(old ?? []),
        ...mine,
      ]);
      void queryClient.invalidateQueries({ queryKey: [...annotationKeys.project(projectId), 'stats'] });
      const nextDone = new Map(done).set(item.id, res.item.annotation_state === 'skipped' ? 'skipped' : 'completed');
      const next = nextUnfinished({ items, done: nextDone, after: items.findIndex((i) => i.id === item.id) });
      setSearch(next === null ? {} : { item: items[next]!.id }, { replace: true });
    },
  });
  const go = (i: number) => {
    submit.reset();
    setSearch({ item: items[i]!.id }, { replace: true });
  };
  const toggleHelp = () => setHelpOpen((o) => !o);

  const paths = shownFields(queue.display_fields, item?.display_fields);
  const queuesUrl = `/${entity}/${project}/annotation`;

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
      {items.length === 0 ? (
        <div className="empty-state">
          <div className="empty-state-badge">Nothing to review</div>
          <p>This queue has no calls yet. Select calls on the Calls page and choose “Add to queue”.</p>
          <Link className="button" to={`/${entity}/${project}/calls`}>
            Go to Calls
          </Link>
        </div>
      ) : item === null ? (
        <AllDone count={items.length} queuesUrl={queuesUrl} onBrowse={() => go(0)} onHelp={toggleHelp} helpOpen={helpOpen} />
      ) : (
        <ItemReview
          key={item.id}
          projectId={projectId}
          item={item}
          fields={fields}
          paths={paths}
          myState={done.get(item.id)}
          myAnswers={answersOnCall(answers, item.call_id)}
          submitting={submit.isPending}
          submitError={submit.variables?.item.id === item.id ? submit.error : null}
          helpOpen={helpOpen}
          onSubmit={(annotations) => submit.mutate({ item, annotations, skip: false })}
          onSkip={() => submit.mutate({ item, annotations: [], skip: true })}
          onContinue={() => (upcoming === null ? setSearch({}, { replace: true }) : go(upcoming))}
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

/** Shown once I have finished every item. */
function AllDone({
  count,
  queuesUrl,
  onBrowse,
  onHelp,
  helpOpen,
}: {
  count: number;
  queuesUrl: string;
  onBrowse: () => void;
  onHelp: () => void;
  helpOpen: boolean;
}) {
  useReviewKeys({ onHelp, onNext: helpOpen ? undefined : onBrowse });
  return (
    <div className="empty-state">
      <div className="empty-state-badge">All done</div>
      <p>You have answered or skipped {count === 1 ? 'the one call' : `all ${formatInteger(count)} calls`} in this queue. Thank you!</p>
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
