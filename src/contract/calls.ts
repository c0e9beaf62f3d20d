/**
 * Calls: the traced executions of ops. Shapes follow the Weave trace server's pydantic
 * models (`StartedCallSchemaForInsert`, `EndedCallSchemaForInsert`, `CallSchema`, ...);
 * see docs/api/core.md §2 and §3.2.
 */
import { z } from 'zod';
import { DateTime, JsonObject, Limit, NamePart, Offset, ProjectId, Query, SortBy } from './common.js';

const Id = z.string().min(1).max(128);
const IdList = z.array(z.string()).max(1000).nullish();

/** Token usage of one model, as the SDKs report it in `summary.usage[<model>]`. */
export const LLMUsage = z.looseObject({
  prompt_tokens: z.number().int().nullish(),
  input_tokens: z.number().int().nullish(),
  completion_tokens: z.number().int().nullish(),
  output_tokens: z.number().int().nullish(),
  requests: z.number().int().nullish(),
  total_tokens: z.number().int().nullish(),
});

/** One model's token counts under Weft's usage rule (server/core/usage.ts). */
export const ModelTokens = z.object({
  input_tokens: z.number().int().describe('prompt_tokens + input_tokens'),
  output_tokens: z.number().int().describe('completion_tokens + output_tokens'),
  total_tokens: z.number().int().describe('total_tokens when positive, else input + output'),
  requests: z.number().int(),
});
export type ModelTokens = z.infer<typeof ModelTokens>;

/**
 * Weft extension: a call's token totals, which the server adds to `summary.weave` on every read
 * when `summary.usage` names at least one model. Every surface shows these rather than counting
 * again; `summary.weave.total_tokens` also sorts and filters calls.
 */
export const CallTokenTotals = ModelTokens.extend({
  model_tokens: z.record(z.string(), ModelTokens).describe('The same counts per model of summary.usage'),
});
export type CallTokenTotals = z.infer<typeof CallTokenTotals>;

/** Open summary map; `usage` and `status_counts` are the conventional keys. */
export const SummaryInsert = z.looseObject({
  usage: z.record(z.string(), LLMUsage).nullish(),
  status_counts: z.record(z.string(), z.number().int()).nullish(),
});

export const StartedCall = z.object({
  project_id: ProjectId,
  id: Id.nullish().describe('Call id; generated (UUIDv7) when absent'),
  op_name: z.string().min(1).max(2048),
  display_name: z.string().max(1024).nullish(),
  trace_id: Id.nullish().describe('Trace id; generated (UUIDv7) when absent'),
  parent_id: z.string().nullish(),
  thread_id: z.string().nullish(),
  turn_id: z.string().nullish(),
  started_at: DateTime,
  attributes: JsonObject.nullish().default({}),
  inputs: JsonObject.nullish().default({}),
  otel_dump: JsonObject.nullish(),
  wb_user_id: z.string().nullish().describe('Ignored: the server sets the authenticated user'),
  wb_run_id: z.string().nullish(),
  wb_run_step: z.number().int().nullish(),
});
export type StartedCall = z.infer<typeof StartedCall>;

export const EndedCall = z.object({
  project_id: ProjectId,
  id: Id,
  // Sent by the newest clients for server-side sampling; a call's trace and start are already
  // known from its start here, so they are accepted and not needed.
  trace_id: z.string().nullish(),
  is_eval: z.boolean().nullish(),
  started_at: DateTime.nullish(),
  ended_at: DateTime,
  exception: z.string().nullish(),
  output: z.unknown().optional(),
  summary: SummaryInsert.nullish().default({}),
  wb_run_step_end: z.number().int().nullish(),
});
export type EndedCall = z.infer<typeof EndedCall>;

/** A call as returned by reads and queries. */
export const CallSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  op_name: z.string(),
  display_name: z.string().nullable(),
  trace_id: z.string(),
  parent_id: z.string().nullable(),
  thread_id: z.string().nullable(),
  turn_id: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  attributes: JsonObject,
  inputs: JsonObject,
  output: z.unknown(),
  exception: z.string().nullable(),
  summary: JsonObject.nullable(),
  wb_user_id: z.string().nullable(),
  wb_username: z.string().optional().describe('With include_usernames: the username behind wb_user_id (absent when unknown)'),
  wb_run_id: z.string().nullable(),
  wb_run_step: z.number().int().nullable(),
  wb_run_step_end: z.number().int().nullable(),
  deleted_at: z.string().nullable(),
  storage_size_bytes: z.number().int().nullish(),
  total_storage_size_bytes: z.number().int().nullish(),
});
export type CallSchema = z.infer<typeof CallSchema>;

// POST /call/start
export const CallStartReq = z.object({ start: StartedCall });
export const CallStartRes = z.object({ id: z.string(), trace_id: z.string() });

// POST /call/end
export const CallEndReq = z.object({ end: EndedCall });
export const CallEndRes = z.object({});

// POST /call/upsert_batch
export const CallBatchItem = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('start'), req: CallStartReq }),
  z.object({ mode: z.literal('end'), req: CallEndReq }),
]);
export const CallUpsertBatchReq = z.object({ batch: z.array(CallBatchItem) });
export const CallUpsertBatchRes = z.object({ res: z.array(z.union([CallStartRes, CallEndRes])) });

// POST /call/read
export const CallReadReq = z.object({
  project_id: ProjectId,
  id: z.string(),
  include_costs: z.boolean().nullish(),
  include_feedback: z.boolean().nullish().describe('Weft extension: attach summary.weave.feedback, as calls/stream_query does'),
  include_storage_size: z.boolean().nullish(),
  include_total_storage_size: z.boolean().nullish(),
});
export const CallReadRes = z.object({ call: CallSchema.nullable() });

