/**
 * A metric over one row's trials in one run. One trial shows its own value (✓ pass, 0.750);
 * several are shown as trials, never as a bare mean that reads like a score: binary metrics as
 * "2/3 pass", numbers as the mean with the trial count.
 */
import type { EvalResultsTrial } from '../../../../contract/evalResults.js';
import { ScoreCell } from './ScoreCell.js';
import { scoreValue, trialsMean, type ScoreMetric } from '../scoreModel.js';

/** Passes and known values of a binary metric over trials. */
export function passCount(trials: readonly EvalResultsTrial[], metric: ScoreMetric): { pass: number; known: number } {
  const values = trials.map((t) => scoreValue(t, metric)).filter((v) => v !== undefined && v !== null);
  return { pass: values.filter((v) => v === true || v === 1).length, known: values.length };
}

/** Trials score. */
export function TrialsScore({ trials, metric }: { trials: readonly EvalResultsTrial[] | undefined; metric: ScoreMetric }) {
  if (!trials?.length) return <span className="muted">—</span>;
  if (trials.length === 1) return <ScoreCell value={scoreValue(trials[0]!, metric)} />;
  if (metric.type === 'binary') {
    const { pass, known } = passCount(trials, metric);
    const cls = known === 0 ? 'muted' : pass === known ? 'score-pass' : pass === 0 ? 'score-fail' : 'score-mixed';
    return (
      <span className={cls} title={`${pass} of ${known} trials passed`}>
        {pass}/{known} pass
      </span>
    );
  }
  if (metric.type === 'continuous') {
    const mean = trialsMean(trials, metric);
    return (
      <span className="num" title={`mean over ${trials.length} trials`}>
        {mean === null ? '—' : mean.toFixed(3)} <span className="muted small">· {trials.length} trials</span>
      </span>
    );
  }
  return (
    <span>
      <ScoreCell value={scoreValue(trials[0]!, metric)} /> <span className="muted small">+{trials.length - 1}</span>
    </span>
  );
}
