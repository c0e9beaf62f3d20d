/**
 * The Threads page: a project's conversations with their turn statistics, sortable by several
 * columns on the server, searched by what the turns say, filtered by time, errors, ranges and
 * attributes, all from the URL, with the exact number of matching threads.
 * A project without threads explains how calls become threads instead.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/Spinner.js';
import { ViewNotice } from '../../components/ui/ViewNotice.js';
import { formatInteger, plural } from '../../lib/format.js';
import { roundedNow } from '../../entities/calls/listRequest.js';
import { AddThreadsToQueue } from './AddThreadsToQueue.js';
import { AddToDatasetButton, selectionSource } from '../datasets/addToDataset/AddToDatasetButton.js';
import { useCan } from '../auth/useCan.js';
import { NO_FILTERS } from './threadFilters.js';
import { threadsCountQueryOptions, threadsListQueryOptions } from './threadQueries.js';
import { ThreadsTable } from './ThreadsTable.js';
import { ThreadsToolbar } from './ThreadsToolbar.js';
import { toThreadsRequest, useThreadsView } from './threadsViewState.js';
import './threads.css';
import { SavedViewsButton } from '../savedViews/SavedViewsButton.js';
import { useDefaultView } from '../savedViews/useDefaultView.js';

/** Threads page. */
export function ThreadsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useThreadsView();
  // "Now" only moves when the view does, so the request (and its cache key) stays stable.
  const req = useMemo(() => toThreadsRequest({ projectId, view, now: roundedNow() }), [projectId, view]);
  const list = useInfiniteQuery({ ...threadsListQueryOptions(req), placeholderData: keepPreviousData });
  const total = useQuery({ ...threadsCountQueryOptions(req), placeholderData: keepPreviousData });

  // Selected threads, for "Add to queue" and "Add to dataset" (shown only to roles that may add).
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const selectedIds = Object.keys(rowSelection).filter((id) => rowSelection[id]);
  const can = useCan(projectId);
  const mayQueue = can('annotationQueueAddThreads').allowed;
  const mayAddToDataset = can('datasetAddFromTraces').allowed;
  const selectable = mayQueue || mayAddToDataset;
  // A fresh visit opens the project's default view (docs/saved-views.md).
  useDefaultView(projectId, 'weft.threads');

  const loaded = list.data?.pages.reduce((n, p) => n + p.rows.length, 0) ?? null;
  const filtered = req.filter !== null;
  const projectIsEmpty = loaded === 0 && !filtered && !list.isPlaceholderData;
  // The exact count once it is in; until then what is loaded, "+" while more exist; none when
  // the list failed, as a count beside an error would be an earlier view's.
  const countText = list.isError
    ? ''
    : total.data !== undefined && !total.isPlaceholderData
      ? plural(total.data, 'thread')
      : loaded !== null
        ? `${formatInteger(loaded)}${list.hasNextPage ? '+' : ''} ${loaded === 1 && !list.hasNextPage ? 'thread' : 'threads'}`
        : '';

  return (
    <div className="page calls-page">
      <header className="page-header">
        <h1>Threads</h1>
        <span className="muted" aria-live="polite">
          {!projectIsEmpty ? countText : ''}
        </span>
        {(list.isFetching || total.isFetching) && <Spinner label="Updating" />}
        <div className="spacer" />
        <SavedViewsButton viewType="weft.threads" />
        {mayQueue && !projectIsEmpty && <AddThreadsToQueue projectId={projectId} threadIds={selectedIds} />}
        {mayAddToDataset && !projectIsEmpty && (
          <AddToDatasetButton projectId={projectId} source={selectionSource.threads(selectedIds)} noun="threads" />
        )}
      </header>
      {projectIsEmpty ? (
        <NoThreads />
      ) : (
        <>
          <ViewNotice problems={view.problems} onDismiss={() => update({})} />
          <ThreadsToolbar view={view} update={update} />
          {list.isPending ? (
            <div className="page-loading">
              <Spinner showLabel label="Loading threads" />
            </div>
          ) : (
            <ThreadsTable
              key={JSON.stringify(req)}
              list={list}
              projectId={projectId}
              sort={view.sort}
              onSortChange={(sort) => update({ sort })}
              rowSelection={selectable ? rowSelection : undefined}
              onRowSelectionChange={selectable ? setRowSelection : undefined}
              empty={
                <div className="empty-state">
                  <p>No threads match these filters.</p>
                  <button
                    type="button"
                    className="button"
                    onClick={() => update({ after: null, before: null, ids: [], filters: NO_FILTERS })}
                  >
                    Clear filters
                  </button>
                </div>
              }
            />
          )}
        </>
      )}
    </div>
  );
}

/** What a project without threads shows: how calls get grouped into conversations. */
function NoThreads() {
  return (
    <div className="empty-state">
      <p>No threads yet. A thread groups the calls of one conversation; each top-level call in it is a turn.</p>
      <pre className="code-block thread-snippet">{`import weave

with weave.thread("conversation-42"):
    answer = chat(question)   # each call here is a turn of the thread`}</pre>
      <p className="muted">Calls logged with a thread_id (and turn_id) through the API or OpenTelemetry show up here too.</p>
    </div>
  );
}
