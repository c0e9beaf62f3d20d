/**
 * One annotation value, entered the way its field asks: Yes/No buttons for booleans, a select
 * for categories, a number input with the spec's range, or a text input. Booleans and
 * categories save on click; numbers and text save with Enter or the Save button.
 */
import { useState, type FormEvent } from 'react';
import { checkValue, type AnnotationField } from '../../lib/annotationSpec.js';
import { formatFeedbackValue } from '../../entities/feedback/feedbackModel.js';
import './feedback.css';

/** Props: the field, the viewer's current value (undefined: none) and what to do on save or clear. */
export interface AnnotationInputProps {
  name: string;
  field: AnnotationField;
  value: unknown;
  busy: boolean;
  onSave: (value: unknown) => void;
  /** Null when there is nothing of the viewer's to clear. */
  onClear: (() => void) | null;
}

/** The input for one annotation field. */
export function AnnotationInput({ name, field, value, busy, onSave, onClear }: AnnotationInputProps) {
  if (field.kind === 'boolean') {
    return (
      <div className="fb-choice" role="group" aria-label={name}>
        {[true, false].map((choice) => (
          <button
            key={String(choice)}
            type="button"
            className="button small"
            aria-pressed={value === choice}
            disabled={busy}
            onClick={() => (value === choice ? onClear?.() : onSave(choice))}
          >
            {choice ? 'Yes' : 'No'}
          </button>
        ))}
      </div>
    );
  }
  if (field.kind === 'category') {
    return (
      <select
        className="input"
        aria-label={name}
        value={typeof value === 'string' ? value : ''}
        disabled={busy}
        onChange={(e) => (e.target.value ? onSave(e.target.value) : onClear?.())}
      >
        <option value="">—</option>
        {field.options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    );
  }
  if (field.kind === 'unsupported') {
    return <span className="mono small">{value === undefined ? 'Not editable here' : formatFeedbackValue(value)}</span>;
  }
  return <TypedInput name={name} field={field} value={value} busy={busy} onSave={onSave} onClear={onClear} />;
}

/** Number or text: a small form with validation against the spec. */
function TypedInput({
  name,
  field,
  value,
  busy,
  onSave,
  onClear,
}: AnnotationInputProps & { field: Extract<AnnotationField, { kind: 'number' | 'text' }> }) {
  const initial = value === undefined || value === null ? '' : String(value);
  const [draft, setDraft] = useState(initial);
  const parsed = field.kind === 'number' ? (draft.trim() === '' ? NaN : Number(draft)) : draft;
  const problem = draft === '' ? null : checkValue(field, parsed);
  const dirty = draft !== initial;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (dirty && draft !== '' && !problem) onSave(parsed);
  };
  const range =
    field.kind === 'number' && (field.min !== null || field.max !== null) ? `${field.min ?? '…'} – ${field.max ?? '…'}` : undefined;

  return (
    <form className="fb-typed" onSubmit={submit}>
      <input
        className="input"
        aria-label={name}
        aria-invalid={problem ? true : undefined}
        type={field.kind === 'number' ? 'number' : 'text'}
        inputMode={field.kind === 'number' ? 'decimal' : undefined}
        min={field.kind === 'number' ? (field.min ?? undefined) : undefined}
        max={field.kind === 'number' ? (field.max ?? undefined) : undefined}
        step={field.kind === 'number' ? (field.integer ? 1 : 'any') : undefined}
        maxLength={field.kind === 'text' ? (field.maxLength ?? undefined) : undefined}
        placeholder={range ?? (field.kind === 'number' ? 'number' : 'text')}
        value={draft}
        disabled={busy}
        onChange={(e) => setDraft(e.target.value)}
      />
      {dirty && (
        <button type="submit" className="button small primary" disabled={busy || draft === '' || problem !== null}>
          Save
        </button>
      )}
      {!dirty && onClear && (
        <button type="button" className="button small ghost" disabled={busy} onClick={onClear}>
          Clear
        </button>
      )}
      {problem && <span className="fb-error small">{problem}</span>}
    </form>
  );
}
