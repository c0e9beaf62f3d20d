/**
 * Feedback: reactions, notes, annotations and runnable (scorer) results attached to a ref,
 * usually a call. Shapes follow the Weave trace server (`FeedbackCreateReq`, ...); see
 * api/core.md §3.7 and api/evaluation-and-more.md §4 (stats, payload schema).
 */
import { z } from 'zod';
import { DateTime, JsonObject, Limit, Offset, ProjectId, Query, SortBy } from './common.js';

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
  fields: z.array(z.string()).nullish().describe('Columns or payload.<path>; default every column'),
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
  value_type: FeedbackValueType,
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
