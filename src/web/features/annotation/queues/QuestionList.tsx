/** The queue form's questions: ordered, each an existing AnnotationSpec or one written inline. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { specsQueryOptions } from '../annotationQueries.js';
import { describeField } from '../../../lib/annotationSpec.js';
import type { FieldEntry } from '../queueMutations.js';
import { SpecEditor } from './SpecEditor.js';
import '../annotation.css';

const entryName = (e: FieldEntry) => (e.type === 'existing' ? e.field.name : e.draft.name);

/** Props: the project (for existing specs) and the controlled list. */
export interface QuestionListProps {
  projectId: string;
  entries: FieldEntry[];
  onChange: (entries: FieldEntry[]) => void;
}

/** Question list editor. */
export function QuestionList({ projectId, entries, onChange }: QuestionListProps) {
  const { data: specs, isPending } = useQuery(specsQueryOptions(projectId));
  const [writing, setWriting] = useState(entries.length === 0);
  const taken = entries.map(entryName);
  const available = (specs ?? []).filter((s) => !taken.includes(s.name));

  const move = (i: number, by: number) => {
    const next = [...entries];
    const [e] = next.splice(i, 1);
    next.splice(i + by, 0, e!);
    onChange(next);
  };

  return (
    <fieldset className="question-list">
      <legend>Questions</legend>
      {entries.length === 0 ? (
        <p className="muted small">No questions yet. Reviewers answer each one per call; answers are stored as feedback on the call.</p>
      ) : (
        <ol className="question-items">
          {entries.map((e, i) => (
            <li key={entryName(e)} className="question-item">
              <span className="question-index muted">{i + 1}</span>
              <span className="mono">{entryName(e)}</span>
              <span className="muted small ellipsis">{describeField(e.type === 'existing' ? e.field.kind : e.draft.kind)}</span>
              {e.type === 'new' && <span className="tag">new</span>}
              <span className="spacer" />
              <button
                type="button"
                className="button ghost icon small"
                aria-label={`Move ${entryName(e)} up`}
                disabled={i === 0}
                onClick={() => move(i, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="button ghost icon small"
                aria-label={`Move ${entryName(e)} down`}
                disabled={i === entries.length - 1}
                onClick={() => move(i, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="button ghost small"
                aria-label={`Remove ${entryName(e)}`}
                onClick={() => onChange(entries.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      {writing ? (
        <SpecEditor
          takenNames={[...taken, ...(specs ?? []).map((s) => s.name)]}
          onAdd={(draft) => {
            onChange([...entries, { type: 'new', draft }]);
            setWriting(false);
          }}
          onCancel={() => setWriting(false)}
        />
      ) : (
        <div className="row">
          <button type="button" className="button" onClick={() => setWriting(true)}>
            New question…
          </button>
          <select
            className="input"
            aria-label="Add an existing question"
            value=""
            disabled={isPending || available.length === 0}
            onChange={(e) => {
              const field = available.find((s) => s.ref === e.target.value);
              if (field) onChange([...entries, { type: 'existing', field }]);
            }}
          >
            <option value="">
              {isPending ? 'Loading questions…' : available.length ? 'Add an existing question…' : 'No other questions in this project'}
            </option>
            {available.map((s) => (
              <option key={s.ref} value={s.ref}>
                {s.name} — {describeField(s.kind)}
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}
