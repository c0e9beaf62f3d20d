/**
 * Feedback: reactions, notes, annotations and runnable (scorer) results attached to a ref,
 * usually a call. Shapes follow the Weave trace server (`FeedbackCreateReq`, ...); see
 * docs/api/core.md §3.7 and docs/api/evaluations.md §4 (stats, payload schema).
 */
import { z } from 'zod';
import { DateTime, JsonObject, Limit, Offset, ProjectId, Query, SortBy } from './common.js';

/**
 * What a scorer concluded and which span it scored, typed beside the payload, as the newest
 * reference's feedback rows hold them (its agent monitors write them; so can any client of
 * `/feedback/create`). `/feedback/aggregate` counts the tags and ratings and groups by the
 * span fields. Ratings and confidences are meant to lie in 0-1; like the reference, any number
 * is kept.
 */
export const ScorerFeedbackFields = {
  scorer_tags: z.array(z.string()).nullish().describe('Tags the scorer applied to the ref'),
  scorer_tag_reasons: z.record(z.string(), z.string()).nullish().describe('Reason per tag'),
  scorer_tag_confidences: z.record(z.string(), z.number()).nullish().describe('Confidence (0-1) per tag'),
  scorer_ratings: z
    .record(z.string(), z.number())
    .nullish()
    .describe('Ratings (0-1) by name; `_rating_` is the one rating_min / rating_max filter on'),
  scorer_rating_reasons: z.record(z.string(), z.string()).nullish().describe('Reason per rating'),
  scorer_rating_confidences: z.record(z.string(), z.number()).nullish().describe('Confidence (0-1) per rating'),
  scorer_trace_id: z.string().nullish().describe("Trace of the scorer's own (judge) call"),
  span_agent_name: z.string().nullish().describe('Name of the scored agent'),
  span_agent_version: z.string().nullish().describe('Version of the scored agent'),
  span_conversation_id: z.string().nullish().describe('Conversation the scored turn belongs to'),
  span_status_code: z.string().nullish().describe('Status of the scored turn'),
  span_trace_id: z.string().nullish().describe('Trace of the scored turn'),
};
export type ScorerFeedback = { [K in keyof typeof ScorerFeedbackFields]?: z.infer<(typeof ScorerFeedbackFields)[K]> };

/** A stored feedback row as `/feedback/query` returns it without `fields`. */
export const Feedback = z.object({
  id: z.string(),
  project_id: z.string(),
  weave_ref: z.string(),
  wb_user_id: z.string().nullable(),
  creator: z.string().nullable(),
  created_at: z.string(),
  feedback_type: z.string(),
  payload: JsonObject,
  annotation_ref: z.string().nullable(),
  runnable_ref: z.string().nullable(),
  call_ref: z.string().nullable(),
  trigger_ref: z.string().nullable(),
  queue_id: z.string().nullable(),
  scorer_tags: z.array(z.string()),
  scorer_tag_reasons: z.record(z.string(), z.string()),
  scorer_tag_confidences: z.record(z.string(), z.number()),
  scorer_ratings: z.record(z.string(), z.number()),
  scorer_rating_reasons: z.record(z.string(), z.string()),
  scorer_rating_confidences: z.record(z.string(), z.number()),
  scorer_trace_id: z.string().nullable(),
  span_agent_name: z.string().nullable(),
  span_agent_version: z.string().nullable(),
  span_conversation_id: z.string().nullable(),
  span_status_code: z.string().nullable(),
  span_trace_id: z.string().nullable(),
});
export type Feedback = z.infer<typeof Feedback>;

// POST /feedback/create
export const FeedbackCreateReq = z.object({
  project_id: ProjectId,
  weave_ref: z.string().min(1).describe('What the feedback is about, usually weave:///<entity>/<project>/call/<id>'),
  feedback_type: z.string().min(1).describe('wandb.reaction.1, wandb.note.1, wandb.annotation.<name>, wandb.runnable.<name>, or your own'),
  payload: JsonObject,
  id: z.string().min(1).max(128).nullish().describe('Client-chosen id; a UUIDv7 when absent'),
  creator: z.string().nullish(),
  annotation_ref: z.string().nullish(),
  runnable_ref: z.string().nullish(),
  call_ref: z.string().nullish(),
  trigger_ref: z.string().nullish(),
  queue_id: z.string().nullish(),
  ...ScorerFeedbackFields,
  wb_user_id: z.string().nullish().describe('Ignored: the server sets the authenticated user'),
});
export type FeedbackCreateReq = z.infer<typeof FeedbackCreateReq>;
export const FeedbackCreateRes = z.object({
  id: z.string(),
  created_at: z.string(),
  wb_user_id: z.string(),
  payload: JsonObject.describe('The payload as stored (reactions gain alias, detoned, detoned_alias)'),
});

