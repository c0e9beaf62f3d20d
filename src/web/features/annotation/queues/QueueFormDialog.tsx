/**
 * Create or edit a queue in a dialog: name, description, questions (existing specs or new ones
 * written inline) and the call fields reviewers see. Editing loads the queue's current
 * questions and fields first.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useState, type FormEvent } from 'react';
import { describeError } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { queueFieldsQueryOptions, type Queue } from '../annotationQueries.js';
import { DisplayFieldsEditor } from './DisplayFieldsEditor.js';
import { DEFAULT_DISPLAY_FIELDS } from '../displayFields.js';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import { QuestionList } from './QuestionList.js';
import { useSaveQueue, type QueueDraft } from '../queueMutations.js';
import '../annotation.css';

/** Props: the project, the queue to edit (null: a new one), and what happens after. */
export interface QueueFormDialogProps {
  projectId: string;
  queue: Queue | null;
  onClose: () => void;
  onSaved: (queueId: string) => void;
}

/** The queue dialog. */
export function QueueFormDialog({ projectId, queue, onClose, onSaved }: QueueFormDialogProps) {
  return (
    <ModalDialog title={queue ? `Edit ${queue.name}` : 'New annotation queue'} onClose={onClose} className="queue-dialog">
      <Suspense
        fallback={
          <div className="page-loading">
            <Spinner showLabel label="Loading queue" />
          </div>
        }
      >
        {queue ? (
          <EditQueueForm projectId={projectId} queue={queue} onClose={onClose} onSaved={onSaved} />
        ) : (
          <QueueForm
            projectId={projectId}
            queueId={null}
            initial={{ name: '', description: '', fields: [], displayFields: DEFAULT_DISPLAY_FIELDS }}
            onClose={onClose}
            onSaved={onSaved}
          />
        )}
      </Suspense>
    </ModalDialog>
  );
}

/** Loads an existing queue's questions and fields into the form. */
function EditQueueForm({
  projectId,
  queue,
  onClose,
  onSaved,
}: {
  projectId: string;
  queue: Queue;
  onClose: () => void;
  onSaved: (id: string) => void;
}) {
  const { data: fields } = useSuspenseQuery(queueFieldsQueryOptions(queue.scorer_refs));
  const initial: QueueDraft = {
    name: queue.name,
    description: queue.description,
    fields: fields.map((field) => ({ type: 'existing', field })),
    displayFields: queue.display_fields ?? DEFAULT_DISPLAY_FIELDS,
  };
  return <QueueForm projectId={projectId} queueId={queue.id} initial={initial} onClose={onClose} onSaved={onSaved} />;
}

/** The form itself. */
function QueueForm({
  projectId,
  queueId,
  initial,
  onClose,
  onSaved,
}: {
  projectId: string;
  queueId: string | null;
  initial: QueueDraft;
  onClose: () => void;
  onSaved: (id: string) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useSaveQueue(projectId);
  const patch = (p: Partial<QueueDraft>) => setDraft((d) => ({ ...d, ...p }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.name.trim()) return setInvalid('Give the queue a name');
    if (draft.fields.length === 0) return setInvalid('Add at least one question for reviewers to answer');
    setInvalid(null);
    save.mutate({ queueId, draft }, { onSuccess: onSaved });
  };
  const error = invalid ?? (save.error ? `${describeError(save.error).title}: ${describeError(save.error).detail}` : null);

  return (
    <form className="queue-form" onSubmit={submit}>
      <div className="queue-form-body">
        <label className="field">
          <span>Name</span>
          <input
            className="input"
            value={draft.name}
            onChange={(e) => patch({ name: e.target.value })}
            placeholder="e.g. Support answers, week 12"
            autoFocus
          />
        </label>
        <label className="field">
          <span>
            Description <span className="muted">(optional)</span>
          </span>
          <textarea
            className="input textarea"
            rows={2}
            value={draft.description}
            onChange={(e) => patch({ description: e.target.value })}
            placeholder="What reviewers should look for"
          />
        </label>
        <QuestionList projectId={projectId} entries={draft.fields} onChange={(fields) => patch({ fields })} />
        <DisplayFieldsEditor projectId={projectId} fields={draft.displayFields} onChange={(displayFields) => patch({ displayFields })} />
      </div>
      <footer className="modal-footer">
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <span className="spacer" />
        <button type="button" className="button ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : queueId ? 'Save changes' : 'Create queue'}
        </button>
      </footer>
    </form>
  );
}
