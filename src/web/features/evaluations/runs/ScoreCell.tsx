/** One score in a results table: pass/fail for booleans, a figure for numbers, text otherwise. */
import { previewValue } from '../../../components/table/ValueCell.js';
import '../evaluations.css';
import '../../../components/table/table.css';

/** Score cell. */
export function ScoreCell({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <span className="muted">—</span>;
  if (typeof value === 'boolean') {
    return value ? (
      <span className="score-pass" title="true">
        ✓ pass
      </span>
    ) : (
      <span className="score-fail" title="false">
        ✗ fail
      </span>
    );
  }
  if (typeof value === 'number') {
    return (
      <span className="num" title={String(value)}>
        {Number.isInteger(value) && Math.abs(value) > 1 ? value : value.toFixed(3)}
      </span>
    );
  }
  const text = previewValue(value, 120);
  return (
    <span className="cell-text" title={text}>
      {text}
    </span>
  );
}
