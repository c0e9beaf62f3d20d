/**
 * The `summary` of eval_results/query (docs/api/evaluations.md §2.3), as the reference's
 * compute_summary_from_rows builds it: per evaluation, its root call's refs and name, the trial
 * count, and one stats entry per score leaf (`scorer_key` plus the dotted `path` inside an
 * object score). A boolean leaf is binary (pass counts and rate), a number continuous (mean),
 * a string text (counted only).
 *
 * Decisions: evaluations appear in request order (those with no trial among the rows are
 * left out, as in the reference); `predict_total_tokens` / `predict_total_cost` sum the trials
 * that report them, null when none does.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { EvalResultsEvaluationSummary, EvalResultsScorerStats } from '../../../contract/evalResults.js';
import type { EvalRow } from './evalResultsRows.js';

type Stats = EvalResultsScorerStats;

function addLeaf(stats: Map<string, Stats>, key: string, path: string[], value: unknown): void {
  const type = typeof value === 'boolean' ? 'binary' : typeof value === 'number' ? 'continuous' : typeof value === 'string' ? 'text' : null;
  if (type === null) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) addLeaf(stats, key, [...path, k], v);
    }
    return;
  }
  const id = JSON.stringify([key, ...path]);
  const s = stats.get(id) ?? {
    scorer_key: key,
    path: path.length ? path.join('.') : null,
    value_type: type,
    trial_count: 0,
    numeric_count: 0,
    numeric_mean: null,
    pass_true_count: 0,
    pass_known_count: 0,
    pass_rate: null,
    pass_signal_coverage: null,
  };
  stats.set(id, s);
  s.trial_count += 1;
  if (typeof value === 'boolean') {
    s.pass_known_count += 1;
    if (value) s.pass_true_count += 1;
  } else if (typeof value === 'number') {
    s.numeric_mean = ((s.numeric_mean ?? 0) * s.numeric_count + value) / (s.numeric_count + 1);
    s.numeric_count += 1;
  }
}

const sumOrNull = (values: (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
};

/** The summary over `rows` of the evaluations `evalIds`, with metadata from their root calls. */
export function summarizeEvalRows(
  rows: EvalRow[],
  evalIds: string[],
  roots: Map<string, CallSchema>,
): { row_count: number; evaluations: EvalResultsEvaluationSummary[] } {
  const evaluations: EvalResultsEvaluationSummary[] = [];
  for (const id of evalIds) {
    let rowCount = 0;
    const trials: NonNullable<ReturnType<EvalRow['trials']['get']>> = [];
    for (const r of rows) {
      const own = r.trials.get(id);
      if (!own?.length) continue;
      rowCount++;
      for (const t of own) trials.push(t);
    }
    if (!trials.length) continue;
    const stats = new Map<string, Stats>();
    for (const t of trials) for (const [key, value] of Object.entries(t.scores)) addLeaf(stats, key, [], value);
    for (const s of stats.values()) {
      if (s.pass_known_count) s.pass_rate = s.pass_true_count / s.pass_known_count;
      s.pass_signal_coverage = s.pass_known_count / s.trial_count;
    }
    const root = roots.get(id);
    const inputs = root?.inputs ?? {};
    const ref = (v: unknown) => (typeof v === 'string' ? v : null);
    evaluations.push({
      evaluation_call_id: id,
      evaluation_ref: ref(inputs.self ?? inputs.this),
      model_ref: ref(inputs.model),
      display_name: root?.display_name ?? null,
      trace_id: root?.trace_id ?? null,
      started_at: root?.started_at ?? null,
      trial_count: trials.length,
      row_count: rowCount,
      predict_total_tokens: sumOrNull(trials.map((t) => t.total_tokens)),
      predict_total_cost: sumOrNull(trials.map((t) => t.total_cost)),
      scorer_stats: [...stats.values()],
    });
  }
  return { row_count: rows.length, evaluations };
}
