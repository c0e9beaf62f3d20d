/**
 * The annotation queues of a project: each with its questions, item count and completion, and
 * the ways in (review), around (edit) and out (delete). The name opens the queue's own page
 * (items, reviewers, results, export). Calls are added from the Calls page, threads from there.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useListPlace } from '../../../components/table/useListPlace.js';
import { useRowCursor } from '../../../components/table/useRowCursor.js';
import { formatInteger, formatRelative } from '../../../lib/format.js';
import { queuesQueryOptions, queueStatsQueryOptions, type Queue } from '../annotationQueries.js';
import { CompletionBar } from '../CompletionBar.js';
import { DeleteQueueDialog } from './DeleteQueueDialog.js';
import { QueueFormDialog } from './QueueFormDialog.js';
import { useCan } from '../../auth/useCan.js';
import '../annotation.css';

/** `weave:///e/p/object/quality:abc` → `quality`. */
const refName = (ref: string) => /\/object\/([^/:]+)/.exec(ref)?.[1] ?? ref;

/** Queues page. */
export function QueuesPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const { data: queues } = useSuspenseQuery(queuesQueryOptions(projectId));
  const { data: stats } = useQuery(queueStatsQueryOptions({ projectId, queueIds: queues.map((q) => q.id) }));
  const [editing, setEditing] = useState<{ queue: Queue | null } | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const [created, setCreated] = useState(false);
  const can = useCan(projectId);
  const create = can('annotationQueueCreate');
  const mayReview = can('annotationQueueItemSubmit');
  const mayEdit = can('annotationQueueUpdate').allowed;
  const mayDelete = can('annotationQueueDelete').allowed;
  // Row cursor: j/k or ↑/↓ move between queues, Enter starts reviewing the one under it.
  const navigate = useNavigate();
  const rowsRef = useRef<HTMLTableSectionElement>(null);
  const cursor = useRowCursor({
    rowCount: queues.length,
    containerRef: rowsRef,
    onOpen: (i) => void navigate(mayReview.allowed ? `${queues[i]!.id}/review` : queues[i]!.id),
    pageKeys: editing === null && deleting === null,
    place: useListPlace('queues'),
  });

  return (
    <div className="page queues-page">
      <header className="page-header">
        <h1>Annotation queues</h1>
        <span className="muted">
          {queues.length > 0 ? `${formatInteger(queues.length)} ${queues.length === 1 ? 'queue' : 'queues'}` : ''}
        </span>
        <div className="spacer" />
        <button
          type="button"
          className="button primary"
          disabled={!create.allowed}
          title={create.reason ?? undefined}
          onClick={() => setEditing({ queue: null })}
        >
          New queue
        </button>
      </header>
      {created && queues.length > 0 && (
        <div className="notice" role="status">
          <span>
            Queue created. Now pick calls on the <Link to={`/${entity}/${project}/calls`}>Calls</Link> page and choose “Add to queue”.
          </span>
          <button type="button" className="button ghost small" onClick={() => setCreated(false)}>
            Dismiss
          </button>
        </div>
      )}
      {queues.length === 0 ? (
        <div className="empty-state">
          <div className="empty-state-badge">No queues yet</div>
          <p>
            A queue is a list of calls for people to review. Each reviewer answers the queue&apos;s questions per call, one call at a time,
            mostly from the keyboard; answers are stored as feedback on the calls.
          </p>
          <p className="muted">
            Create a queue, then select calls on the <Link to={`/${entity}/${project}/calls`}>Calls</Link> page and choose “Add to queue”.
          </p>
        </div>
      ) : (
        <table className="simple-table queues-table" aria-label="Annotation queues">
          <thead>
            <tr>
              <th>Queue</th>
              <th>Questions</th>
              <th className="num">Calls</th>
              <th className="progress-col">Completed</th>
              <th>Updated</th>
              <th className="actions-col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody ref={rowsRef} onKeyDown={cursor.onKeyDown}>
            {queues.map((q, i) => {
              const s = stats?.get(q.id);
              return (
                <tr key={q.id} {...cursor.rowProps(i)}>
                  <td>
                    <Link className="queue-name" to={q.id}>
                      {q.name}
                    </Link>
                    {q.description && <div className="muted small ellipsis queue-description">{q.description}</div>}
                  </td>
                  <td className="small" data-label="Questions">
                    {q.scorer_refs.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <span className="mono">{q.scorer_refs.map(refName).join(', ')}</span>
                    )}
                  </td>
                  <td className="num" data-label="Calls">
                    {s ? formatInteger(s.total) : <span className="skeleton" />}
                  </td>
                  <td>
                    {s ? <CompletionBar done={s.reviewed} total={s.total} label={`${q.name} completion`} /> : <span className="skeleton" />}
                  </td>
                  <td title={q.updated_at} data-label="Updated">
                    {formatRelative(q.updated_at)}
                  </td>
                  <td className="row-actions">
                    {mayReview.allowed ? (
                      <Link className="button small" to={`${q.id}/review`} aria-label={`Review ${q.name}`}>
                        Review
                      </Link>
                    ) : (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Review ${q.name}`}
                        disabled
                        title={mayReview.reason ?? undefined}
                      >
                        Review
                      </button>
                    )}
                    {mayEdit && (
                      <button
                        type="button"
                        className="button small ghost"
                        aria-label={`Edit ${q.name}`}
                        onClick={() => setEditing({ queue: q })}
                      >
                        Edit
                      </button>
                    )}
                    {mayDelete && (
                      <button
                        type="button"
                        className="button small ghost danger"
                        aria-label={`Delete ${q.name}`}
                        onClick={() => setDeleting(q)}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {editing && (
        <QueueFormDialog
          projectId={projectId}
          queue={editing.queue}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            if (!editing.queue) setCreated(true);
          }}
        />
      )}
      {deleting && (
        <DeleteQueueDialog
          projectId={projectId}
          queue={deleting}
          total={stats?.get(deleting.id)?.total ?? null}
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
