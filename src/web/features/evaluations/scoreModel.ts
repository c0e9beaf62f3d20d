/**
 * Scores as the evaluation pages use them. A metric is one score leaf eval_results summarizes
 * (`scorer_key` plus a dotted `path` inside an object score): binary leaves have a pass rate,
 * continuous ones a mean. Values per trial are read from `trial.scores` by the same path.
 */
import type { Operation, Query } from '../../../contract/common.js';
import type { EvalResultsScorerStats, EvalResultsTrial } from '../../../contract/evalResults.js';

/** One score leaf: where it is, what to call it and how to summarize it. */
export interface ScoreMetric {
  /** Stable id and eval_results field: `scores.<key>[.<path>]`. */
  field: string;
  key: string;
  path: string | null;
  label: string;
  type: EvalResultsScorerStats['value_type'];
}

/** The metric a scorer stats entry describes. */
export function metricOf(stats: Pick<EvalResultsScorerStats, 'scorer_key' | 'path' | 'value_type'>): ScoreMetric {
  const label = stats.path ? `${stats.scorer_key}.${stats.path}` : stats.scorer_key;
  return { field: `scores.${label}`, key: stats.scorer_key, path: stats.path, label, type: stats.value_type };
}

/** Every metric in several summaries, each once, in first-seen order. */
export function metricsOf(summaries: readonly { scorer_stats: readonly EvalResultsScorerStats[] }[]): ScoreMetric[] {
  const out = new Map<string, ScoreMetric>();
  for (const s of summaries) for (const st of s.scorer_stats) if (!out.has(metricOf(st).field)) out.set(metricOf(st).field, metricOf(st));
  return [...out.values()];
}

/** A metric's value in one trial (undefined when the scorer gave none). */
export function scoreValue(trial: EvalResultsTrial, metric: ScoreMetric): unknown {
  let v: unknown = trial.scores[metric.key];
  for (const step of metric.path ? metric.path.split('.') : []) {
    v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[step] : undefined;
  }
  return v;
}

/** A score as a number: booleans count 1/0, as eval_results' sorts count them. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/** The mean of a metric over some trials (one row's trials in one run); null without values. */
export function trialsMean(trials: readonly EvalResultsTrial[], metric: ScoreMetric): number | null {
  const nums = trials.flatMap((t) => toNumber(scoreValue(t, metric)) ?? []);
  return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null;
}

/** A run's headline figure for a metric: pass rate (0–1) or mean; null for text or no data. */
export function summaryValue(stats: EvalResultsScorerStats | undefined): number | null {
  if (!stats) return null;
  return stats.value_type === 'binary' ? stats.pass_rate : stats.value_type === 'continuous' ? stats.numeric_mean : null;
}

/** The stats entry of a metric in one summary. */
export function statsFor(
  summary: { scorer_stats: readonly EvalResultsScorerStats[] } | undefined,
  metric: ScoreMetric,
): EvalResultsScorerStats | undefined {
  return summary?.scorer_stats.find((s) => s.scorer_key === metric.key && s.path === metric.path);
}

/** `85.0%` for a pass rate, `0.734` for a mean. */
export function formatMetric(value: number | null, type: ScoreMetric['type']): string {
  if (value === null) return '—';
  if (type === 'binary') return `${(value * 100).toFixed(1)}%`;
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3);
}

/**
 * The filter "failures only" stands for: any binary score false, or (with a threshold) any
 * continuous score below it. Null when there is nothing to test.
 */
export function failureQuery(metrics: readonly ScoreMetric[], threshold: number | null): Query | null {
  const tests = metrics.flatMap((m): Operation[] => {
    const field = { $getField: m.field };
    if (m.type === 'binary') return [{ $eq: [field, { $literal: false }] }];
    if (m.type === 'continuous' && threshold !== null) return [{ $lt: [field, { $literal: threshold }] }];
    return [];
  });
  if (!tests.length) return null;
  return { $expr: tests.length === 1 ? tests[0]! : { $or: tests } };
}

/** One bar of a histogram: values in `[from, to)` (the last bar includes `to`). */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/**
 * Equal-width bins over the values' range, or over 0–1 when every value lies there (most
 * scorers grade 0–1, and a fixed scale makes runs comparable by eye).
 */
export function histogram(values: readonly number[], bins = 10): HistogramBin[] {
  if (!values.length) return [];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo >= 0 && hi <= 1) [lo, hi] = [0, 1];
  if (hi === lo) return [{ from: lo, to: hi, count: values.length }];
  const width = (hi - lo) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ from: lo + i * width, to: lo + (i + 1) * width, count: 0 }));
  for (const v of values) out[Math.min(bins - 1, Math.floor((v - lo) / width + 1e-9))]!.count += 1;
  return out;
}
