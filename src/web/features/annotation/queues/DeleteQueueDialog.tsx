/** Confirms deleting a queue; the answers already given stay on the calls as feedback. */
import { describeError } from '../../../components/ui/ErrorState.js';
import { formatInteger } from '../../../lib/format.js';
import type { Queue } from '../annotationQueries.js';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import { useDeleteQueue } from '../queueMutations.js';
import '../annotation.css';

/** Props: the queue, its item count when known, and how to close. */
export interface DeleteQueueDialogProps {
  projectId: string;
  queue: Queue;
  total: number | null;
  onClose: () => void;
}

/** Delete confirmation. */
export function DeleteQueueDialog({ projectId, queue, total, onClose }: DeleteQueueDialogProps) {
  const remove = useDeleteQueue(projectId);
  return (
    <ModalDialog title="Delete queue?" onClose={onClose} className="confirm-dialog">
      <div className="modal-body">
        <p>
          <strong>{queue.name}</strong>
          {total !== null && total > 0 ? ` and its ${formatInteger(total)} ${total === 1 ? 'item' : 'items'}` : ''} will disappear for
          everyone.
        </p>
        <p className="muted">Answers already given stay on the calls as feedback. The calls themselves are not touched.</p>
        {remove.error && (
          <p className="form-error" role="alert">
            {describeError(remove.error).title}: {describeError(remove.error).detail}
          </p>
        )}
      </div>
      <footer className="modal-footer">
        <span className="spacer" />
        <button type="button" className="button ghost" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="button danger-solid"
          disabled={remove.isPending}
          onClick={() => remove.mutate(queue.id, { onSuccess: onClose })}
        >
          {remove.isPending ? 'Deleting…' : 'Delete queue'}
        </button>
      </footer>
    </ModalDialog>
  );
}