// POST /feedback/batch/create
export const FeedbackBatchCreateReq = z.object({ batch: z.array(FeedbackCreateReq) });
export const FeedbackBatchCreateRes = z.object({ res: z.array(FeedbackCreateRes) });

// POST /feedback/query
export const FeedbackQueryReq = z.object({
  project_id: ProjectId,
  fields: z
    .array(z.string())
    .nullish()
    .describe('Columns or payload.<path>; default every column. ["count(*)"] alone answers one row {"count(*)": <matches>}'),
  query: Query.nullish(),
  sort_by: z.array(SortBy).nullish(),
  limit: Limit,
  offset: Offset,
});
export const FeedbackQueryRes = z.object({
  result: z.array(z.record(z.string(), z.unknown())).describe('Rows keyed by the requested fields'),
  total_count: z.number().int().min(0).describe('Rows matching the query, before limit and offset'),
});

// POST /feedback/purge
export const FeedbackPurgeReq = z.object({
  project_id: ProjectId,
  query: Query.describe('Only ids: {"$eq":[{"$getField":"id"},{"$literal":"..."}]} or an $or of those'),
});
export const FeedbackPurgeRes = z.object({});

// POST /feedback/replace
export const FeedbackReplaceReq = FeedbackCreateReq.extend({ feedback_id: z.string().min(1) });
export const FeedbackReplaceRes = FeedbackCreateRes;

// POST /feedback/stats
export const FeedbackValueType = z.enum(['numeric', 'boolean', 'categorical']);
export const FeedbackAggregation = z.enum(['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false']);
export type FeedbackAggregation = z.infer<typeof FeedbackAggregation>;

export const FeedbackMetricSpec = z.object({
  json_path: z.string().min(1).describe('Dotted path inside the payload, e.g. output.score'),
  value_type: FeedbackValueType.default('numeric').describe('Default numeric, as the reference'),
  aggregations: z.array(FeedbackAggregation).nullish(),
  percentiles: z.array(z.number().min(0).max(100)).nullish(),
});
export type FeedbackMetricSpec = z.infer<typeof FeedbackMetricSpec>;

/** The time window and filters shared by stats and payload-schema discovery. */
const FeedbackWindow = {
  project_id: ProjectId,
  start: DateTime.describe('Inclusive start'),
  end: DateTime.nullish().describe('Exclusive end; default now'),
  feedback_type: z.string().nullish(),
  trigger_ref: z.string().nullish().describe('Exact ref, or ending in ":*" for every version'),
};

export const FeedbackStatsReq = z.object({
  ...FeedbackWindow,
  granularity: z.number().int().positive().nullish().describe('Bucket width in seconds; chosen from the window when absent'),
  timezone: z.string().nullish().describe('IANA zone the buckets align to; default UTC'),
  metrics: z.array(FeedbackMetricSpec).nullish(),
});
export type FeedbackStatsReq = z.infer<typeof FeedbackStatsReq>;
export const FeedbackStatsRes = z.object({
  start: z.string(),
  end: z.string(),
  granularity: z.number().int(),
  timezone: z.string(),
  buckets: z.array(z.record(z.string(), z.unknown())).describe('{timestamp, count, "<agg>__<slug>": number|null}'),
  window_stats: z.record(z.string(), z.record(z.string(), z.number().nullable())),
});
export type FeedbackStatsRes = z.infer<typeof FeedbackStatsRes>;

