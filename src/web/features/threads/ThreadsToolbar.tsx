/** Time range (a preset, or a custom after/before pair) and thread-id search above the threads table. */
import { useState, type FormEvent } from 'react';
import { resolveDateTime } from '../calls/filterModel.js';
import { parseThreadIds, type ThreadsViewState } from './threadsViewState.js';

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
        <ThreadIdSearch key={view.ids.join(',')} ids={view.ids} onApply={(ids) => update({ ids })} />
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
        <div className="spacer" />
        <span className="muted small threads-hint" title="Shift-click headers to sort by several columns">
          Shift-click headers to sort by several columns
        </span>
      </div>
    </div>
  );
}

/** Exact thread ids (one or many, pasted or typed), applied on Enter. */
function ThreadIdSearch({ ids, onApply }: { ids: string[]; onApply: (ids: string[]) => void }) {
  const [text, setText] = useState(ids.join(', '));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(parseThreadIds(text));
  };
  return (
    <form className="thread-search" role="search" onSubmit={submit}>
      <input
        className="input mono"
        type="search"
        aria-label="Thread ids"
        placeholder="Thread id(s), then Enter"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          // Clearing the box (× or select-all + delete) shows every thread again at once.
          if (e.target.value === '' && ids.length) onApply([]);
        }}
      />
    </form>
  );
}
