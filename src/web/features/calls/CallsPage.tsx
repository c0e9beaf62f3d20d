/**
 * The Calls page: a project's calls with filters, sorting, columns, live refresh and export,
 * all from the URL. A project without calls shows how to send its first trace instead.
 */
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/Spinner.js';
import { ViewNotice } from '../../components/ui/ViewNotice.js';
import { formatInteger } from '../../lib/format.js';
import { AddToQueueMenu } from '../annotation/queues/AddToQueueMenu.js';
import { AddToDatasetButton, selectionSource } from '../datasets/addToDataset/AddToDatasetButton.js';
import { GettingStarted } from '../gettingStarted/GettingStarted.js';
import { ScoreWithMenu } from '../judges/ScoreWithMenu.js';
import { useCallsView, withColumn } from '../../entities/calls/callsViewState.js';
import { CallsStats } from './CallsStats.js';
import { CallsTable } from './CallsTable.js';
import { CallsToolbar } from './CallsToolbar.js';
import { ExportMenu } from './ExportMenu.js';
import { roundedNow, toListRequest } from '../../entities/calls/listRequest.js';
import { useCallsPages } from './useCallsPages.js';
import { useViewFallback } from './useViewFallback.js';
import { useRememberedColumns } from './useRememberedColumns.js';
import { useCan } from '../auth/useCan.js';
import './calls.css';
import { SavedViewsButton } from '../savedViews/SavedViewsButton.js';
import { useDefaultView } from '../savedViews/useDefaultView.js';

/** Calls page. */
export function CallsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [linkView, updateLink] = useCallsView();
  const [urlView, update] = useRememberedColumns(linkView, updateLink);
  // A sort or filter the server refuses falls back to the default (the list's error decides).
  const [listError, setListError] = useState<Error | null>(null);
  const fallback = useViewFallback(urlView, listError);
  const view = fallback.effective;
  const req = useMemo(
    () => toListRequest({ projectId, view, now: roundedNow() }),
    // Recompute "now" only when the view changes, so the request (and its cache key) is stable.
    [projectId, view],
  );
  const pages = useCallsPages({ req, live: view.live, newestFirst: view.sort.field === 'started_at' && view.sort.direction === 'desc' });
  if (pages.error !== listError) setListError(pages.error);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const selectedIds = Object.keys(rowSelection).filter((id) => rowSelection[id]);
  const filtered = view.clauses.length > 0 || view.since !== null;
  const projectIsEmpty = pages.total === 0 && !filtered;
  const can = useCan(projectId);
  // A fresh visit opens the project's default view (docs/saved-views.md).
  useDefaultView(projectId, 'traces');

  return (
    <div className="page calls-page">
      <header className="page-header">
        <h1>Calls</h1>
        <span className="muted" aria-live="polite">
          {pages.total !== null && !pages.error && !projectIsEmpty
            ? `${formatInteger(pages.total)} ${view.rootsOnly ? 'traces' : 'calls'}`
            : ''}
        </span>
        {!projectIsEmpty && <CallsStats projectId={projectId} view={view} />}
        {pages.isFetching && <Spinner label="Updating" />}
        <div className="spacer" />
        <SavedViewsButton viewType="traces" />
        {!projectIsEmpty && (
          <>
            <label className="toggle" title="Refresh every few seconds, keeping your place">
              <input type="checkbox" checked={view.live} onChange={(e) => update({ live: e.target.checked })} />
              Live
            </label>
            {can('callsScoreJob').allowed && (
              <ScoreWithMenu
                projectId={projectId}
                req={req}
                total={pages.total}
                selectedIds={selectedIds}
                onStarted={() => update({ columns: withColumn(view.columns, 'scores') })}
              />
            )}
            {can('annotationQueueAddCalls').allowed && (
              <AddToQueueMenu projectId={projectId} req={req} total={pages.total} selectedIds={selectedIds} />
            )}
            {can('datasetAddFromTraces').allowed && (
              <AddToDatasetButton projectId={projectId} source={selectionSource.calls(selectedIds)} noun="calls" />
            )}
            <ExportMenu req={req} total={pages.total} selectedIds={selectedIds} />
          </>
        )}
      </header>
      {projectIsEmpty ? (
        <GettingStarted entity={entity} project={project} />
      ) : (
        <>
          <ViewNotice problems={fallback.problems} onDismiss={() => update(fallback.cleanPatch)} />
          <CallsToolbar view={view} update={update} projectId={projectId} />
          {(!pages.firstPageReady && !pages.error) || fallback.pendingFallback ? (
            <div className="page-loading">
              <Spinner showLabel label="Loading calls" />
            </div>
          ) : (
            <CallsTable
              view={view}
              pages={pages}
              onSortChange={(sort) => update({ sort })}
              rowSelection={rowSelection}
              onRowSelectionChange={setRowSelection}
              empty={
                <div className="empty-state">
                  <p>No calls match these filters.</p>
                  <button type="button" className="button" onClick={() => update({ clauses: [], since: null })}>
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
