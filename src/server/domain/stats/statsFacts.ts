/**
 * What one call contributes to `/calls/stats`: its call metrics, and one usage entry per model
 * in its `summary.usage` whose value is an object (the reference's stats query also counts
 * other values, as empty entries; its usage roll-ups skip them, and so does Weft everywhere).
 * Usage entries are read by core/usage.ts, the one reader of token counts; the rollup
 * (store/sqlite/statsRollup.ts) uses the same reader, and the StatsStore conformance suite
 * checks that the exact scan and the rollup agree.
 *
 * Decisions:
 * - Costs price each call with the price in force when it started (`pickPrice`, as
 *   `include_costs` does), not the newest price as the reference's stats do: a chart of spend
 *   should not change when a price changes. Unpriced models give null costs.
 */
import type { CallMetric, UsageMetric } from '../../../contract/stats.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import type { CallFacts } from '../../store/StatsStore.js';
import type { UsageEntry } from '../../core/usage.js';

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
