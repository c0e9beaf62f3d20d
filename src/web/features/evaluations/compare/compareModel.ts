/**
 * The arithmetic of comparing runs, kept apart from the components so it can be tested by hand:
 * deltas against a baseline, which rows differ, the dataset columns of a set of rows, and whether
 * the runs' evaluations used the same dataset and scorers.
 */
import type { EvalResultsRow, EvalResultsTrial } from '../../../../contract/evalResults.js';
import type { EvaluationReadRes } from '../../../../contract/v2Objects.js';
import { trialsMean, type ScoreMetric } from '../scoreModel.js';

/** A value against the baseline's: the difference, and that difference relative to the baseline. */
export interface Delta {
  abs: number;
  /** `abs / |baseline|`; null when the baseline is 0. */
  pct: number | null;
}

/** The delta of `value` from `baseline`; null when either is unknown. */
export function delta(baseline: number | null, value: number | null): Delta | null {
  if (baseline === null || value === null) return null;
  const abs = value - baseline;
  return { abs, pct: baseline === 0 ? null : abs / Math.abs(baseline) };
}

/** `+0.150` / `−20.0 pp` (pass rates move in percentage points) and `(+21.4%)`. */
export function formatDelta(d: Delta, type: ScoreMetric['type'] | 'count' | 'cost' | 'seconds'): { abs: string; pct: string } {
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '±');
  const a = Math.abs(d.abs);
  const abs =
    type === 'binary'
      ? `${sign(d.abs)}${(a * 100).toFixed(1)} pp`
      : type === 'count'
        ? `${sign(d.abs)}${Math.round(a)}`
        : type === 'cost'
          ? `${sign(d.abs)}$${a < 1 ? a.toFixed(4) : a.toFixed(2)}`
          : type === 'seconds'
            ? `${sign(d.abs)}${a.toFixed(2)} s`
            : `${sign(d.abs)}${a.toFixed(3)}`;
  const pct = d.pct === null ? '' : `${sign(d.pct)}${Math.abs(d.pct * 100).toFixed(1)}%`;
  return { abs, pct };
}

/** A dataset row across runs: each run's trials (absent when the run has not got the row). */
export interface CompareRow {
  rowDigest: string;
  example: unknown;
  trials: ReadonlyMap<string, readonly EvalResultsTrial[]>;
}

/** eval_results rows as compare rows. */
export function toCompareRows(rows: readonly EvalResultsRow[]): CompareRow[] {
  return rows.map((r) => ({
    rowDigest: r.row_digest,
    example: r.raw_data_row,
    trials: new Map(r.evaluations.map((e) => [e.evaluation_call_id, e.trials])),
  }));
}

const EPSILON = 1e-9;

/**
 * True when the runs disagree on the row: some metric's mean (booleans 1/0) differs between two
 * runs, or some runs have the row and others do not.
 */
export function rowDiffers(row: CompareRow, runIds: readonly string[], metrics: readonly ScoreMetric[]): boolean {
  if (runIds.some((id) => !row.trials.has(id))) return true;
  return metrics.some((m) => {
    const values = runIds.map((id) => trialsMean(row.trials.get(id) ?? [], m));
    const known = values.filter((v): v is number => v !== null);
    if (known.length !== values.length && known.length > 0) return true;
    return known.length > 1 && Math.max(...known) - Math.min(...known) > EPSILON;
  });
}

/** The keys of dataset rows (objects), in first-seen order, at most `max`. */
export function datasetColumns(examples: readonly unknown[], max = 6): string[] {
  const keys = new Set<string>();
  for (const e of examples) {
    if (e && typeof e === 'object' && !Array.isArray(e)) for (const k of Object.keys(e)) keys.add(k);
    if (keys.size >= max) break;
  }
  return [...keys].slice(0, max);
}

/** A value of a dataset row by key (the row itself when it is not an object, e.g. an unresolved ref). */
export function exampleValue(example: unknown, key: string | null): unknown {
  if (key === null) return example;
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>)[key] : undefined;
}

/** What differs between the evaluations behind a set of runs. */
export interface SetupDifference {
  what: 'dataset' | 'scorers';
  /** Each distinct value (a dataset ref, or the sorted scorer refs joined) with the runs that used it. */
  variants: { value: string; runIds: string[] }[];
}

/**
 * Differences in dataset or scorer versions between runs, from their evaluation objects
 * (`byRun`: run id → the evaluation object it ran, null when it could not be read).
 */
export function setupDifferences(byRun: ReadonlyMap<string, Pick<EvaluationReadRes, 'dataset' | 'scorers'> | null>): SetupDifference[] {
  const group = (
    what: SetupDifference['what'],
    valueOf: (e: Pick<EvaluationReadRes, 'dataset' | 'scorers'>) => string,
  ): SetupDifference | null => {
    const variants = new Map<string, string[]>();
    for (const [runId, evaluation] of byRun) {
      if (!evaluation) continue;
      const value = valueOf(evaluation);
      variants.set(value, [...(variants.get(value) ?? []), runId]);
    }
    return variants.size > 1 ? { what, variants: [...variants].map(([value, runIds]) => ({ value, runIds })) } : null;
  };
  return [group('dataset', (e) => e.dataset), group('scorers', (e) => [...e.scorers].sort().join(', '))].filter(
    (d): d is SetupDifference => d !== null,
  );
}
