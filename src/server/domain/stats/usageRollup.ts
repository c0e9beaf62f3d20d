/**
 * `/calls/usage` and `/trace/usage`: LLM token usage per model, each call summed with its
 * descendants (docs/api/evaluations.md §4), following weave's `calls_usage.py` and
 * `usage_utils.py`.
 *
 * Decisions:
 * - A call's own usage per model: prompt = prompt_tokens + input_tokens, completion =
 *   completion_tokens + output_tokens, total = total_tokens or else prompt + completion,
 *   requests and cache token counts as reported; models with nothing to count are left out.
 * - With include_costs each call is priced as `include_costs` prices it on reads (the price in
 *   force when it started, domain/stats/costs.ts). Weft's prices have no cache rates, so cached
 *   tokens are charged inside the prompt cost and the cache cost fields are 0. A model without
 *   a price keeps null costs; null + x = x when rolling up, as the reference merges.
 * - Roll-ups run bottom-up over the calls read (no recursion, so deep traces are fine, and a
 *   parent_id cycle cannot loop). /trace/usage rolls up within the matched calls only, as the
 *   reference does: filter by trace_ids to get whole traces.
 * - Limits (default 10,000, below 1 → 400): /calls/usage reads whole traces in batches, halving
 *   a batch that exceeds the limit, and answers 413 when one trace alone does. /trace/usage
 *   answers 413 when more calls match than the limit, where the reference silently truncates:
 *   a roll-up over part of a trace would be wrong without saying so.
 * - unfinished_call_ids: the calls read (whole traces for /calls/usage) without ended_at, sorted.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { CallsUsageReq, CallsUsageRes, LLMAggregatedUsage, TraceUsageReq, TraceUsageRes } from '../../../contract/stats.js';
import { BadRequestError, TooLargeError } from '../../errors.js';
import type { CallsQuery, Store } from '../../store/Store.js';
import { costsForUsage, type Usage } from './costs.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { usageEntriesOf } from '../../core/usage.js';

const DEFAULT_USAGE_LIMIT = 10_000;

type ModelUsage = Record<string, LLMAggregatedUsage>;

const usageOf = (call: CallSchema): unknown => (call.summary as { usage?: unknown } | null)?.usage;

/** A call's own usage per model, with the costs in `priced` (null: no costs asked for). */
function ownUsage(call: CallSchema, priced: ReturnType<typeof costsForUsage> | null): ModelUsage {
  const out: ModelUsage = {};
  for (const e of usageEntriesOf(usageOf(call))) {
    const cost = priced?.[e.model];
    const u: LLMAggregatedUsage = {
      requests: e.requests,
      prompt_tokens: e.inputTokens,
      completion_tokens: e.outputTokens,
      total_tokens: e.totalTokens,
      cache_read_input_tokens: e.cacheReadInputTokens,
      cache_creation_input_tokens: e.cacheCreationInputTokens,
      prompt_tokens_total_cost: cost ? cost.prompt_tokens_total_cost : null,
      completion_tokens_total_cost: cost ? cost.completion_tokens_total_cost : null,
      cache_read_input_tokens_total_cost: cost ? 0 : null,
      cache_creation_input_tokens_total_cost: cost ? 0 : null,
    };
    const counts =
      u.requests || u.prompt_tokens || u.completion_tokens || u.total_tokens || u.cache_read_input_tokens || u.cache_creation_input_tokens;
    if (counts || u.prompt_tokens_total_cost || u.completion_tokens_total_cost) out[e.model] = u;
  }
  return out;
}

const COUNTS = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
] as const;
const COSTS = [
  'prompt_tokens_total_cost',
  'completion_tokens_total_cost',
  'cache_read_input_tokens_total_cost',
  'cache_creation_input_tokens_total_cost',
] as const;

function mergeInto(target: ModelUsage, source: ModelUsage): void {
  for (const [model, s] of Object.entries(source)) {
    const t = target[model];
    if (!t) {
      target[model] = { ...s };
      continue;
    }
    for (const k of COUNTS) t[k] += s[k];
    for (const k of COSTS) if (s[k] !== null) t[k] = (t[k] ?? 0) + s[k];
  }
}

