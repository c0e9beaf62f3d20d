/**
 * Call statistics and LLM usage: `/calls/stats` (time series of call and usage metrics),
 * `/calls/usage` and `/trace/usage` (token usage per model, rolled up over descendants).
 * Shapes follow the Weave trace server's `CallStatsReq/Res`, `CallsUsageReq/Res` and
 * `TraceUsageReq/Res`; see docs/api/evaluations.md §4.
 */
import { z } from 'zod';
import { CallsFilter } from './calls.js';
import { DateTime, ProjectId, Query } from './common.js';

/** `count_true`/`count_false` count values equal to 1 and 0 (the reference shares the enum with feedback). */
export const AggregationType = z.enum(['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false']);
export type AggregationType = z.infer<typeof AggregationType>;

/** Grouped by time bucket and model; costs price each call at the price in force when it started. */
export const USAGE_METRICS = [
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
  'input_cost',
  'output_cost',
  'total_cost',
] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Grouped by time bucket only. */
export const CALL_METRICS = ['latency_ms', 'call_count', 'error_count'] as const;
export type CallMetric = (typeof CALL_METRICS)[number];

const metricSpec = <M extends readonly [string, ...string[]]>(metrics: M) =>
  z.object({
    metric: z.enum(metrics),
    aggregations: z.array(AggregationType).nullish().describe('Default: sum, unless percentiles are given'),
    percentiles: z.array(z.number().min(0).max(100)).nullish().describe('Each gives a "p<N>_<metric>" column'),
  });

export const UsageMetricSpec = metricSpec(USAGE_METRICS);
export type UsageMetricSpec = z.infer<typeof UsageMetricSpec>;
export const CallMetricSpec = metricSpec(CALL_METRICS);
export type CallMetricSpec = z.infer<typeof CallMetricSpec>;

/** True for names the runtime's time-zone database knows ("UTC", "Europe/Berlin", ...). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// POST /calls/stats
export const CallStatsReq = z.object({
  project_id: ProjectId,
  start: DateTime.describe('Inclusive start'),
  end: DateTime.nullish().describe('Exclusive end; default now'),
  granularity: z
    .number()
    .int()
    .positive()
    .nullish()
    .describe('Bucket width in seconds; chosen from the window when absent, widened to keep at most 10,000 buckets'),
  usage_metrics: z.array(UsageMetricSpec).nullish(),
  call_metrics: z.array(CallMetricSpec).nullish(),
  filter: CallsFilter.nullish(),
  timezone: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as "Europe/Berlin"')
    .nullish()
    .describe('IANA zone the buckets align to; default UTC'),
});
export type CallStatsReq = z.infer<typeof CallStatsReq>;

/** One bucket: `timestamp` (bucket start), `count`, and `<agg>_<metric>` / `p<N>_<metric>` columns. */
const Bucket = z.record(z.string(), z.unknown());

export const CallStatsRes = z.object({
  start: z.string(),
  end: z.string(),
  granularity: z.number().int(),
  timezone: z.string(),
  usage_buckets: z.array(Bucket).describe('One per time bucket and model, models with usage in the window only'),
  call_buckets: z.array(Bucket).describe('One per time bucket, empty buckets included'),
});
export type CallStatsRes = z.infer<typeof CallStatsRes>;

/** Token usage of one model, summed over a call and its descendants. */
export const LLMAggregatedUsage = z.object({
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
  cache_creation_input_tokens: z.number().int(),
  prompt_tokens_total_cost: z.number().nullable(),
  completion_tokens_total_cost: z.number().nullable(),
  cache_read_input_tokens_total_cost: z.number().nullable(),
  cache_creation_input_tokens_total_cost: z.number().nullable(),
});
export type LLMAggregatedUsage = z.infer<typeof LLMAggregatedUsage>;

const UsageByCall = z.record(z.string(), z.record(z.string(), LLMAggregatedUsage)).describe('call id → model → usage');
const Limit = z.number().int().nullish().describe('Most calls aggregated at once (default 10,000); below 1 is a 400');

// POST /calls/usage
export const CallsUsageReq = z.object({
  project_id: ProjectId,
  call_ids: z.array(z.string()).describe('Calls to report; each is rolled up with its descendants'),
  include_costs: z.boolean().nullish(),
  limit: Limit,
});
export type CallsUsageReq = z.infer<typeof CallsUsageReq>;
export const CallsUsageRes = z.object({
  call_usage: UsageByCall,
  unfinished_call_ids: z.array(z.string()).describe('Calls of the same traces that have not ended, sorted'),
});
export type CallsUsageRes = z.infer<typeof CallsUsageRes>;

// POST /trace/usage
export const TraceUsageReq = z.object({
  project_id: ProjectId,
  filter: CallsFilter.nullish().describe('Usually {trace_ids: [...]}'),
  query: Query.nullish(),
  include_costs: z.boolean().nullish(),
  limit: Limit,
});
export type TraceUsageReq = z.infer<typeof TraceUsageReq>;
export const TraceUsageRes = CallsUsageRes;
export type TraceUsageRes = CallsUsageRes;
