/**
 * Adding whole conversations to a queue: the project's most recently active threads with their
 * turn counts, picked by checkbox. Reviewers then see each as a conversation; answers land on
 * the thread's first turn.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, collect } from '../../../lib/api.js';
import { formatInteger, formatRelative } from '../../../lib/format.js';
import { annotationKeys } from '../annotationQueries.js';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import '../annotation.css';

/** Threads offered at most. */
const OFFERED = 100;

/** Add-threads dialog. */
export function AddThreadsDialog({ projectId, queueId, onClose }: { projectId: string; queueId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const threads = useQuery({
    queryKey: annotationKeys.recentThreads(projectId),
    queryFn: ({ signal }) =>
      collect(
        api.threadsStreamQuery(
          { project_id: projectId, sort_by: [{ field: 'last_updated', direction: 'desc' }], limit: OFFERED },
          { signal },
        ),
      ),
  });
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const add = useMutation({
    mutationFn: () => api.annotationQueueAddThreads({ project_id: projectId, queue_id: queueId, thread_ids: [...picked] }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
  const toggle = (id: string) =>
    setPicked((p) => {
      const next = new Set(p);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <ModalDialog title="Add threads to the queue" onClose={onClose} className="add-threads-dialog">
      <div className="modal-body">
        {threads.isPending ? (
          <p className="muted">Loading threads…</p>
        ) : threads.error ? (
          <p className="form-error">Could not load the threads.</p>
        ) : threads.data.length === 0 ? (
          <p className="muted">This project has no threads yet.</p>
        ) : (
          <ul className="thread-picks" aria-label="Threads">
            {threads.data.map((t) => (
              <li key={t.thread_id}>
                <label>
                  <input type="checkbox" checked={picked.has(t.thread_id)} onChange={() => toggle(t.thread_id)} />
                  <span className="mono ellipsis">{t.thread_id}</span>
                  <span className="muted small">
                    {formatInteger(t.turn_count)} {t.turn_count === 1 ? 'turn' : 'turns'}
                    {t.last_updated && ` · ${formatRelative(t.last_updated)}`}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {add.data && (
          <p role="status">
            Added {formatInteger(add.data.added_count)} {add.data.added_count === 1 ? 'thread' : 'threads'}
            {add.data.duplicates > 0 && ` (${formatInteger(add.data.duplicates)} already queued)`}.
          </p>
        )}
        {add.error && (
          <p className="form-error" role="alert">
            Could not add the threads: {add.error.message}
          </p>
        )}
      </div>
      <footer className="modal-footer">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button primary" disabled={picked.size === 0 || add.isPending} onClick={() => add.mutate()}>
          Add {formatInteger(picked.size)} {picked.size === 1 ? 'thread' : 'threads'}
        </button>
      </footer>
    </ModalDialog>
  );
}
