/**
 * Weft's trace outline (`/weft/trace/outline`): every span of one trace with the facts its tree
 * needs (names, status, timing, tokens, cost, error flag) and rollups per subtree, without any
 * inputs or outputs, so a trace of 10,000 spans opens in one small answer (docs/trace-outline.md).
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

/** Most spans one outline answers; a bigger trace answers its first spans and `truncated`. */
export const MAX_OUTLINE_SPANS = 100_000;

export const TraceOutlineReq = z.object({
  project_id: ProjectId,
  trace_id: z.string().min(1).max(256),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_OUTLINE_SPANS)
    .nullish()
    .describe(`Most spans to answer, in start order (default and most: ${MAX_OUTLINE_SPANS})`),
});
export type TraceOutlineReq = z.infer<typeof TraceOutlineReq>;

/** Totals of a span and everything below it. */
export const OutlineRollup = z.object({
  descendants: z.number().int().describe('Spans below this one'),
  errors: z.number().int().describe('Spans with an exception, this one included'),
  tokens: z.number().int().describe("Tokens of the subtree, each model's deepest usage counted once"),
  cost: z.number().nullable().describe('USD of the subtree, counted as tokens are; null when nothing in it was priced'),
});
export type OutlineRollup = z.infer<typeof OutlineRollup>;

export const OutlineSpan = z.object({
  id: z.string(),
  parent_id: z.string().nullable().describe('Null for a root, or when the parent is not in this trace'),
  op_name: z.string(),
  display_name: z.string().nullable(),
  status: z.string().describe('summary.weave.status: success, error, running or descendant_error'),
  error: z.boolean().describe('The span itself raised an exception'),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  latency_ms: z.number().nullable().describe('Null while running'),
  tokens: z.number().int().nullable().describe("The span's own summary.weave.total_tokens; null without usage"),
  cost: z.number().nullable().describe('USD of its own usage, priced as include_costs prices it; null when unpriced'),
  rollup: OutlineRollup,
});
export type OutlineSpan = z.infer<typeof OutlineSpan>;

/** One model's share of the trace, each model's deepest usage counted once. */
export const OutlineModelUsage = z.object({
  model: z.string(),
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost: z.number().nullable(),
});
export type OutlineModelUsage = z.infer<typeof OutlineModelUsage>;

export const TraceOutlineRes = z.object({
  trace_id: z.string(),
  spans: z.array(OutlineSpan).describe('Depth first, parent before children, siblings in start order: the order the tree shows'),
  truncated: z.boolean().describe('More spans exist than were answered (limit)'),
  models: z.array(OutlineModelUsage).describe('Usage per model over the spans answered, most tokens first'),
});
export type TraceOutlineRes = z.infer<typeof TraceOutlineRes>;

export { OUTLINE_LARGE_TRACE, OUTLINE_OPEN_DEPTH } from './traceOutlineDepth.js';

/** The first line of a streamed outline: what is known of the whole before its spans. */
export const TraceOutlineHead = z.object({
  trace_id: z.string(),
  spans: z.number().int().describe('How many span lines follow'),
  truncated: z.boolean().describe('More spans exist than were answered (limit)'),
  models: z.array(OutlineModelUsage).describe('Usage per model over the spans answered, most tokens first'),
});
export type TraceOutlineHead = z.infer<typeof TraceOutlineHead>;

/**
 * One line of `/weft/trace/outline_stream`: `{head}` first, then one span per line, rollups
 * included. Up to `OUTLINE_LARGE_TRACE` spans come depth first, as `/weft/trace/outline` orders
 * them; a larger trace first answers, depth first, the spans at depth ≤ `OUTLINE_OPEN_DEPTH` (what
 * the tree shows when it opens), then the others depth first. Either way a parent comes before
 * its children and siblings come in start order.
 */
export const TraceOutlineLine = z.union([z.object({ head: TraceOutlineHead }), OutlineSpan]);
export type TraceOutlineLine = z.infer<typeof TraceOutlineLine>;
