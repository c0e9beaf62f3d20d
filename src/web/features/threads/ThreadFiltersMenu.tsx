/**
 * The threads list's filters beyond time: "has errors", ranges on turns, turn durations,
 * tokens and cost, and turn attributes. Edited in a popover and applied together; the
 * active ones show as chips that remove themselves.
 */
import { useState, type FormEvent } from 'react';
import { Popover } from '../../components/ui/Popover.js';
import {
  activeFilterCount,
  boundsText,
  parseAttributes,
  RANGE_FIELDS,
  type Bounds,
  type RangeField,
  type ThreadFilters,
} from './threadFilters.js';
import './threads.css';

/** Props: the filters and a setter for all of them. */
export interface ThreadFiltersMenuProps {
  filters: ThreadFilters;
  onChange: (filters: ThreadFilters) => void;
}

const numberOrNull = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text));

/** The Filters button, its panel and the active-filter chips. */
export function ThreadFiltersMenu({ filters, onChange }: ThreadFiltersMenuProps) {
  const count = activeFilterCount(filters);
  return (
    <>
      <Popover label={count ? `Filters (${count})` : 'Filters'} className={count ? 'button active' : 'button'}>
        {(close) => (
          <FiltersForm
            filters={filters}
            onApply={(f) => {
              onChange(f);
              close();
            }}
          />
        )}
      </Popover>
      <FilterChips filters={filters} onChange={onChange} />
    </>
  );
}

function FiltersForm({ filters, onApply }: { filters: ThreadFilters; onApply: (f: ThreadFilters) => void }) {
  const [hasErrors, setHasErrors] = useState(filters.hasErrors);
  const [ranges, setRanges] = useState(() =>
    Object.fromEntries(
      RANGE_FIELDS.map(({ field }) => [
        field,
        { min: String(filters.ranges[field]?.min ?? ''), max: String(filters.ranges[field]?.max ?? '') },
      ]),
    ),
  );
  const [attributes, setAttributes] = useState(
    Object.entries(filters.attributes)
      .map(([k, v]) => `${k}:${String(v)}`)
      .join(', '),
  );
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: string[] = [];
    const attrs = parseAttributes(attributes, problems);
    if (problems.length) {
      setProblem(`Could not read ${problems.join(', ')}.`);
      return;
    }
    const next: ThreadFilters['ranges'] = {};
    for (const { field } of RANGE_FIELDS) {
      const b: Bounds = { min: numberOrNull(ranges[field]!.min), max: numberOrNull(ranges[field]!.max) };
      if (b.min !== null || b.max !== null) next[field] = b;
    }
    onApply({ ...filters, hasErrors, ranges: next, attributes: attrs });
  };

  return (
    <form className="thread-filters" onSubmit={submit} aria-label="Thread filters">
      <label className="check">
        <input type="checkbox" checked={hasErrors} onChange={(e) => setHasErrors(e.target.checked)} /> Has errors
      </label>
      <fieldset>
        <legend className="muted small">Ranges (inclusive; durations in ms)</legend>
        {RANGE_FIELDS.map(({ field, label, unit }) => (
          <div className="range-row" key={field}>
            <span>
              {label}
              {unit && <span className="muted"> ({unit})</span>}
            </span>
            <input
              className="input"
              inputMode="decimal"
              aria-label={`${label} at least`}
              placeholder="min"
              value={ranges[field]!.min}
              onChange={(e) => setRanges({ ...ranges, [field]: { ...ranges[field]!, min: e.target.value } })}
            />
            <span className="muted">–</span>
            <input
              className="input"
              inputMode="decimal"
              aria-label={`${label} at most`}
              placeholder="max"
              value={ranges[field]!.max}
              onChange={(e) => setRanges({ ...ranges, [field]: { ...ranges[field]!, max: e.target.value } })}
            />
          </div>
        ))}
      </fieldset>
      <label className="stack">
        <span className="muted small">Turn attributes (key:value, comma-separated)</span>
        <input
          className="input mono"
          aria-label="Turn attributes"
          placeholder="env:prod, customer.tier:gold"
          value={attributes}
          onChange={(e) => setAttributes(e.target.value)}
        />
      </label>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="row-end">
        <button type="submit" className="button primary">
          Apply filters
        </button>
      </div>
    </form>
  );
}

const RANGE_LABEL = Object.fromEntries(RANGE_FIELDS.map((r) => [r.field, r.label])) as Record<RangeField, string>;

function FilterChips({ filters, onChange }: ThreadFiltersMenuProps) {
  const chips: { label: string; remove: () => void }[] = [];
  if (filters.hasErrors) chips.push({ label: 'Has errors', remove: () => onChange({ ...filters, hasErrors: false }) });
  for (const [field, b] of Object.entries(filters.ranges) as [RangeField, Bounds][]) {
    chips.push({
      label: `${RANGE_LABEL[field]} ${b.min !== null && b.max !== null ? boundsText(b) : b.min !== null ? `≥ ${b.min}` : `≤ ${b.max}`}`,
      remove: () => {
        const ranges = { ...filters.ranges };
        delete ranges[field];
        onChange({ ...filters, ranges });
      },
    });
  }
  for (const [key, value] of Object.entries(filters.attributes)) {
    chips.push({
      label: `${key} = ${String(value)}`,
      remove: () => {
        const attributes = { ...filters.attributes };
        delete attributes[key];
        onChange({ ...filters, attributes });
      },
    });
  }
  return (
    <>
      {chips.map((c) => (
        <span className="chip" key={c.label}>
          {c.label}
          <button type="button" className="chip-remove" aria-label={`Remove filter ${c.label}`} onClick={c.remove}>
            ×
          </button>
        </span>
      ))}
    </>
  );
}
