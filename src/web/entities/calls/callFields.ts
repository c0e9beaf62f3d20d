/**
 * Reading the derived facts of a call (name, status, latency, tokens, cost) from its wire shape,
 * so the calls table, the trace tree and the detail panel all agree.
 */
import type { CallSchema, CallTokenTotals, ModelTokens } from '../../../contract/calls.js';

/** A call as the dashboard receives it. */
export type Call = CallSchema;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The op's short name: `weave:///e/p/op/generate:abc123` → `generate`. */
export function opBaseName(opName: string): string {
  const m = /\/op\/([^/:]+)(?::[^/]*)?$/.exec(opName);
  return m ? decodeURIComponent(m[1]!) : opName;
}

/** What to call a call in lists: its display name, else its op's short name. */
export function callName(call: Pick<Call, 'op_name' | 'display_name'>): string {
  return call.display_name || opBaseName(call.op_name);
}

function weave(call: Pick<Call, 'summary'>): Obj {
  const w = call.summary?.weave;
  return isObj(w) ? w : {};
}

/** `summary.weave.status`, computed locally as the server does when the summary lacks it. */
export function callStatus(call: Pick<Call, 'summary' | 'exception' | 'ended_at'>): string {
  const status = weave(call).status;
  if (typeof status === 'string') return status;
  if (call.exception) return 'error';
  if (!call.ended_at) return 'running';
  const counts = call.summary?.status_counts;
  return isObj(counts) && num(counts.error) > 0 ? 'descendant_error' : 'success';
}

/** Milliseconds from start to end, or null while running. */
export function callLatencyMs(call: Pick<Call, 'summary' | 'started_at' | 'ended_at'>): number | null {
  const latency = weave(call).latency_ms;
  if (typeof latency === 'number') return latency;
  if (!call.ended_at) return null;
  return new Date(call.ended_at).getTime() - new Date(call.started_at).getTime();
}

/** A call's (or one model's) token counts. */
export interface TokenTotals {
  prompt: number;
  completion: number;
  total: number;
  requests: number;
}

const toTotals = (t: Partial<ModelTokens>): TokenTotals => ({
  prompt: num(t.input_tokens),
  completion: num(t.output_tokens),
  total: num(t.total_tokens),
  requests: num(t.requests),
});

/**
 * The call's token totals as the server computed them (`summary.weave.input_tokens`, …; the
 * one usage rule lives in server/core/usage.ts). The dashboard never recounts `summary.usage`,
 * so the table, trace, threads, export and stats show one number. Null when the call has no usage.
 */
export function callTokens(call: Pick<Call, 'summary'>): TokenTotals | null {
  const w = weave(call) as Partial<CallTokenTotals>;
  return typeof w.total_tokens === 'number' ? toTotals(w) : null;
}

/** The server's per-model counts (`summary.weave.model_tokens`). */
export function callModelTokens(call: Pick<Call, 'summary'>): Record<string, TokenTotals> {
  const byModel = weave(call).model_tokens;
  if (!isObj(byModel)) return {};
  return Object.fromEntries(Object.entries(byModel).flatMap(([m, t]) => (isObj(t) ? [[m, toTotals(t as Partial<ModelTokens>)]] : [])));
}

/** The models a call used: the keys of `summary.usage`, else `inputs.model` when it names one. */
export function callModels(call: Pick<Call, 'summary'> & { inputs?: unknown }): string[] {
  const usage = isObj(call.summary) ? call.summary.usage : undefined;
  if (isObj(usage) && Object.keys(usage).length) return Object.keys(usage);
  const model = isObj(call.inputs) ? call.inputs.model : undefined;
  return typeof model === 'string' && model ? [model] : [];
}

/** Total USD cost from `summary.weave.costs` (present only when the server priced the models). */
export function callCost(call: Pick<Call, 'summary'>): number | null {
  const costs = weave(call).costs;
  if (!isObj(costs)) return null;
  let total = 0;
  for (const c of Object.values(costs)) {
    if (isObj(c)) total += num(c.prompt_tokens_total_cost) + num(c.completion_tokens_total_cost);
  }
  return total;
}

/** Reads a dot path (`inputs.messages.0.content`) out of a call; numeric parts index lists. */
export function readPath(call: Call, path: string): unknown {
  let value: unknown = call;
  for (const part of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (isObj(value)) value = value[part];
    else return undefined;
  }
  return value;
}
