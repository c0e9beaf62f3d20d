/** Content search, filters, time range, trace-roots toggle and columns above the calls table, plus active-filter chips. */
import { useState, type FormEvent } from 'react';
import type { CallsViewState } from '../../entities/calls/callsViewState.js';
import { ColumnChooser } from './ColumnChooser.js';
import { FilterBuilder } from './FilterBuilder.js';
import { fieldKind, fieldLabel, isUnary, OP_LABELS, type FilterClause } from '../../entities/calls/filterModel.js';
import './calls.css';

const TIME_RANGES = [
  { value: '', label: 'Any time' },
  { value: '-15m', label: 'Last 15 minutes' },
  { value: '-1h', label: 'Last hour' },
  { value: '-24h', label: 'Last 24 hours' },
  { value: '-7d', label: 'Last 7 days' },
  { value: '-30d', label: 'Last 30 days' },
];

/** How a clause reads on its chip: `Status equals error`. */
function describeClause(c: FilterClause): string {
  const op = fieldKind(c.field) === 'datetime' ? (c.op === 'gte' ? 'after' : 'before') : OP_LABELS[c.op];
  return isUnary(c.op) ? `${fieldLabel(c.field)} ${op}` : `${fieldLabel(c.field)} ${op} ${c.value}`;
}

/** The fewest characters a search matches by (the server's trigram indexes; docs/search.md). */
const MIN_SEARCH_CHARS = 3;

/**
 * Content search, applied on Enter; clearing the box applies at once. Shorter than 3 characters
 * it is not sent, and says so: the server refuses it rather than scan every call.
 */
function CallSearch({ search, onApply }: { search: string; onApply: (search: string) => void }) {
  const [text, setText] = useState(search);
  const [tooShort, setTooShort] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    const short = trimmed !== '' && [...trimmed].length < MIN_SEARCH_CHARS;
    setTooShort(short);
    if (!short) onApply(trimmed);
  };
  return (
    <form className="call-search" role="search" onSubmit={submit}>
      <input
        className="input"
        type="search"
        aria-label="Search calls"
        aria-invalid={tooShort || undefined}
        aria-describedby={tooShort ? 'call-search-hint' : undefined}
        placeholder="Search inputs, outputs, attributes, then Enter"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setTooShort(false);
          if (e.target.value === '' && search) onApply('');
        }}
      />
      {tooShort && (
        <span id="call-search-hint" className="call-search-hint" role="status">
          Type at least {MIN_SEARCH_CHARS} characters
        </span>
      )}
    </form>
  );
}

/** Toolbar for the calls view. */
export function CallsToolbar({
  view,
  update,
  projectId,
}: {
  view: CallsViewState;
  update: (p: Partial<CallsViewState>) => void;
  projectId: string;
}) {
  const custom = view.since !== null && !TIME_RANGES.some((r) => r.value === view.since);
  return (
    <div className="toolbar-wrap">
      <div className="toolbar">
        <CallSearch key={view.search ?? ''} search={view.search ?? ''} onApply={(search) => update({ search: search || null })} />
        <FilterBuilder clauses={view.clauses} onApply={(clauses) => update({ clauses })} projectId={projectId} />
        <select
          className="input"
          aria-label="Time range"
          value={view.since ?? ''}
          onChange={(e) => update({ since: e.target.value || null })}
        >
          {TIME_RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
          {custom && <option value={view.since!}>Since {view.since}</option>}
        </select>
        <label className="toggle">
          <input type="checkbox" checked={view.rootsOnly} onChange={(e) => update({ rootsOnly: e.target.checked })} />
          Trace roots only
        </label>
        <button
          type="button"
          className={`chip toggle-chip${view.weftCalls ? ' on' : ''}`}
          aria-pressed={view.weftCalls}
          title="Calls Weft made itself: playground runs, LLM judges and monitors, evaluate_model jobs. Hidden unless on."
          onClick={() => update({ weftCalls: !view.weftCalls })}
        >
          Weft&apos;s own calls
        </button>
        <div className="spacer" />
        <ColumnChooser columns={view.columns} onChange={(columns) => update({ columns })} projectId={projectId} />
      </div>
      {view.clauses.length > 0 && (
        <ul className="chips" aria-label="Active filters">
          {view.clauses.map((c, i) => (
            <li key={i} className="chip">
              <span>{describeClause(c)}</span>
              <button
                type="button"
                aria-label={`Remove filter: ${describeClause(c)}`}
                onClick={() => update({ clauses: view.clauses.filter((_, j) => j !== i) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
