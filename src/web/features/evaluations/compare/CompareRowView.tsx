/**
 * One dataset row read across runs: the example's inputs, each run's output side by side (the
 * others as a word diff against the baseline's), and every score with its difference from the
 * baseline. j / → and k / ← walk the rows in the table's order, Esc goes back to the table.
 */
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { CompareRunFigures } from './CompareSummary.js';
import type { CompareTableRow } from './compareColumns.js';
import { delta, formatDelta } from './compareModel.js';
import { trialHref } from '../runs/resultColumns.js';
import { trialsMean, type ScoreMetric } from '../scoreModel.js';
import { diffWords, outputText } from './textDiff.js';
import { TrialsScore } from '../runs/TrialsScore.js';
import '../evaluations.css';

/** Props of the row view. */
export interface CompareRowViewProps {
  row: CompareTableRow;
  total: number;
  runs: CompareRunFigures[];
  baselineId: string;
  metrics: ScoreMetric[];
  onPrev: (() => void) | null;
  onNext: (() => void) | null;
  onClose: () => void;
}

/** True while typing in a field, where letters are text and not shortcuts. */
const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/** Row view. */
export function CompareRowView({ row, total, runs, baselineId, metrics, onPrev, onNext, onClose }: CompareRowViewProps) {
  const { entity = '', project = '' } = useParams();
  // Keys for the whole page while the row view is open; this only wires the keyboard.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      const act = (fn: (() => void) | null) => {
        if (!fn) return;
        e.preventDefault();
        fn();
      };
      if (e.key === 'j' || e.key === 'ArrowRight') act(onNext);
      else if (e.key === 'k' || e.key === 'ArrowLeft') act(onPrev);
      else if (e.key === 'Escape') act(onClose);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onNext, onPrev, onClose]);

  const baselineOutput = outputText(row.trials.get(baselineId)?.[0]?.model_output);
  const numeric = metrics.filter((m) => m.type !== 'text');

  return (
    <section className="eval-row-view" aria-label={`Row ${row.position} of ${total}`}>
      <header className="eval-row-view-head">
        <h2>
          Row {row.position} <span className="muted">of {total}</span>
        </h2>
        <span className="spacer" />
        <button type="button" className="button small" onClick={onPrev ?? undefined} disabled={!onPrev}>
          <kbd>K</kbd> Previous row
        </button>
        <button type="button" className="button small" onClick={onNext ?? undefined} disabled={!onNext}>
          Next row <kbd>J</kbd>
        </button>
        <button type="button" className="button small ghost" onClick={onClose}>
          Back to table <kbd>Esc</kbd>
        </button>
      </header>
      <div className="eval-row-inputs">
        <h3>Inputs</h3>
        <pre className="eval-row-text">{outputText(row.example)}</pre>
      </div>
      <div className="eval-row-outputs" style={{ gridTemplateColumns: `repeat(${runs.length}, minmax(220px, 1fr))` }}>
        {runs.map((run) => {
          const trials = row.trials.get(run.id);
          const first = trials?.[0];
          const text = outputText(first?.model_output);
          const isBaseline = run.id === baselineId;
          return (
            <article key={run.id} className="eval-row-run" aria-label={`Output ${run.letter}`}>
              <header>
                <strong>{run.letter}</strong> <span className="ellipsis">{run.label}</span>
                {isBaseline && <span className="eval-baseline-tag">baseline</span>}
                {first && (
                  <Link
                    className="small"
                    to={trialHref({ entity, project, traceId: run.traceId, callId: first.predict_and_score_call_id })}
                    title="Open trace"
                  >
                    trace ↗
                  </Link>
                )}
              </header>
              {!first ? (
                <p className="muted">This run has no result for this row.</p>
              ) : isBaseline ? (
                <pre className="eval-row-text">{text}</pre>
              ) : (
                <pre className="eval-row-text" aria-label={`Output ${run.letter} against the baseline`}>
                  {diffWords(baselineOutput, text).map((p, i) =>
                    p.kind === 'same' ? (
                      <span key={i}>{p.text}</span>
                    ) : p.kind === 'added' ? (
                      <ins key={i}>{p.text}</ins>
                    ) : (
                      <del key={i}>{p.text}</del>
                    ),
                  )}
                </pre>
              )}
              {trials && trials.length > 1 && <p className="muted small">{trials.length} trials; the first one's output is shown.</p>}
            </article>
          );
        })}
      </div>
      <table className="simple-table eval-row-scores" aria-label="Scores of this row">
        <thead>
          <tr>
            <th>Score</th>
            {runs.map((r) => (
              <th key={r.id}>
                {r.letter}
                {r.id === baselineId ? ' (baseline)' : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {metrics.map((m) => {
            const base = trialsMean(row.trials.get(baselineId) ?? [], m);
            return (
              <tr key={m.field}>
                <th scope="row">{m.label}</th>
                {runs.map((r) => {
                  const value = trialsMean(row.trials.get(r.id) ?? [], m);
                  const d = r.id === baselineId || !numeric.includes(m) ? null : delta(base, value);
                  const shown = d && Math.abs(d.abs) > 1e-9 ? formatDelta(d, m.type) : null;
                  return (
                    <td key={r.id}>
                      <TrialsScore trials={row.trials.get(r.id)} metric={m} />
                      {shown && <span className={`eval-delta ${d!.abs > 0 ? 'eval-up' : 'eval-down'}`}> {shown.abs}</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