/** Every call's usage summed with its descendants' among `calls`. */
async function rollUp(store: Store, projectId: string, calls: CallSchema[], includeCosts: boolean): Promise<Record<string, ModelUsage>> {
  const prices = includeCosts
    ? await store.costs.pricesFor({ projectId, llmIds: [...new Set(calls.flatMap((c) => usageEntriesOf(usageOf(c)).map((e) => e.model)))] })
    : [];
  const usage: Record<string, ModelUsage> = {};
  const byId = new Map(calls.map((c) => [c.id, c]));
  const pendingChildren = new Map(calls.map((c) => [c.id, 0]));
  for (const c of calls) {
    if (c.parent_id !== null && byId.has(c.parent_id)) pendingChildren.set(c.parent_id, pendingChildren.get(c.parent_id)! + 1);
    const startedAt = parseIsoToMicros(c.started_at) ?? 0;
    const priced = includeCosts
      ? costsForUsage({ usage: (usageOf(c) ?? {}) as Record<string, Usage>, prices, startedAt, projectId })
      : null;
    usage[c.id] = ownUsage(c, priced);
  }
  // Leaves first: a call is merged into its parent once all of its own children are merged in.
  const ready = calls.filter((c) => pendingChildren.get(c.id) === 0).map((c) => c.id);
  while (ready.length) {
    const call = byId.get(ready.pop()!)!;
    if (call.parent_id === null || !byId.has(call.parent_id)) continue;
    mergeInto(usage[call.parent_id]!, usage[call.id]!);
    const left = pendingChildren.get(call.parent_id)! - 1;
    pendingChildren.set(call.parent_id, left);
    if (left === 0) ready.push(call.parent_id);
  }
  return usage;
}

/** The matching calls, or null when there are more than `limit`. */
async function readCalls(store: Store, query: Omit<CallsQuery, 'limit' | 'columns'>, limit: number): Promise<CallSchema[] | null> {
  const calls: CallSchema[] = [];
  for await (const c of store.calls.queryCalls({ ...query, columns: ['id', 'parent_id', 'summary'], limit: limit + 1 })) {
    if (calls.length === limit) return null;
    calls.push(c);
  }
  return calls;
}

function checkLimit(limit: number | null | undefined): number {
  const n = limit ?? DEFAULT_USAGE_LIMIT;
  if (n < 1) throw new BadRequestError('limit must be at least 1');
  return n;
}

const unfinished = (calls: CallSchema[]) => calls.filter((c) => c.ended_at === null).map((c) => c.id);

/** `/calls/usage`. */
export async function callsUsage(store: Store, req: CallsUsageReq): Promise<CallsUsageRes> {
  const limit = checkLimit(req.limit);
  const callUsage: Record<string, ModelUsage> = Object.fromEntries(req.call_ids.map((id) => [id, {}]));
  const open = new Set<string>();
  const traceIds = new Set<string>();
  if (req.call_ids.length) {
    for await (const c of store.calls.queryCalls({ projectId: req.project_id, filter: { call_ids: req.call_ids }, columns: ['trace_id'] }))
      traceIds.add(c.trace_id);
  }
  const pending = traceIds.size ? [[...traceIds].sort()] : [];
  while (pending.length) {
    const batch = pending.pop()!;
    const calls = await readCalls(store, { projectId: req.project_id, filter: { trace_ids: batch } }, limit);
    if (!calls) {
      if (batch.length === 1)
        throw new TooLargeError(
          `Cannot compute complete usage: a single trace exceeds the ${limit}-call aggregation limit. Increase limit and retry.`,
        );
      const mid = Math.floor(batch.length / 2);
      pending.push(batch.slice(0, mid), batch.slice(mid));
      continue;
    }
    const usage = await rollUp(store, req.project_id, calls, req.include_costs ?? false);
    for (const id of Object.keys(callUsage)) if (usage[id]) callUsage[id] = usage[id];
    for (const id of unfinished(calls)) open.add(id);
  }
  return { call_usage: callUsage, unfinished_call_ids: [...open].sort() };
}

/** `/trace/usage`. */
export async function traceUsage(store: Store, req: TraceUsageReq): Promise<TraceUsageRes> {
  const limit = checkLimit(req.limit);
  const calls = await readCalls(store, { projectId: req.project_id, filter: req.filter, query: req.query }, limit);
  if (!calls) throw new TooLargeError(`More than ${limit} calls match; narrow the filter or raise limit`);
  return {
    call_usage: await rollUp(store, req.project_id, calls, req.include_costs ?? false),
    unfinished_call_ids: unfinished(calls).sort(),
  };
}
