/** A queue's completion: a thin bar plus `12 / 40 · 30 %`. */
import { formatInteger } from '../../lib/format.js';
import './annotation.css';

/** Percentage, rounded down so a queue reads 100 % only when it is finished. */
export function percentDone(done: number, total: number): number {
  return total === 0 ? 0 : Math.floor((done / total) * 100);
}

/** Completion bar; `label` names the progressbar for assistive technology. */
export function CompletionBar({ done, total, label }: { done: number; total: number; label: string }) {
  const pct = percentDone(done, total);
  return (
    <div className="completion">
      <div className="completion-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className={`completion-fill${pct === 100 ? ' full' : ''}`} style={{ width: `${pct}%` }} />
      </div>
      <span className="completion-text">
        {total === 0 ? <span className="muted">no calls yet</span> : `${formatInteger(done)} / ${formatInteger(total)} · ${pct} %`}
      </span>
    </div>
  );
}