// POST /feedback/payload_schema
export const FeedbackPayloadSchemaReq = z.object({
  ...FeedbackWindow,
  sample_limit: z.number().int().min(1).nullish().describe('Rows sampled (default 2000, at most 5000)'),
});
export type FeedbackPayloadSchemaReq = z.infer<typeof FeedbackPayloadSchemaReq>;
export const FeedbackPayloadSchemaRes = z.object({
  paths: z.array(z.object({ json_path: z.string(), value_type: FeedbackValueType.nullable() })),
});

// POST /feedback/aggregate (newest reference: scorer feedback by time bucket and dimension)
const FEEDBACK_AGG_MAX_DAYS = 31;
const FEEDBACK_AGG_MAX_BUCKETS = 256;
const DAY_MS = 24 * 3600 * 1000;
export const FeedbackAggregateGroupBy = z.enum(['scorer_id', 'span_agent_name', 'span_agent_version', 'span_status_code']);
export type FeedbackAggregateGroupBy = z.infer<typeof FeedbackAggregateGroupBy>;
export const FeedbackAggregateReq = z
  .object({
    project_id: ProjectId,
    after_ms: z.number().int().min(0).describe('Inclusive lower bound on created_at (ms since epoch)'),
    before_ms: z.number().int().min(0).describe('Exclusive upper bound on created_at (ms since epoch)'),
    time_bucket_seconds: z.number().int().positive().nullish().describe('Bucket size; none means one row per group'),
    feedback_types: z.array(z.string()).nullish().default([]).describe('feedback_type prefixes (a trailing * is allowed)'),
    tags: z.array(z.string()).nullish().default([]).describe('Rows carrying any of these scorer tags'),
    rating_min: z.number().min(0).max(1).nullish(),
    rating_max: z.number().min(0).max(1).nullish(),
    monitor_ids: z.array(z.string()).nullish().default([]).describe("trigger_ref object ids; a trailing '*' matches a prefix"),
    scorer_ids: z.array(z.string()).nullish().default([]).describe("runnable_ref object ids; a trailing '*' matches a prefix"),
    span_agent_names: z.array(z.string()).nullish().default([]),
    span_types: z
      .array(z.enum(['agent_turn', 'agent_conversation']))
      .nullish()
      .default([]),
    group_by: z.array(FeedbackAggregateGroupBy).nullish().default([]),
  })
  .superRefine((r, ctx) => {
    // The reference's model validator, rule for rule.
    const range = r.before_ms - r.after_ms;
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['before_ms'] });
    if (range <= 0) return issue('before_ms must be greater than after_ms');
    if (range > FEEDBACK_AGG_MAX_DAYS * DAY_MS) {
      const filtered =
        Boolean(r.feedback_types?.length || r.tags?.length || r.monitor_ids?.length || r.scorer_ids?.length) ||
        Boolean(r.span_agent_names?.length || r.span_types?.length) ||
        r.rating_min != null ||
        r.rating_max != null;
      if (r.time_bucket_seconds != null || r.group_by?.length || filtered) {
        issue(
          `Feedback requests over ${FEEDBACK_AGG_MAX_DAYS} days must be a project-wide total: no time_bucket_seconds, no group_by, and no filters.`,
        );
      }
    }
    if (r.time_bucket_seconds != null && range / 1000 / r.time_bucket_seconds > FEEDBACK_AGG_MAX_BUCKETS) {
      issue(`Feedback request range cannot exceed ${FEEDBACK_AGG_MAX_BUCKETS} buckets`);
    }
  });
export type FeedbackAggregateReq = z.infer<typeof FeedbackAggregateReq>;
export const FeedbackAggregateBucket = z.object({
  time_bucket_start_ms: z.number().int().nullable().describe('Bucket start (ms, UTC); null when unbucketed'),
  group: z.record(z.string(), z.string()).describe('The group_by values of this row'),
  total_count: z.number().int(),
  scored_count: z.number().int().describe('Rows with at least one scorer tag or rating'),
  tag_counts: z.record(z.string(), z.number().int()),
  rating_counts: z.record(z.string(), z.number().int()),
  rating_sums: z.record(z.string(), z.number()),
});
export const FeedbackAggregateRes = z.object({
  time_bucket_seconds: z.number().int().nullable(),
  after_ms: z.number().int(),
  before_ms: z.number().int(),
  buckets: z.array(FeedbackAggregateBucket).describe('Sparse: buckets without rows are left out'),
});
