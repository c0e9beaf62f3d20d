/**
 * The questions of one review: choices as radio groups (one Tab stop each, arrows move inside,
 * the key to press shown on every choice), scores without keys as a number box, free text as a
 * text box. Controlled: the values live in the item's review.
 */
import type { KeyboardEvent } from 'react';
import { describeField } from '../../../lib/annotationSpec.js';
import { allChoices, type KeyChoice, type QueueField } from '../queueFields.js';
import './review.css';

/** Values by spec ref: choice values, or the text typed so far. */
export type Draft = ReadonlyMap<string, unknown>;

/** Props of the form. */
export interface AnnotationFormProps {
  fields: QueueField[];
  draft: Draft;
  onChange: (ref: string, value: unknown) => void;
  onActivate: (index: number) => void;
  /** Shows earlier answers without letting them change. */
  readOnly: boolean;
  errors: ReadonlyMap<string, string>;
}

/** Focuses question `index` of the form inside `root`: its checked choice, first choice, or box. */
export function focusQuestion(root: HTMLElement | null, index: number): void {
  const question = root?.querySelectorAll<HTMLElement>('[data-question]')[index];
  question?.querySelector<HTMLElement>('[role=radio][tabindex="0"], input, textarea')?.focus();
}

/** Annotation form. */
export function AnnotationForm({ fields, draft, onChange, onActivate, readOnly, errors }: AnnotationFormProps) {
  if (fields.length === 0) return <p className="muted">This queue asks no questions yet: edit the queue to add some, or skip.</p>;
  return (
    <div className="questions">
      {fields.map((field, i) => {
        const choices = allChoices(field.kind);
        const error = errors.get(field.ref);
        return (
          <div key={field.ref} className="question" data-question tabIndex={-1} onFocus={() => onActivate(i)}>
            <div className="question-head">
              <span className="question-name">{field.name}</span>
              <span className="muted small">{describeField(field.kind)}</span>
            </div>
            {field.description && <p className="question-prompt">{field.description}</p>}
            {choices ? (
              <ChoiceGroup
                field={field}
                choices={choices}
                value={draft.get(field.ref)}
                onPick={(v) => onChange(field.ref, v)}
                readOnly={readOnly}
              />
            ) : field.kind.kind === 'unsupported' ? (
              <p className="muted small">This question&apos;s schema is not one the form can fill in.</p>
            ) : field.kind.kind === 'text' ? (
              <textarea
                className="input textarea"
                rows={3}
                aria-label={field.name}
                value={String(draft.get(field.ref) ?? '')}
                maxLength={field.kind.maxLength ?? undefined}
                readOnly={readOnly}
                placeholder="Type, then Enter to submit (Shift+Enter: new line)"
                onChange={(e) => onChange(field.ref, e.target.value)}
              />
            ) : (
              <input
                className="input score-input"
                inputMode="decimal"
                aria-label={field.name}
                value={String(draft.get(field.ref) ?? '')}
                readOnly={readOnly}
                placeholder={describeField(field.kind)}
                onChange={(e) => onChange(field.ref, e.target.value)}
              />
            )}
            {error && <p className="form-error small">{error}</p>}
          </div>
        );
      })}
    </div>
  );
}

/** One question's choices as a radio group with a roving Tab stop. */
function ChoiceGroup({
  field,
  choices,
  value,
  onPick,
  readOnly,
}: {
  field: QueueField;
  choices: KeyChoice[];
  value: unknown;
  onPick: (v: unknown) => void;
  readOnly: boolean;
}) {
  const checkedIndex = choices.findIndex((c) => c.value === value);
  const stop = checkedIndex >= 0 ? checkedIndex : 0;
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const by = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (by === 0) return;
    e.preventDefault();
    const next = (i + by + choices.length) % choices.length;
    const group = e.currentTarget.parentElement;
    if (!readOnly) onPick(choices[next]!.value);
    group?.querySelectorAll<HTMLElement>('[role=radio]')[next]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={field.name} aria-readonly={readOnly || undefined} className={`choices kind-${field.kind.kind}`}>
      {choices.map((c, i) => (
        <button
          key={String(c.value)}
          type="button"
          role="radio"
          aria-checked={i === checkedIndex}
          tabIndex={i === stop ? 0 : -1}
          className={c.key === c.label ? 'choice digit' : 'choice'}
          aria-keyshortcuts={c.key || undefined}
          onClick={() => !readOnly && onPick(c.value)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {/* A score whose digit is its own key shows the digit once. */}
          {c.key && c.key !== c.label && <kbd>{c.key}</kbd>}
          <span>{c.label}</span>
        </button>
      ))}
    </div>
  );
}
