/**
 * `POST /v2/{entity}/{project}/eval_results/query`: evaluation results grouped by dataset row,
 * several evaluations side by side, with filters, sorting, paging and per-scorer summaries.
 * Works for runs made through the v2 APIs and for evaluations run by the SDKs alike; see
 * docs/api/evaluations.md §2.3.
 */
import { z } from 'zod';
import { JsonObject, Query, SortDirection } from './common.js';
import { GenAISpanRef } from './predictions.js';
import { V2Path } from './v2Objects.js';

const FIELDS = 'scores.<scorer>[.<path>], inputs.<path> or outputs.<path>';

export const EvalResultsFilter = z.object({
  evaluation_call_id: z.string().nullish().describe('Test only this evaluation; absent: each evaluation'),
  query: Query.describe(`Over ${FIELDS}`),
});

export const EvalResultsSortBy = z.object({
  field: z.string().min(1).describe(FIELDS),
  direction: SortDirection,
  evaluation_call_id: z.string().nullish().describe("Sort by this evaluation's value (mode value)"),
  mode: z.enum(['value', 'difference']).nullish().describe('difference: max - min across evaluations; default value'),
});

export const EvalResultsQueryReq = z.object({
  ...V2Path,
  evaluation_call_ids: z.array(z.string()).nullish().describe('Evaluation root calls (Evaluation.evaluate calls or runs)'),
  evaluation_run_ids: z.array(z.string()).nullish().describe('Alias, appended after evaluation_call_ids'),
  filters: z.array(EvalResultsFilter).nullish().describe('ANDed'),
  filter_logic_operator: z.enum(['and', 'or']).nullish().describe('Row must match in all (and) or any (or, default) evaluation'),
  sort_by: z.array(EvalResultsSortBy).nullish().describe('Default row_digest ascending'),
  include_rows: z.boolean().nullish().describe('Default true'),
  include_summary: z.boolean().nullish().describe('Default false'),
  include_raw_data_rows: z.boolean().nullish().describe('Default false'),
  resolve_row_refs: z.boolean().nullish().describe('Resolve dataset-row refs in raw_data_row; default false'),
  include_predict_and_score_children: z.boolean().nullish().describe('Read predict/score children; default true'),
  include_costs: z.boolean().nullish().describe("Price each trial's predict call; default false"),
  require_intersection: z.boolean().nullish().describe('Only rows present in every evaluation; default false'),
  summary_require_intersection: z.boolean().nullish().describe('Default: require_intersection'),
  limit: z.number().int().min(0).nullish(),
  offset: z.number().int().min(0).nullish(),
});
export type EvalResultsQueryReq = z.infer<typeof EvalResultsQueryReq>;

export const EvalResultsTrial = z.object({
  predict_and_score_call_id: z.string(),
  predict_call_id: z.string().nullable(),
  model_output: z.unknown(),
  scores: JsonObject,
  scorer_call_ids: z.record(z.string(), z.string()),
  model_latency_seconds: z.number().nullable(),
  total_tokens: z.number().int().nullable(),
  total_cost: z.number().nullable(),
  genai_span_ref: z.array(GenAISpanRef).nullable(),
});
export type EvalResultsTrial = z.infer<typeof EvalResultsTrial>;

export const EvalResultsRow = z.object({
  row_digest: z.string(),
  raw_data_row: z.unknown(),
  evaluations: z.array(z.object({ evaluation_call_id: z.string(), trials: z.array(EvalResultsTrial) })),
});
export type EvalResultsRow = z.infer<typeof EvalResultsRow>;

export const EvalResultsScorerStats = z.object({
  scorer_key: z.string(),
  path: z.string().nullable().describe('Dotted path of a nested leaf; null for a scalar scorer'),
  value_type: z.enum(['binary', 'continuous', 'text']),
  trial_count: z.number().int(),
  numeric_count: z.number().int(),
  numeric_mean: z.number().nullable(),
  pass_true_count: z.number().int(),
  pass_known_count: z.number().int(),
  pass_rate: z.number().nullable(),
  pass_signal_coverage: z.number().nullable(),
});
export type EvalResultsScorerStats = z.infer<typeof EvalResultsScorerStats>;

export const EvalResultsEvaluationSummary = z.object({
  evaluation_call_id: z.string(),
  evaluation_ref: z.string().nullable(),
  model_ref: z.string().nullable(),
  display_name: z.string().nullable(),
  trace_id: z.string().nullable(),
  started_at: z.string().nullable(),
  trial_count: z.number().int(),
  // Weft addition: lets one query give a list of runs their row counts (no query per run).
  row_count: z.number().int().describe('Dataset rows with at least one trial of this evaluation'),
  predict_total_tokens: z.number().int().nullable(),
  predict_total_cost: z.number().nullable(),
  scorer_stats: z.array(EvalResultsScorerStats),
});
export type EvalResultsEvaluationSummary = z.infer<typeof EvalResultsEvaluationSummary>;

export const EvalResultsSummary = z.object({
  row_count: z.number().int(),
  evaluations: z.array(EvalResultsEvaluationSummary),
});

export const EvalResultsQueryRes = z.object({
  rows: z.array(EvalResultsRow),
  total_rows: z.number().int(),
  summary: EvalResultsSummary.nullable(),
  warnings: z.array(z.string()),
});
export type EvalResultsQueryRes = z.infer<typeof EvalResultsQueryRes>;
