/** Notes on a call: each with its author and time, the viewer's own removable, and a box to add one. */
import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { FeedbackMeta } from './FeedbackMeta.js';
import { NOTE_TYPE, noteText, notesOf, type FeedbackRow } from '../../entities/feedback/feedbackModel.js';
import { useFeedbackMutations } from '../../entities/feedback/feedbackQueries.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { useCan } from '../auth/useCan.js';
import './feedback.css';

/** The server's limit on a note, in characters. */
const MAX_NOTE = 1024;

/** Notes and the add-note form. */
export function NotesList({ projectId, callId, rows, me }: { projectId: string; callId: string; rows: FeedbackRow[]; me: string }) {
  const { create, remove } = useFeedbackMutations({ projectId, callId });
  const [draft, setDraft] = useState('');
  const can = useCan(projectId);
  const mayAdd = can('feedbackCreate').allowed;
  const mayDelete = can('feedbackPurge').allowed;
  const notes = notesOf(rows);
  const text = draft.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text) return;
    create.mutate({ feedback_type: NOTE_TYPE, payload: { note: text } }, { onSuccess: () => setDraft('') });
  };

  return (
    <div className="fb-block">
      <h4>Notes</h4>
      {notes.length > 0 && (
        <ul className="fb-notes" aria-label="Notes">
          {notes.map((row) => (
            <li key={row.id}>
              <div className="fb-note-head">
                <FeedbackMeta row={row} />
                {row.wb_user_id === me && mayDelete && (
                  <ConfirmButton
                    label="Delete"
                    ariaLabel="Delete note"
                    question="Delete this note?"
                    confirmLabel="Delete"
                    disabled={remove.isPending}
                    onConfirm={() => remove.mutate(row.id)}
                  />
                )}
              </div>
              <p className="fb-note-text">{noteText(row)}</p>
            </li>
          ))}
        </ul>
      )}
      {notes.length === 0 && !mayAdd && <p className="muted small">No notes.</p>}
      {mayAdd && (
        <form className="fb-note-form" onSubmit={submit}>
          <textarea
            className="input"
            aria-label="New note"
            placeholder="Add a note about this call"
            rows={2}
            maxLength={MAX_NOTE}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e);
            }}
          />
          <div className="row">
            <span className="muted small">{draft.length > MAX_NOTE - 100 ? `${MAX_NOTE - draft.length} characters left` : ''}</span>
            <div className="spacer" />
            <button type="submit" className="button small" disabled={!text || create.isPending}>
              Add note
            </button>
          </div>
        </form>
      )}
      <MutationError mutations={[create, remove]} />
    </div>
  );
}