// POST /call/update
export const CallUpdateReq = z.object({
  project_id: ProjectId,
  call_id: z.string(),
  display_name: z.string().max(1024).nullish(),
  wb_user_id: z.string().nullish(),
});
export const CallUpdateRes = z.object({});

// POST /calls/delete
export const CallsDeleteReq = z.object({
  project_id: ProjectId,
  call_ids: z.array(z.string()),
  wb_user_id: z.string().nullish(),
});
export const CallsDeleteRes = z.object({ num_deleted: z.number().int() });

/** Structured call filter; lists are OR within a field, fields are ANDed. */
export const CallsFilter = z.object({
  op_names: IdList.describe('Op names or refs; a trailing ":*" matches every version'),
  input_refs: IdList,
  output_refs: IdList,
  parent_ids: IdList,
  trace_ids: IdList,
  call_ids: IdList,
  thread_ids: IdList,
  turn_ids: IdList,
  trace_roots_only: z.boolean().nullish(),
  wb_user_ids: IdList,
  wb_run_ids: IdList,
  weft_made: z
    .boolean()
    .nullish()
    .describe(
      "Weft: false leaves out the calls Weft made itself (attributes.weft.source set: LLM judges and monitors, the playground's completions, evaluate_model jobs), true keeps only those; absent, both",
    ),
  search: z
    .string()
    .max(500)
    .nullish()
    .describe(
      'Weft: calls whose inputs, output, attributes or exception hold this text (any substring of 3 or more characters, in any script, case-insensitive); whole-word matches sort first',
    ),
});
export type CallsFilter = z.infer<typeof CallsFilter>;

// POST /calls/stream_query
export const CallsQueryReq = z.object({
  project_id: ProjectId,
  filter: CallsFilter.nullish(),
  query: Query.nullish(),
  sort_by: z.array(SortBy).nullish(),
  limit: Limit,
  offset: Offset,
  columns: z.array(z.string()).nullish(),
  expand_columns: z.array(z.string()).nullish(),
  return_expanded_column_values: z.boolean().nullish(),
  include_costs: z.boolean().nullish(),
  include_feedback: z.boolean().nullish(),
  include_storage_size: z.boolean().nullish(),
  include_total_storage_size: z.boolean().nullish(),
  include_usernames: z.boolean().nullish().describe("Adds wb_username: each call's wb_user_id resolved to a username"),
});
export type CallsQueryReq = z.infer<typeof CallsQueryReq>;

// POST /calls/query (legacy, non-streaming): the stream's calls as one list
export const CallsQueryRes = z.object({ calls: z.array(CallSchema) });

/** A call sent whole, start and end at once (the Python client's "calls complete" mode). */
export const CompletedCall = z.object({
  project_id: ProjectId,
  id: Id,
  trace_id: Id,
  op_name: z.string().min(1).max(2048),
  started_at: DateTime,
  ended_at: DateTime,
  display_name: z.string().max(1024).nullish(),
  parent_id: z.string().nullish(),
  thread_id: z.string().nullish(),
  turn_id: z.string().nullish(),
  attributes: JsonObject.nullish().default({}),
  inputs: JsonObject.nullish().default({}),
  output: z.unknown().optional(),
  summary: SummaryInsert.nullish().default({}),
  otel_dump: JsonObject.nullish(),
  exception: z.string().nullish(),
  wb_user_id: z.string().nullish().describe('Ignored: the server sets the authenticated user'),
  wb_run_id: z.string().nullish(),
  wb_run_step: z.number().int().nullish(),
  wb_run_step_end: z.number().int().nullish(),
});
export type CompletedCall = z.infer<typeof CompletedCall>;

/** The `/v2/{entity}/{project}/...` path parameters. */
const V2Path = { entity: NamePart, project: NamePart };

// POST /v2/{entity}/{project}/calls/complete
export const CallsUpsertCompleteReq = z.object({ ...V2Path, batch: z.array(CompletedCall).max(10_000) });
export const CallsUpsertCompleteRes = z.object({});

// POST /v2/{entity}/{project}/call/start (eager starts in "calls complete" mode)
export const CallStartV2Req = z.object({ ...V2Path, start: StartedCall });
export const CallStartV2Res = CallStartRes;

// POST /v2/{entity}/{project}/call/end
export const CallEndV2Req = z.object({ ...V2Path, end: EndedCall });
export const CallEndV2Res = z.object({});

// POST /calls/query_stats
export const CallsQueryStatsReq = z.object({
  project_id: ProjectId,
  filter: CallsFilter.nullish(),
  query: Query.nullish(),
  limit: z.number().int().nullish(),
  include_total_storage_size: z.boolean().nullish(),
  expand_columns: z.array(z.string()).nullish(),
});
export const CallsQueryStatsRes = z.object({
  count: z.number().int(),
  total_storage_size_bytes: z.number().int().nullable(),
});

// POST /weft/calls/export
/** A call query to download whole, as JSON lines or CSV. */
export const CallsExportReq = CallsQueryReq.extend({
  format: z.enum(['jsonl', 'csv']).default('jsonl').describe('jsonl: one CallSchema per line; csv: flattened columns'),
});
export type CallsExportReq = z.infer<typeof CallsExportReq>;
/** The downloaded file: JSON lines (one CallSchema each) or CSV with a header row. */
export const CallsExportRes = z.string();
