/**
 * Above the threads table: content search (the turns' inputs and outputs, or an exact thread
 * id), the time range (a preset, or a custom after/before pair), the other filters, and the
 * exact thread ids a link may carry.
 */
import { useState, type FormEvent } from 'react';
import { resolveDateTime } from '../../entities/calls/filterModel.js';
import { ThreadFiltersMenu } from './ThreadFiltersMenu.js';
import type { ThreadsViewState } from './threadsViewState.js';
import './threads.css';

const PRESETS = [
  { value: '-1h', label: 'Last hour' },
  { value: '-24h', label: 'Last 24 hours' },
  { value: '-7d', label: 'Last 7 days' },
  { value: '-30d', label: 'Last 30 days' },
];

/** ISO → the `YYYY-MM-DDTHH:mm` a datetime-local input shows, in the viewer's time zone. */
function toLocalInput(value: string | null): string {
  const iso = value ? resolveDateTime(value, Date.now()) : null;
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) → ISO UTC for the URL; empty → no bound. */
const fromLocalInput = (value: string): string | null => (value ? resolveDateTime(value, Date.now()) : null);

/** Props: the view and its updater. */
export interface ThreadsToolbarProps {
  view: ThreadsViewState;
  update: (patch: Partial<ThreadsViewState>) => void;
}

/** Toolbar for the threads view. */
export function ThreadsToolbar({ view, update }: ThreadsToolbarProps) {
  const isPreset = view.before === null && PRESETS.some((p) => p.value === view.after);
  // Custom shows its two inputs as soon as it is picked, before either has a value.
  const [customPicked, setCustomPicked] = useState(false);
  const custom = customPicked || (!isPreset && (view.after !== null || view.before !== null));
  const range = custom ? 'custom' : (view.after ?? '');

  const pickRange = (value: string) => {
    if (value === 'custom') {
      setCustomPicked(true);
      // Pin a relative start to the moment it stood for, so the inputs can show it.
      update({ after: view.after ? resolveDateTime(view.after, Date.now()) : null });
      return;
    }
    setCustomPicked(false);
    update({ after: value || null, before: null });
  };

  return (
    <div className="toolbar-wrap">
      <div className="toolbar threads-toolbar">
        <ThreadSearch
          key={view.filters.search}
          search={view.filters.search}
          onApply={(search) => update({ filters: { ...view.filters, search } })}
        />
        <select className="input" aria-label="Time range" value={range} onChange={(e) => pickRange(e.target.value)}>
          <option value="">Any time</option>
          {PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
        {custom && (
          <>
            <label className="field-inline">
              <span className="muted">After</span>
              <input
                className="input"
                type="datetime-local"
                aria-label="Turns started after"
                value={toLocalInput(view.after)}
                max={toLocalInput(view.before) || undefined}
                onChange={(e) => update({ after: fromLocalInput(e.target.value) })}
              />
            </label>
            <label className="field-inline">
              <span className="muted">Before</span>
              <input
                className="input"
                type="datetime-local"
                aria-label="Turns started before"
                value={toLocalInput(view.before)}
                min={toLocalInput(view.after) || undefined}
                onChange={(e) => update({ before: fromLocalInput(e.target.value) })}
              />
            </label>
          </>
        )}
        <ThreadFiltersMenu filters={view.filters} onChange={(filters) => update({ filters })} />
        {view.ids.length > 0 && (
          <span className="chip">
            {view.ids.length === 1 ? `Thread ${view.ids[0]}` : `${view.ids.length} thread ids`}
            <button type="button" aria-label="Remove the thread id filter" onClick={() => update({ ids: [] })}>
              ×
            </button>
          </span>
        )}
        <div className="spacer" />
        <span className="muted small threads-hint" title="Shift-click headers to sort by several columns; j/k or ↑/↓ move, Enter opens">
          Shift-click headers to sort by several columns · <kbd>j</kbd>
          <kbd>k</kbd> move · <kbd>Enter</kbd> opens
        </span>
      </div>
    </div>
  );
}

/** Words from the turns (or an exact thread id), applied on Enter; clearing the box applies at once. */
function ThreadSearch({ search, onApply }: { search: string; onApply: (search: string) => void }) {
  const [text, setText] = useState(search);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(text.trim());
  };
  return (
    <form className="thread-search" role="search" onSubmit={submit}>
      <input
        className="input"
        type="search"
        aria-label="Search threads"
        placeholder="Search turns or thread id, then Enter"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '' && search) onApply('');
        }}
      />
    </form>
  );
}
