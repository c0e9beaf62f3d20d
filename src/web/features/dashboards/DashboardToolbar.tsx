/** Time range (presets or custom, in the browser's time zone), op filter and trace-roots toggle. */
import { useQuery } from '@tanstack/react-query';
import { recentOpsQueryOptions } from './dashboardQueries.js';
import { browserTimeZone, RANGES, type DashboardView, type RangeValue } from './dashboardViewState.js';

/** `YYYY-MM-DDTHH:mm` in local time, as datetime-local inputs read and write. */
function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** The dashboard's controls; every change goes to the URL. */
export function DashboardToolbar({
  projectId,
  view,
  update,
  range,
}: {
  projectId: string;
  view: DashboardView;
  update: (p: Partial<DashboardView>) => void;
  range: { start: number; end: number };
}) {
  const ops = useQuery(recentOpsQueryOptions(projectId));
  const opChoices = view.op && !ops.data?.includes(view.op) ? [view.op, ...(ops.data ?? [])] : (ops.data ?? []);
  const setRange = (value: RangeValue) =>
    update(
      value === 'custom'
        ? { range: value, from: toLocalInput(range.start), to: toLocalInput(range.end) }
        : { range: value, from: null, to: null },
    );
  return (
    <div className="toolbar dashboard-toolbar">
      <select className="input" aria-label="Time range" value={view.range} onChange={(e) => setRange(e.target.value as RangeValue)}>
        {RANGES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
        <option value="custom">Custom…</option>
      </select>
      {view.range === 'custom' && (
        <>
          <label className="toggle">
            From
            <input
              className="input"
              type="datetime-local"
              aria-label="From"
              value={view.from ?? ''}
              onChange={(e) => update({ from: e.target.value || null })}
            />
          </label>
          <label className="toggle">
            To
            <input
              className="input"
              type="datetime-local"
              aria-label="To"
              value={view.to ?? ''}
              onChange={(e) => update({ to: e.target.value || null })}
            />
          </label>
        </>
      )}
      <select className="input" aria-label="Op" value={view.op ?? ''} onChange={(e) => update({ op: e.target.value || null })}>
        <option value="">All ops</option>
        {opChoices.map((op) => (
          <option key={op} value={op}>
            {op}
          </option>
        ))}
      </select>
      <label className="toggle">
        <input type="checkbox" checked={view.rootsOnly} onChange={(e) => update({ rootsOnly: e.target.checked })} />
        Trace roots only
      </label>
      <div className="spacer" />
      <span className="muted small" title="Buckets start at local times in this zone">
        {browserTimeZone()}
      </span>
    </div>
  );
}
