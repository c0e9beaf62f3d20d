/**
 * The summary a finished run carries (its output and its `Evaluation.summarize` call), computed
 * the way the Python SDK's `Evaluation.summarize` does with `auto_summarize`: per scorer, and
 * for the model output and latency, booleans become `{true_count, true_fraction}`, numbers
 * `{mean}`, objects are summarized key by key, anything else is left out. Nulls (a row the
 * scorer skipped) do not count.
 *
 * The reference's v2 finish keeps only float means; following the SDK instead makes a run
 * made through the API summarize like an SDK evaluation of the same data.
 */

type Summary = Record<string, unknown>;

/** `auto_summarize`: a column of values of the first value's type, summarized; null when nothing to say. */
export function autoSummarize(values: unknown[]): Summary | null {
  const known = values.filter((v) => v !== null && v !== undefined);
  if (!known.length) return null;
  const first = known[0];
  if (typeof first === 'boolean') {
    const bools = known.filter((v): v is boolean => typeof v === 'boolean');
    const trueCount = bools.filter(Boolean).length;
    return { true_count: trueCount, true_fraction: trueCount / bools.length };
  }
  if (typeof first === 'number') {
    const nums = known.filter((v): v is number => typeof v === 'number');
    return { mean: nums.reduce((a, b) => a + b, 0) / nums.length };
  }
  if (typeof first === 'object' && !Array.isArray(first)) {
    const objects = known.filter((v): v is Summary => typeof v === 'object' && !Array.isArray(v));
    const out: Summary = {};
    for (const key of new Set(objects.flatMap((o) => Object.keys(o)))) {
      const inner = autoSummarize(objects.map((o) => o[key]));
      if (inner !== null) out[key] = inner;
    }
    return Object.keys(out).length ? out : null;
  }
  return null;
}

/** The outputs of a run's predict_and_score calls, as they end (see predictAndScoreOutput). */
export interface RowResult {
  output: unknown;
  scores: Record<string, unknown>;
  model_latency: unknown;
}

/** `{<scorer>: ..., output: ..., model_latency: ...}` over a run's rows; absent keys had nothing to summarize. */
export function summarizeRun(rows: RowResult[]): Summary {
  const summary: Summary = {};
  for (const scorer of new Set(rows.flatMap((r) => Object.keys(r.scores)))) {
    const s = autoSummarize(rows.map((r) => r.scores[scorer]));
    if (s !== null) summary[scorer] = s;
  }
  const output = autoSummarize(rows.map((r) => r.output));
  if (output !== null) summary.output = output;
  const latency = autoSummarize(rows.map((r) => (r.model_latency as { mean?: unknown } | null)?.mean ?? r.model_latency));
  if (latency !== null) summary.model_latency = latency;
  return summary;
}
