/** The inline editor for a new question: its name, prompt and kind (yes/no, score, category, text). */
import { useState } from 'react';
import { SPEC_NAME_PATTERN, type AnnotationField } from '../../../lib/annotationSpec.js';
import type { SpecDraft } from '../queueMutations.js';
import '../annotation.css';

type KindName = 'boolean' | 'score' | 'category' | 'text';

const KIND_LABELS: Record<KindName, string> = {
  boolean: 'Yes / no',
  score: 'Score (number in a range)',
  category: 'Category (pick one option)',
  text: 'Free text',
};

/** Props: names already taken (in the form or the project), and what to do with a finished draft. */
export interface SpecEditorProps {
  takenNames: string[];
  onAdd: (draft: SpecDraft) => void;
  onCancel: () => void;
}

/** Splits `good, bad , unsure` into options. */
function parseOptions(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  ];
}

/** New-question editor. */
export function SpecEditor({ takenNames, onAdd, onCancel }: SpecEditorProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kindName, setKindName] = useState<KindName>('category');
  const [min, setMin] = useState('1');
  const [max, setMax] = useState('5');
  const [integer, setInteger] = useState(true);
  const [options, setOptions] = useState('');
  const [maxLength, setMaxLength] = useState('');
  const [error, setError] = useState<string | null>(null);

  const build = (): AnnotationField | string => {
    switch (kindName) {
      case 'boolean':
        return { kind: 'boolean' };
      case 'score': {
        const lo = min.trim() === '' ? null : Number(min);
        const hi = max.trim() === '' ? null : Number(max);
        if ((lo !== null && !Number.isFinite(lo)) || (hi !== null && !Number.isFinite(hi))) return 'The range must be numbers';
        if (lo !== null && hi !== null && lo >= hi) return 'The minimum must be below the maximum';
        if (integer && ((lo !== null && !Number.isInteger(lo)) || (hi !== null && !Number.isInteger(hi))))
          return 'Whole-number scores need whole-number bounds';
        return { kind: 'number', min: lo, max: hi, integer };
      }
      case 'category': {
        const list = parseOptions(options);
        return list.length >= 2 ? { kind: 'category', options: list } : 'A category needs at least two options';
      }
      case 'text': {
        const n = maxLength.trim() === '' ? null : Number(maxLength);
        return n === null || (Number.isInteger(n) && n > 0)
          ? { kind: 'text', maxLength: n }
          : 'The length limit must be a positive whole number';
      }
    }
  };

  const add = () => {
    const trimmed = name.trim();
    if (!SPEC_NAME_PATTERN.test(trimmed)) return setError('Name: letters, digits, "_", "." or "-" (no spaces)');
    if (takenNames.includes(trimmed)) return setError(`A question named "${trimmed}" exists already: add it from the list instead`);
    const kind = build();
    if (typeof kind === 'string') return setError(kind);
    onAdd({ name: trimmed, description: description.trim(), kind });
  };

  return (
    <fieldset
      className="spec-editor"
      aria-label="New question"
      onKeyDown={(e) => {
        // Enter adds the question rather than submitting the queue form around it.
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
          e.preventDefault();
          add();
        }
      }}
    >
      <div className="spec-editor-grid">
        <label className="field">
          <span>Name</span>
          <input className="input mono" value={name} placeholder="e.g. correct" onChange={(e) => setName(e.target.value)} autoFocus />
        </label>
        <label className="field">
          <span>Kind</span>
          <select className="input" value={kindName} onChange={(e) => setKindName(e.target.value as KindName)}>
            {(Object.keys(KIND_LABELS) as KindName[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="field span-2">
          <span>
            Prompt <span className="muted">(optional, shown to reviewers)</span>
          </span>
          <input
            className="input"
            value={description}
            placeholder="e.g. Is the answer factually correct?"
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        {kindName === 'score' && (
          <div className="row span-2">
            <label className="field">
              <span>Minimum</span>
              <input className="input narrow-input" inputMode="decimal" value={min} onChange={(e) => setMin(e.target.value)} />
            </label>
            <label className="field">
              <span>Maximum</span>
              <input className="input narrow-input" inputMode="decimal" value={max} onChange={(e) => setMax(e.target.value)} />
            </label>
            <label className="toggle spec-integer">
              <input type="checkbox" checked={integer} onChange={(e) => setInteger(e.target.checked)} />
              Whole numbers only
            </label>
          </div>
        )}
        {kindName === 'category' && (
          <label className="field span-2">
            <span>
              Options <span className="muted">(comma-separated; keys 1–9 pick the first nine)</span>
            </span>
            <input
              className="input"
              value={options}
              placeholder="e.g. helpful, partly helpful, unhelpful"
              onChange={(e) => setOptions(e.target.value)}
            />
          </label>
        )}
        {kindName === 'text' && (
          <label className="field">
            <span>
              Length limit <span className="muted">(optional)</span>
            </span>
            <input className="input narrow-input" inputMode="numeric" value={maxLength} onChange={(e) => setMaxLength(e.target.value)} />
          </label>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="button" onClick={add}>
          Add question
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
