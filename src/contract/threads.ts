/**
 * Threads: conversations whose turns are the calls with `id == turn_id`. Statistics come
 * from turn calls only (nested calls never count). Spec: the thread query section of
 * spec/service-interface.md; semantics: api/core.md §3.10.
 */
import { z } from 'zod';
import { DateTime, Limit, Offset, ProjectId, SortDirection } from './common.js';

export const THREAD_SORT_FIELDS = [
  'thread_id',
  'turn_count',
  'start_time',
  'last_updated',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
] as const;

export const ThreadsQueryFilter = z.object({
  after_datetime: DateTime.nullish().describe('Only turns that started strictly after this time'),
  before_datetime: DateTime.nullish().describe('Only turns that started strictly before this time'),
  thread_ids: z.array(z.string()).nullish(),
});

export const ThreadSortBy = z.object({
  field: z.enum(THREAD_SORT_FIELDS),
  direction: SortDirection,
});

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
});
export type ThreadSchema = z.infer<typeof ThreadSchema>;
