/** Choose the calls table's columns: built-ins on or off, and any input/output/attribute path. */
import { useState, type FormEvent } from 'react';
import { Popover } from '../../components/ui/Popover.js';
import { AnnotationColumnToggles, isAnnotationColumn } from '../feedback/AnnotationColumnToggles.js';
import { builtinColumns } from './callColumns.js';
import { BUILTIN_COLUMNS, isBuiltinColumn } from '../../entities/calls/callsViewState.js';
import { FieldPathInput } from '../../entities/calls/FieldPathInput.js';
import './calls.css';

/** Props: the shown column ids and the setter. */
export interface ColumnChooserProps {
  columns: string[];
  onChange: (columns: string[]) => void;
  projectId: string;
}

/** "Columns" button and panel. */
export function ColumnChooser({ columns, onChange, projectId }: ColumnChooserProps) {
  return (
    <Popover label="Columns" className="button" align="end">
      {() => <ColumnPanel columns={columns} onChange={onChange} projectId={projectId} />}
    </Popover>
  );
}

function ColumnPanel({ columns, onChange, projectId }: ColumnChooserProps) {
  const [path, setPath] = useState('');
  const paths = columns.filter((c) => !isBuiltinColumn(c));
  const listed = paths.filter((c) => !isAnnotationColumn(c));
  const toggleBuiltin = (id: string, on: boolean) => {
    // Built-ins keep their canonical order; path columns follow them in the order added.
    const builtins = BUILTIN_COLUMNS.filter((c) => (c === id ? on : columns.includes(c)));
    onChange([...builtins, ...paths]);
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    const p = path.trim().replace(/^\.+|\.+$/g, '');
    if (p && !columns.includes(p)) onChange([...columns, p]);
    setPath('');
  };

  return (
    <div className="menu column-panel">
      <fieldset className="check-group">
        <legend>Columns</legend>
        {BUILTIN_COLUMNS.map((id) => (
          <label key={id}>
            <input type="checkbox" checked={columns.includes(id)} onChange={(e) => toggleBuiltin(id, e.target.checked)} />
            {builtinColumns[id]!.label}
          </label>
        ))}
        <AnnotationColumnToggles columns={columns} onChange={onChange} projectId={projectId} />
        {listed.map((p) => (
          <label key={p} className="mono">
            <input type="checkbox" checked onChange={() => onChange(columns.filter((c) => c !== p))} />
            {p}
          </label>
        ))}
      </fieldset>
      <form className="row" onSubmit={add}>
        <FieldPathInput
          projectId={projectId}
          value={path}
          onChange={setPath}
          ariaLabel="Add a column by field path"
          placeholder="inputs.question"
          includeKnown={false}
        />
        <button type="submit" className="button" disabled={!path.trim()}>
          Add
        </button>
      </form>
      <p className="small muted">Any dot path into inputs, output, attributes or summary, or feedback.[type].payload.path.</p>
    </div>
  );
}
