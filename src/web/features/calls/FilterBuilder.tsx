/**
 * The typed filter builder: rows of field · operator · value, edited as a draft and applied
 * together, so typing does not send a query per keystroke.
 */
import { useState, type FormEvent } from 'react';
import { Popover } from '../../components/ui/Popover.js';
import { FeedbackValueInput } from '../../entities/feedback/FeedbackFilterInputs.js';
import { isFeedbackPath } from '../../entities/feedback/feedbackModel.js';
import { FieldPathInput } from '../../entities/calls/FieldPathInput.js';
import { fieldKind, isUnary, OP_LABELS, operatorsFor, STATUSES, type FilterClause } from '../../entities/calls/filterModel.js';
import './calls.css';

/** Props: applied clauses and the setter that writes them to the URL. */
export interface FilterBuilderProps {
  clauses: FilterClause[];
  onApply: (clauses: FilterClause[]) => void;
  projectId: string;
}

/** "Filter" button; the panel edits every clause. */
export function FilterBuilder({ clauses, onApply, projectId }: FilterBuilderProps) {
  return (
    <Popover label={clauses.length ? `Filter (${clauses.length})` : 'Filter'} className={clauses.length ? 'button active' : 'button'}>
      {(close) => (
        <FilterEditor
          initial={clauses}
          projectId={projectId}
          onApply={(next) => {
            onApply(next);
            close();
          }}
        />
      )}
    </Popover>
  );
}

function FilterEditor({
  initial,
  onApply,
  projectId,
}: {
  initial: FilterClause[];
  onApply: (c: FilterClause[]) => void;
  projectId: string;
}) {
  const [draft, setDraft] = useState<FilterClause[]>(initial.length ? initial : [{ field: 'op_name', op: 'contains', value: '' }]);
  const patch = (i: number, p: Partial<FilterClause>) => setDraft((d) => d.map((c, j) => (j === i ? { ...c, ...p } : c)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft.filter((c) => c.field.trim() && (isUnary(c.op) || c.value.trim())));
  };

  return (
    <form className="menu filter-editor" onSubmit={submit} aria-label="Filters">
      {draft.map((c, i) => (
        <div className="filter-row" key={i} role="group" aria-label={`Filter ${i + 1}`}>
          <FieldPathInput
            projectId={projectId}
            value={c.field}
            ariaLabel="Field"
            onChange={(field) => {
              const ops = operatorsFor(field);
              patch(i, { field, op: ops.includes(c.op) ? c.op : ops[0]!, value: fieldKind(field) === fieldKind(c.field) ? c.value : '' });
            }}
          />
          <select
            className="input"
            aria-label="Operator"
            value={c.op}
            onChange={(e) => patch(i, { op: e.target.value as FilterClause['op'] })}
          >
            {operatorsFor(c.field).map((op) => (
              <option key={op} value={op}>
                {fieldKind(c.field) === 'datetime' ? (op === 'gte' ? 'after' : 'before') : OP_LABELS[op]}
              </option>
            ))}
          </select>
          <ValueInput clause={c} projectId={projectId} onChange={(value) => patch(i, { value })} />
          <button
            type="button"
            className="button ghost icon"
            aria-label={`Remove filter ${i + 1}`}
            onClick={() => setDraft((d) => d.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <div className="row">
        <button
          type="button"
          className="button ghost"
          onClick={() => setDraft((d) => [...d, { field: 'op_name', op: 'contains', value: '' }])}
        >
          + Add filter
        </button>
        <div className="spacer" />
        {initial.length > 0 && (
          <button type="button" className="button ghost" onClick={() => onApply([])}>
            Clear all
          </button>
        )}
        <button type="submit" className="button primary">
          Apply
        </button>
      </div>
    </form>
  );
}

/** The value control suits the field: status list, date picker, number or text. */
function ValueInput({ clause, projectId, onChange }: { clause: FilterClause; projectId: string; onChange: (v: string) => void }) {
  if (isUnary(clause.op)) return <span className="filter-value-none" />;
  if (isFeedbackPath(clause.field)) {
    return <FeedbackValueInput projectId={projectId} field={clause.field} op={clause.op} value={clause.value} onChange={onChange} />;
  }
  const kind = fieldKind(clause.field);
  if (kind === 'status' && clause.op !== 'in') {
    return (
      <select className="input" aria-label="Value" value={clause.value} onChange={(e) => onChange(e.target.value)}>
        <option value="">choose…</option>
        {STATUSES.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
    );
  }
  if (kind === 'datetime') {
    // datetime-local has no zone; the value is read as local time, which is what people mean.
    const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(clause.value) ? clause.value : '';
    return <input className="input" type="datetime-local" aria-label="Value" value={local} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <input
      className="input"
      aria-label="Value"
      inputMode={kind === 'number' ? 'decimal' : undefined}
      placeholder={clause.op === 'in' ? 'a, b, c' : kind === 'number' ? '0' : 'value'}
      value={clause.value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
