/** Tick labels for the waterfall's shared time axis (0 to the trace's full span). */
import { formatDuration } from '../../lib/format.js';
import './traces.css';

/** A "nice" step (1, 2 or 5 × 10^n ms) giving about four ticks across the span. */
export function niceStep(spanMs: number, ticks = 4): number {
  const raw = Math.max(spanMs / ticks, 1);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / pow;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * pow;
}

/** Axis header cell. */
export function TimeAxis({ spanMs }: { spanMs: number }) {
  const step = niceStep(spanMs);
  const ticks: number[] = [];
  // The last label would be cut off at the right edge; stop a little short of it.
  for (let t = 0; t <= spanMs * 0.8; t += step) ticks.push(t);
  return (
    <span className="time-axis">
      {ticks.map((t) => (
        <span key={t} className="tick" style={{ left: `${(t / spanMs) * 100}%` }}>
          {formatDuration(t)}
        </span>
      ))}
    </span>
  );
}
