/**
 * One dataset row read across runs, as a panel over the compare page (`?row=`; docs/dashboard.md
 * "Evaluations"): the example's inputs, every run's scores with their difference from the
 * baseline, then the baseline's and the compared run's outputs in full, side by side (stacked on
 * a narrow screen). The panel is the one scroller, so the two outputs scroll together and no text
 * hides in a box of its own. "Highlight differences" marks, on each side, the words the other
 * output lacks. j / n / → and k / p / ← walk the rows in the table's order, Esc closes.
 */
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { usePageKeys } from '../../../lib/usePageKeys.js';
import type { EvalResultsTrial } from '../../../../contract/evalResults.js';
import type { CompareRunFigures } from './CompareSummary.js';
import { RunOptions } from './RunOptions.js';
import type { CompareTableRow } from './compareColumns.js';
import { delta, formatDelta } from './compareModel.js';
import { trialHref } from '../runs/resultColumns.js';
import { trialsMean, type ScoreMetric } from '../scoreModel.js';
import { diffWords, outputText, type DiffPart } from './textDiff.js';
import { TrialsScore } from '../runs/TrialsScore.js';
import '../evaluations.css';

/** Props of the row view. */
export interface CompareRowViewProps {
  row: CompareTableRow;
  total: number;
  runs: CompareRunFigures[];
  baselineId: string;
  comparedId: string;
  metrics: ScoreMetric[];
  /** Diff marks on. */
  marks: boolean;
  onMarks: (on: boolean) => void;
  /** Picks the baseline or the compared run. */
  onPick: (side: 'baseline' | 'compared', runId: string) => void;
  onPrev: (() => void) | null;
  onNext: (() => void) | null;
  onClose: () => void;
}

/** True while typing in a field or choosing in a list, where letters are not shortcuts (a checkbox is neither). */
const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    ['TEXTAREA', 'SELECT'].includes(el.tagName) ||
    (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)));

/** Row view. */
export function CompareRowView(props: CompareRowViewProps) {
  const { row, total, runs, baselineId, comparedId, metrics, marks, onPrev, onNext, onClose } = props;
  const panel = useRef<HTMLElement>(null);
  // Keys for the whole page while the row view is open: re-subscribing on every render left
  // moments without a listener, and an Esc pressed right after a row change was lost.
  usePageKeys((e) => {
    // Esc closes from a picker too (an open list takes its own Esc first).
    if (typing(e.target) && !(e.key === 'Escape' && e.target instanceof HTMLSelectElement)) return;
    const act = (fn: (() => void) | null) => {
      if (!fn) return;
      e.preventDefault();
      fn();
    };
    if (e.key === 'j' || e.key === 'n' || e.key === 'ArrowRight') act(onNext);
    else if (e.key === 'k' || e.key === 'p' || e.key === 'ArrowLeft') act(onPrev);
    else if (e.key === 'Escape') act(onClose);
  });

  // The panel takes the focus when it opens (keys then reach it, not the table below), and each
  // row starts at its top.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    el.scrollTop = 0;
    if (!el.contains(document.activeElement)) el.focus({ preventScroll: true });
  }, [row.rowDigest]);

  const baseline = runs.find((r) => r.id === baselineId);
  const compared = runs.find((r) => r.id === comparedId);
  const baseTrials = row.trials.get(baselineId) ?? [];
  const otherTrials = row.trials.get(comparedId) ?? [];

  return (
    <section ref={panel} className="eval-row-view" aria-label={`Row ${row.position} of ${total}`} tabIndex={-1}>
      <header className="eval-row-view-head">
        <h2>
          Row {row.position} <span className="muted">of {total}</span>
        </h2>
        <span className="spacer" />
        <button type="button" className="button small" onClick={onPrev ?? undefined} disabled={!onPrev} title="Previous row (k or p)">
          <kbd>K</kbd> Previous
        </button>
        <button type="button" className="button small" onClick={onNext ?? undefined} disabled={!onNext} title="Next row (j or n)">
          Next <kbd>J</kbd>
        </button>
        <button type="button" className="button small ghost" onClick={onClose} title="Back to the table (Esc)">
          Close <kbd>Esc</kbd>
        </button>
      </header>
      <div className="eval-row-body">
        <Inputs example={row.example} />
        <RowScores row={row} runs={runs} baselineId={baselineId} metrics={metrics} />
        <label className="toggle">
          <input type="checkbox" checked={marks} onChange={(e) => props.onMarks(e.target.checked)} />
          Highlight differences
        </label>
        <div className="eval-row-outputs">
          {baseline && (
            <RunOutput
              side="baseline"
              run={baseline}
              runs={runs}
              row={row}
              trials={baseTrials}
              others={otherTrials}
              marks={marks}
              onPick={props.onPick}
            />
          )}
          {compared && (
            <RunOutput
              side="compared"
              run={compared}
              runs={runs}
              row={row}
              trials={otherTrials}
              others={baseTrials}
              marks={marks}
              onPick={props.onPick}
            />
          )}
        </div>
      </div>
    </section>
  );
}

