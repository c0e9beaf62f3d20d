/**
 * The column mapping of "Add to dataset": one line per column, its name and the path it takes
 * from each item (chosen among the paths the selected items offer), removable, plus a line to
 * add a column and a way back to the default (docs/datasets.md "Add to dataset").
 */
import type { DatasetColumnMapping } from './addToDatasetQueries.js';
import './addToDataset.css';

/** Props: the mapping shown, the paths on offer (with their types), and what an edit does. */
export interface MappingEditorProps {
  mapping: DatasetColumnMapping[];
  fields: { path: string; type: string; count: number }[];
  itemCount: number;
  onChange: (mapping: DatasetColumnMapping[]) => void;
  onReset: (() => void) | null;
}

/** The column a path suggests: its last part (`inputs.question` → `question`). */
const columnFor = (path: string) => path.split('.').at(-1) ?? path;

/** Mapping editor. */
export function MappingEditor({ mapping, fields, itemCount, onChange, onReset }: MappingEditorProps) {
  const set = (i: number, patch: Partial<DatasetColumnMapping>) => onChange(mapping.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  const unused = fields.find((f) => !mapping.some((m) => m.path === f.path));
  return (
    <fieldset className="dataset-mapping">
      <legend>Columns</legend>
      <ol className="dataset-mapping-list">
        {mapping.map((m, i) => {
          // A path no item offers (typed through the API, or from an earlier selection) stays choosable.
          const options = fields.some((f) => f.path === m.path)
            ? fields
            : [{ path: m.path, type: 'not in these items', count: 0 }, ...fields];
          return (
            <li key={i} className="dataset-mapping-line">
              <input
                className="input"
                aria-label={`Column ${i + 1} name`}
                value={m.column}
                required
                maxLength={128}
                onChange={(e) => set(i, { column: e.target.value })}
              />
              <span className="muted" aria-hidden="true">
                ←
              </span>
              <select
                className="input"
                aria-label={`Column ${i + 1} source`}
                value={m.path}
                onChange={(e) => set(i, { path: e.target.value })}
              >
                {options.map((f) => (
                  <option key={f.path} value={f.path}>
                    {f.path} ({f.type}
                    {f.count < itemCount ? `, ${f.count} of ${itemCount}` : ''})
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button ghost small"
                aria-label={`Remove column ${m.column || i + 1}`}
                disabled={mapping.length === 1}
                onClick={() => onChange(mapping.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      <div className="row">
        <button
          type="button"
          className="button small"
          disabled={!unused}
          onClick={() => unused && onChange([...mapping, { column: columnFor(unused.path), path: unused.path }])}
        >
          Add column
        </button>
        {onReset && (
          <button type="button" className="button ghost small" onClick={onReset}>
            Back to the default
          </button>
        )}
      </div>
    </fieldset>
  );
}
