/**
 * What one call contributes to `/calls/stats`: its call metrics, and one usage entry per model
 * in its `summary.usage` whose value is an object (the reference's stats query also counts
 * other values, as empty entries; its usage roll-ups skip them, and so does Weft everywhere).
 * The exact scan reads usage here; the rollup (store/sqlite/statsRollup.ts) reads it the same
 * way in SQL, and the StatsStore conformance suite checks that they agree.
 *
 * Decisions:
 * - input tokens = prompt_tokens + input_tokens, output = completion_tokens + output_tokens,
 *   as the reference's stats query and Weft's cost maths (domain/costs.ts) both count them;
 *   the reference's internal `gross_input_tokens` marker is not read.
 * - Token counts are integers: non-integers are truncated, non-numbers count as 0, except
 *   `total_tokens`, which is null when absent (so it is skipped, as the reference's
 *   `toFloat64OrNull` does).
 * - Costs price each call with the price in force when it started (`pickPrice`, as
 *   `include_costs` does), not the newest price as the reference's stats do: a chart of spend
 *   should not change when a price changes. Unpriced models give null costs.
 */
import type { CallMetric, UsageMetric } from '../../contract/stats.js';
import type { PriceRecord } from '../store/CostsStore.js';

/** The facts of one visible call, as the stores read them. */
export interface CallFacts {
  startedAt: number;
  /** Whole milliseconds, null while running. */
  latencyMs: number | null;
  failed: boolean;
  /** `summary.usage` as JSON text, when asked for and present. */
  usageJson?: string | null;
}

export interface UsageEntry {
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number | null;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  requests: number;
}

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

/** The usage entries of a call's `summary.usage` JSON. */
export function usageEntries(usageJson: string | null | undefined): UsageEntry[] {
  if (!usageJson) return [];
  try {
    return usageEntriesOf(JSON.parse(usageJson));
  } catch {
    return [];
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The usage entries of a parsed `summary.usage`. */
export function usageEntriesOf(usage: unknown): UsageEntry[] {
  if (!isObject(usage)) return [];
  return Object.entries(usage).flatMap(([model, u]) => {
    if (!isObject(u)) return [];
    return {
      model,
      inputTokens: int(u.prompt_tokens) + int(u.input_tokens),
      outputTokens: int(u.completion_tokens) + int(u.output_tokens),
      totalTokens: typeof u.total_tokens === 'number' && Number.isFinite(u.total_tokens) ? Math.trunc(u.total_tokens) : null,
      cacheReadInputTokens: int(u.cache_read_input_tokens),
      cacheCreationInputTokens: int(u.cache_creation_input_tokens),
      requests: int(u.requests),
    };
  });
}

/** A call metric's value for one call. */
export function callMetricValue(facts: CallFacts, metric: CallMetric): number | null {
  if (metric === 'latency_ms') return facts.latencyMs;
  if (metric === 'call_count') return 1;
  return facts.failed ? 1 : 0;
}

/** A usage metric's value for one entry; `price` is the price in force when the call started. */
export function usageMetricValue(entry: UsageEntry, metric: UsageMetric, price: PriceRecord | null): number | null {
  switch (metric) {
    case 'input_tokens':
      return entry.inputTokens;
    case 'output_tokens':
      return entry.outputTokens;
    case 'total_tokens':
      return entry.totalTokens;
    case 'cache_read_input_tokens':
      return entry.cacheReadInputTokens;
    case 'cache_creation_input_tokens':
      return entry.cacheCreationInputTokens;
  }
  if (!price) return null;
  // costOf's formula on the same token counts, without building (and date-formatting) a
  // whole LLMCost for every call of a scan.
  const input = entry.inputTokens * price.promptTokenCost;
  const output = entry.outputTokens * price.completionTokenCost;
  return metric === 'input_cost' ? input : metric === 'output_cost' ? output : input + output;
}