/** The dataset row: each field with its value in full. */
function Inputs({ example }: { example: unknown }) {
  const fields =
    example && typeof example === 'object' && !Array.isArray(example) ? Object.entries(example as Record<string, unknown>) : null;
  return (
    <div className="eval-row-inputs">
      <h3>Inputs</h3>
      {fields ? (
        <dl>
          {fields.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <Text value={value} />
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <Text value={example} />
      )}
    </div>
  );
}

/** Text as prose (strings) or as indented JSON (anything else), wrapped, never scrolled on its own. */
function Text({ value, parts }: { value: unknown; parts?: DiffPart[] }) {
  const prose = typeof value === 'string';
  return (
    <div className={prose ? 'eval-row-prose' : 'eval-row-code'}>
      {parts
        ? parts.map((p, i) =>
            p.kind === 'same' ? (
              <span key={i}>{p.text}</span>
            ) : p.kind === 'added' ? (
              <ins key={i}>{p.text}</ins>
            ) : (
              <del key={i}>{p.text}</del>
            ),
          )
        : outputText(value)}
    </div>
  );
}

/**
 * One side's output: a picker naming the run, then each trial's output. With marks on, each trial
 * is diffed against the other side's trial of the same number (or its first): the baseline marks
 * what the compared output dropped, the compared side what it added.
 */
function RunOutput({
  side,
  run,
  runs,
  row,
  trials,
  others,
  marks,
  onPick,
}: {
  side: 'baseline' | 'compared';
  run: CompareRunFigures;
  runs: CompareRunFigures[];
  row: CompareTableRow;
  trials: readonly EvalResultsTrial[];
  others: readonly EvalResultsTrial[];
  marks: boolean;
  onPick: CompareRowViewProps['onPick'];
}) {
  const { entity = '', project = '' } = useParams();
  const partsOf = (trial: EvalResultsTrial, i: number) => {
    const other = others[i] ?? others[0];
    if (!marks || !other) return undefined;
    const mine = outputText(trial.model_output);
    const theirs = outputText(other.model_output);
    const parts = side === 'baseline' ? diffWords(mine, theirs) : diffWords(theirs, mine);
    return parts.filter((p) => p.kind === 'same' || p.kind === (side === 'baseline' ? 'removed' : 'added'));
  };
  return (
    <article className="eval-row-run" aria-label={`Output ${run.letter}${side === 'baseline' ? ' (baseline)' : ''}`}>
      <header>
        <label className="eval-row-pick">
          <span className="muted">{side === 'baseline' ? 'Baseline' : 'Compared with'}</span>
          <select
            className="input small"
            aria-label={side === 'baseline' ? 'Baseline run' : 'Compared run'}
            value={run.id}
            onChange={(e) => onPick(side, e.target.value)}
          >
            <RunOptions runs={runs} />
          </select>
        </label>
        {side === 'baseline' && <span className="eval-baseline-tag">baseline</span>}
      </header>
      {trials.length === 0 && <p className="muted">This run has no result for this row.</p>}
      {trials.map((trial, i) => (
        <div key={trial.predict_and_score_call_id} className="eval-row-trial">
          <div className="eval-row-trial-head muted small">
            {trials.length > 1 && (
              <span>
                Trial {i + 1} of {trials.length}
              </span>
            )}
            <Link
              to={trialHref({ entity, project, traceId: run.traceId, callId: trial.predict_and_score_call_id })}
              aria-label={`Trace of run ${run.letter}, row ${row.position}${trials.length > 1 ? `, trial ${i + 1}` : ''}`}
            >
              trace ↗
            </Link>
          </div>
          <Text value={trial.model_output} parts={partsOf(trial, i)} />
        </div>
      ))}
    </article>
  );
}

/** Every run's scores of the row, the non-baseline ones with their difference from the baseline. */
function RowScores({
  row,
  runs,
  baselineId,
  metrics,
}: {
  row: CompareTableRow;
  runs: CompareRunFigures[];
  baselineId: string;
  metrics: ScoreMetric[];
}) {
  if (metrics.length === 0) return null;
  return (
    <div className="eval-row-scores-wrap">
      <table className="simple-table eval-row-scores" aria-label="Scores of this row">
        <thead>
          <tr>
            <th>Score</th>
            {runs.map((r) => (
              <th key={r.id} title={r.label}>
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
                  const d = r.id === baselineId || m.type === 'text' ? null : delta(base, value);
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
    </div>
  );
}
