/**
 * One queue, for the person running it: overall completion, progress per reviewer, the answer
 * distribution of every question, and every item with its state, reviewers and answers (each
 * opens on the review page). From here the answers leave as CSV, JSON lines or a Dataset, and
 * whole threads can be added.
 */
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api } from '../../../lib/api.js';
import { formatInteger } from '../../../lib/format.js';
import { AddThreadsDialog } from './AddThreadsDialog.js';
import { queueFieldsQueryOptions, queueQueryOptions, queueResultsQueryOptions, queueSummaryQueryOptions } from '../annotationQueries.js';
import { CompletionBar } from '../CompletionBar.js';
import { QueueItemsTable } from './QueueItemsTable.js';
import { QueueSummaryPanel } from './QueueSummaryPanel.js';
import { SaveDatasetDialog } from './SaveDatasetDialog.js';
import { useCan } from '../../auth/useCan.js';
import { AddToDatasetButton, selectionSource } from '../../datasets/addToDataset/AddToDatasetButton.js';
import '../annotation.css';

/** Downloads the queue's answers in `format` as a file. */
async function downloadExport({ projectId, queueId, format }: { projectId: string; queueId: string; format: 'csv' | 'jsonl' }) {
  const res = await api.annotationQueueExport({ project_id: projectId, queue_id: queueId, format });
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `answers.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Queue page. */
export function QueuePage() {
  const { entity = '', project = '', queueId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const { data: queue } = useSuspenseQuery(queueQueryOptions({ projectId, queueId }));
  const { data: fields } = useSuspenseQuery(queueFieldsQueryOptions(queue.scorer_refs));
  const summary = useQuery(queueSummaryQueryOptions({ projectId, queueId }));
  const results = useQuery(queueResultsQueryOptions({ projectId, queueId }));
  const [dialog, setDialog] = useState<'dataset' | 'threads' | null>(null);
  const exporter = useMutation({ mutationFn: (format: 'csv' | 'jsonl') => downloadExport({ projectId, queueId, format }) });
  const base = `/${entity}/${project}/annotation`;
  const can = useCan(projectId);
  const addThreads = can('annotationQueueAddThreads');
  const saveDataset = can('annotationQueueSaveDataset');
  const review = can('annotationQueueItemSubmit');
  const addToDataset = can('datasetAddFromTraces');
  // Items picked in the table for "Add to dataset" (with their answers).
  const [selected, setSelected] = useState<string[]>([]);
  const s = summary.data;
  // "Done" is reviewed (every review the queue wants), as the items and the queues list count it.
  const progress = s?.items_by_progress;

  return (
    <div className="page queue-page">
      <header className="page-header">
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link to={base}>Annotation queues</Link>
          <span className="muted" aria-hidden="true">
            /
          </span>
        </nav>
        <h1 className="ellipsis">{queue.name}</h1>
        <span className="spacer" />
        {addThreads.allowed && (
          <button type="button" className="button" onClick={() => setDialog('threads')}>
            Add threads
          </button>
        )}
        <button type="button" className="button" disabled={exporter.isPending} onClick={() => exporter.mutate('csv')}>
          Export CSV
        </button>
        <button type="button" className="button" disabled={exporter.isPending} onClick={() => exporter.mutate('jsonl')}>
          Export JSONL
        </button>
        {addToDataset.allowed && (
          <AddToDatasetButton projectId={projectId} source={selectionSource.queueItems(queueId, selected)} noun="items" />
        )}
        <button
          type="button"
          className="button"
          disabled={!saveDataset.allowed}
          title={saveDataset.reason ?? undefined}
          onClick={() => setDialog('dataset')}
        >
          Save as dataset
        </button>
        {review.allowed ? (
          <Link className="button primary" to={`${base}/${queueId}/review`}>
            Review
          </Link>
        ) : (
          <button type="button" className="button primary" disabled title={review.reason ?? undefined}>
            Review
          </button>
        )}
      </header>
      {queue.description && <p className="muted">{queue.description}</p>}
      {exporter.error && (
        <p className="form-error" role="alert">
          Export failed: {exporter.error.message}
        </p>
      )}
      {s && progress && (
        <div className="queue-overview" aria-label="Queue progress">
          <CompletionBar done={progress.reviewed} total={s.total_items} label="Queue completion" />
          <span className="muted small">
            {formatInteger(progress.reviewed)} completed
            {s.reviewers_per_item > 1 && ` (${s.reviewers_per_item} reviews each)`} ·{' '}
            {s.reviewers_per_item > 1 && `${formatInteger(progress.partly_reviewed)} partly reviewed · `}
            {formatInteger(progress.in_progress)} in progress · {formatInteger(progress.skipped)} skipped ·{' '}
            {formatInteger(progress.unstarted)} not started
          </span>
        </div>
      )}
      {summary.error ? (
        <p className="form-error">Could not load the summary: {summary.error.message}</p>
      ) : s ? (
        <QueueSummaryPanel summary={s} fields={fields} />
      ) : (
        <p className="muted">Loading summary…</p>
      )}
      <section aria-labelledby="items-title" className="queue-items-section">
        <h2 id="items-title">Items {results.data && <span className="muted small">({formatInteger(results.data.total)})</span>}</h2>
        {results.error ? (
          <p className="form-error">Could not load the items: {results.error.message}</p>
        ) : results.data ? (
          <QueueItemsTable
            rows={results.data.rows}
            total={results.data.total}
            fields={fields}
            reviewersPerItem={queue.reviewers_per_item}
            reviewHref={(itemId) => `${base}/${queueId}/review?item=${itemId}`}
            selection={addToDataset.allowed ? { ids: selected, onChange: setSelected } : undefined}
          />
        ) : (
          <p className="muted">Loading items…</p>
        )}
      </section>
      {dialog === 'dataset' && (
        <SaveDatasetDialog projectId={projectId} queueId={queueId} queueName={queue.name} onClose={() => setDialog(null)} />
      )}
      {dialog === 'threads' && <AddThreadsDialog projectId={projectId} queueId={queueId} onClose={() => setDialog(null)} />}
    </div>
  );
}
