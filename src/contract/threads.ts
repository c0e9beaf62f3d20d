/**
 * Threads: conversations whose turns are the calls with `id == turn_id`. Statistics come
 * from turn calls only (nested calls never count). Spec: the thread query section of
 * docs/api/core.md §3.10.
 */
import { z } from 'zod';
import { DateTime, Limit, Offset, ProjectId, SortDirection } from './common.js';

import { REFERENCE_THREAD_SORT_FIELDS, THREAD_SORT_FIELDS } from './threadSortFields.js';

export { REFERENCE_THREAD_SORT_FIELDS, THREAD_SORT_FIELDS };

/** Statistics a Weft range filter (`filter.min` / `filter.max`) may bound. */
export const THREAD_RANGE_FIELDS = [
  'turn_count',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
  'error_count',
  'total_tokens',
  'total_cost',
] as const;

/** Inclusive bounds on thread statistics (a Weft extension). */
export const ThreadRange = z.strictObject(
  Object.fromEntries(THREAD_RANGE_FIELDS.map((f) => [f, z.number().nullish()])) as Record<
    (typeof THREAD_RANGE_FIELDS)[number],
    z.ZodOptional<z.ZodNullable<z.ZodNumber>>
  >,
);
export type ThreadRange = z.infer<typeof ThreadRange>;

export const ThreadsQueryFilter = z.object({
  after_datetime: DateTime.nullish().describe('Only turns that started strictly after this time'),
  before_datetime: DateTime.nullish().describe('Only turns that started strictly before this time'),
  thread_ids: z.array(z.string()).nullish(),
  // Weft extensions below: the reference ignores (strips) filter keys it does not know, and
  // its clients never send these.
  search: z
    .string()
    .max(500)
    .nullish()
    .describe(
      "Weft: words that must all occur in the turns' inputs or outputs (string values, case- and accent-insensitive, each word as a prefix), or, from 3 characters, a substring of one turn's inputs, output, attributes or exception in any script (case-insensitive), or the exact thread id",
    ),
  min: ThreadRange.nullish().describe('Weft: inclusive lower bounds on thread statistics (min.error_count = 1: threads with errors)'),
  max: ThreadRange.nullish().describe('Weft: inclusive upper bounds on thread statistics'),
  attributes: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .nullish()
    .describe('Weft: threads with at least one turn whose attributes hold each of these values (dotted keys reach into objects)'),
});
export type ThreadsQueryFilter = z.infer<typeof ThreadsQueryFilter>;

export const ThreadSortBy = z.object({
  field: z.enum(THREAD_SORT_FIELDS),
  direction: SortDirection,
});
export type ThreadSortBy = z.infer<typeof ThreadSortBy>;

// POST /threads/stream_query
export const ThreadsQueryReq = z.object({
  project_id: ProjectId,
  filter: ThreadsQueryFilter.nullish(),
  limit: Limit,
  offset: Offset,
  sort_by: z
    .array(ThreadSortBy)
    .nullish()
    .describe('Sort keys in order; ties are broken by thread_id ascending. Default: last_updated desc'),
});
export type ThreadsQueryReq = z.infer<typeof ThreadsQueryReq>;

export const ThreadSchema = z.object({
  thread_id: z.string(),
  turn_count: z.number().int(),
  start_time: z.string().describe('Earliest turn start'),
  last_updated: z.string().describe('Latest turn end, or the latest turn start while no turn has ended'),
  first_turn_id: z.string().nullable().describe('Turn with the earliest start'),
  last_turn_id: z.string().nullable().describe('Turn with the latest end'),
  p50_turn_duration_ms: z
    .number()
    .nullable()
    .describe(
      "Median duration (ended_at − started_at, ms) of finished turns: exact, linear interpolation between order statistics (numpy's default percentile)",
    ),
  p99_turn_duration_ms: z.number().nullable().describe('99th percentile of finished turn durations, same definition'),
  // Weft additions (after the reference's eight fields; older clients ignore them).
  finished_turn_count: z.number().int(),
  error_count: z.number().int().describe('Turns that raised, or whose descendants did'),
  total_tokens: z.number().int().describe("Sum of the turns' summary.usage total tokens"),
  first_input_preview: z.string().nullable().describe("The first turn's inputs, as JSON, cut to 300 characters"),
  last_output_preview: z.string().nullable().describe("The last turn's output, as JSON, cut to 300 characters"),
  total_cost: z
    .number()
    .nullable()
    .describe(
      "Weft: what the turns' usage cost (sum over models of tokens × the price in force when the thread started); null when no model has a price",
    ),
});
export type ThreadSchema = z.infer<typeof ThreadSchema>;

// POST /threads/query_stats (Weft extension: the reference has no thread count)
export const ThreadsQueryStatsReq = z.object({
  project_id: ProjectId,
  filter: ThreadsQueryFilter.nullish(),
});
export type ThreadsQueryStatsReq = z.infer<typeof ThreadsQueryStatsReq>;
export const ThreadsQueryStatsRes = z.object({
  count: z.number().int().describe('Exactly how many threads the filter matches'),
});
