/** Tick labels for the waterfall's shared time axis (0 to the trace's full span). */
import { formatDuration } from '../../lib/format.js';
import { axisTicks } from './timeTicks.js';
import './traces.css';

/** Axis header cell. */
export function TimeAxis({ spanMs }: { spanMs: number }) {
  return (
    <span className="time-axis">
      {axisTicks(spanMs).map((t) => (
        <span key={t} className="tick" style={{ left: `${(t / spanMs) * 100}%` }}>
          {formatDuration(t)}
        </span>
      ))}
    </span>
  );
}
