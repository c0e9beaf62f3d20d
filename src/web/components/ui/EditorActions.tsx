/**
 * The foot of a modal editor form: why it cannot be saved yet, what the last save failed
 * with, and Save / Cancel. One place, so every editor says the same things the same way.
 */
import { FormStatus } from './FormStatus.js';

export function EditorActions(props: {
  /** Why the form cannot be saved yet; shown once the user has started filling it in. */
  problem: string | null;
  started: boolean;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {props.problem && props.started && <p className="small muted">{props.problem}</p>}
      <FormStatus error={props.error} />
      <div className="row">
        <button type="submit" className="button primary" disabled={!!props.problem || props.pending}>
          {props.submitLabel}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
