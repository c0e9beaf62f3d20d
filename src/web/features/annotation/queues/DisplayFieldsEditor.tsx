/** Which call fields reviewers see (`inputs.messages`, `output`, ...): removable chips plus a path input. */
import { useState } from 'react';
import { FieldPathInput } from '../../../entities/calls/FieldPathInput.js';
import { normalizeFields } from '../displayFields.js';
import '../annotation.css';

/** Props: the project (for path suggestions) and the controlled list. */
export interface DisplayFieldsEditorProps {
  projectId: string;
  fields: string[];
  onChange: (fields: string[]) => void;
}

/** Display-fields editor. */
export function DisplayFieldsEditor({ projectId, fields, onChange }: DisplayFieldsEditorProps) {
  const [path, setPath] = useState('');
  const add = () => {
    if (!path.trim()) return;
    onChange(normalizeFields([...fields, path]));
    setPath('');
  };
  return (
    <fieldset className="display-fields">
      <legend>Call fields reviewers see</legend>
      <p className="muted small">
        Conversations (<code>inputs.messages</code>, chat outputs) show as chat; other fields as JSON. Reviewers can open the full trace.
      </p>
      <ul className="field-chips" aria-label="Shown fields">
        {fields.map((f) => (
          <li key={f} className="field-chip">
            <span>{f}</span>
            <button type="button" aria-label={`Stop showing ${f}`} onClick={() => onChange(fields.filter((x) => x !== f))}>
              ×
            </button>
          </li>
        ))}
        {fields.length === 0 && <li className="muted small">None: reviewers see inputs and output.</li>}
      </ul>
      <div
        className="row"
        onKeyDown={(e) => {
          // Enter adds the path rather than submitting the queue form.
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      >
        <FieldPathInput
          projectId={projectId}
          value={path}
          onChange={setPath}
          ariaLabel="Field to show"
          placeholder="e.g. inputs.messages"
          includeKnown={false}
        />
        <button type="button" className="button" onClick={add} disabled={!path.trim()}>
          Add field
        </button>
      </div>
    </fieldset>
  );
}
