/** The compare table's controls: the baseline and the run compared with it, differences only, and the order of the rows. */
import { formatInteger } from '../../../lib/format.js';
import type { CompareRunFigures } from './CompareSummary.js';
import { RunOptions } from './RunOptions.js';
import type { CompareView } from '../evalViewState.js';
import type { ScoreMetric } from '../scoreModel.js';
import '../evaluations.css';

/** Props of CompareToolbar; `counts` is null while rows load. */
export interface CompareToolbarProps {
  view: CompareView;
  update: (patch: Partial<CompareView>) => void;
  /** Picks the baseline or the compared run (the page swaps them when they would be the same). */
  onPick: (side: 'baseline' | 'compared', runId: string) => void;
  runs: CompareRunFigures[];
  metrics: ScoreMetric[];
  counts: { shown: number; total: number } | null;
}

/** Compare toolbar. */
export function CompareToolbar({ view, update, onPick, runs, metrics, counts }: CompareToolbarProps) {
  const numeric = metrics.filter((m) => m.type !== 'text');
  const sortValue = view.sort?.mode === 'difference' ? view.sort.field : view.sort ? 'column' : '';
  return (
    <div className="toolbar-wrap toolbar eval-compare-toolbar" role="group" aria-label="Compare controls">
      <label className="eval-filter">
        <span className="muted">Baseline</span>
        <select className="input" aria-label="Baseline" value={view.baseline ?? ''} onChange={(e) => onPick('baseline', e.target.value)}>
          <RunOptions runs={runs} />
        </select>
      </label>
      <label className="eval-filter">
        <span className="muted">Compared with</span>
        <select
          className="input"
          aria-label="Compared with"
          value={view.against ?? ''}
          onChange={(e) => onPick('compared', e.target.value)}
        >
          <RunOptions runs={runs} />
        </select>
      </label>
      <label className="toggle">
        <input type="checkbox" checked={view.diffOnly} onChange={(e) => update({ diffOnly: e.target.checked })} />
        Differences only
      </label>
      <label className="eval-filter">
        <span className="muted">Order</span>
        <select
          className="input"
          aria-label="Order"
          value={sortValue}
          onChange={(e) => {
            const field = e.target.value;
            if (field === 'column') return;
            update({ sort: field ? { mode: 'difference', field, direction: 'desc', runId: null } : null });
          }}
        >
          <option value="">Default order</option>
          {numeric.map((m) => (
            <option key={m.field} value={m.field}>
              Largest difference in {m.label}
            </option>
          ))}
          {sortValue === 'column' && <option value="column">By a column</option>}
        </select>
      </label>
      <span className="spacer" />
      <span className="muted" aria-live="polite">
        {counts
          ? view.diffOnly
            ? `${formatInteger(counts.shown)} of ${formatInteger(counts.total)} rows differ`
            : `${formatInteger(counts.total)} rows`
          : ''}
      </span>
    </div>
  );
}
