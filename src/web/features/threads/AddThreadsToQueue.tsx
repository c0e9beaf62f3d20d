/**
 * "Add to queue" for whole conversations: from the threads list (the selected rows) and from a
 * thread's page. A dialog picks the queue (or makes one) and says how many threads were added
 * and how many were already queued (docs/dashboard.md "Pages").
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../components/ui/ErrorState.js';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { api } from '../../lib/api.js';
import { formatInteger, plural } from '../../lib/format.js';
import { annotationKeys, queuesQueryOptions } from '../../entities/annotationQueues/queueQueries.js';
import { pickedQueue, QueuePicker } from '../../entities/annotationQueues/QueuePicker.js';
import './threads.css';

/** Props: the project and the threads to add (none: the button is disabled). */
export interface AddThreadsToQueueProps {
  projectId: string;
  threadIds: string[];
}

/** The button and, while open, its dialog. */
export function AddThreadsToQueue({ projectId, threadIds }: AddThreadsToQueueProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={threadIds.length === 0}
        title={threadIds.length === 0 ? 'Select threads first' : undefined}
        onClick={() => setOpen(true)}
      >
        Add to queue
      </button>
      {open && <AddThreadsDialog projectId={projectId} threadIds={threadIds} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Queue choice, the add button, and the outcome. */
function AddThreadsDialog({ projectId, threadIds, onClose }: AddThreadsToQueueProps & { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [queueId, setQueueId] = useState('');
  const { data: queues } = useQuery(queuesQueryOptions(projectId));
  const queue = pickedQueue(queues, queueId);
  const add = useMutation({
    mutationFn: (target: { id: string; name: string }) =>
      api.annotationQueueAddThreads({ project_id: projectId, queue_id: target.id, thread_ids: threadIds }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
  const noun = threadIds.length === 1 ? 'thread' : 'threads';

  return (
    <ModalDialog title="Add to an annotation queue" onClose={onClose}>
      <div className="modal-body add-threads-to-queue">
        <p className="small">
          {threadIds.length === 1 ? (
            <>
              Thread <span className="mono">{threadIds[0]}</span>
            </>
          ) : (
            `${formatInteger(threadIds.length)} selected threads`
          )}
          , each reviewed as a whole conversation.
        </p>
        <QueuePicker projectId={projectId} queueId={queueId} onQueueId={setQueueId} disabled={add.isPending} />
        {add.isSuccess && (
          <p className="small" role="status">
            Added {plural(add.data.added_count, 'thread')} to {add.variables.name}
            {add.data.duplicates > 0 && ` · ${formatInteger(add.data.duplicates)} already queued`}.{' '}
            <Link to={`/${projectId}/annotation/${add.variables.id}`}>Open the queue →</Link>
          </p>
        )}
        {add.error && (
          <p className="form-error" role="alert">
            {describeError(add.error).title}: {describeError(add.error).detail}
          </p>
        )}
      </div>
      <footer className="modal-footer">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!queue || add.isPending}
          onClick={() => queue && add.mutate({ id: queue.id, name: queue.name })}
        >
          Add {formatInteger(threadIds.length)} {noun}
        </button>
      </footer>
    </ModalDialog>
  );
}
