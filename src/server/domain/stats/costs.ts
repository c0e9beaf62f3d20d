/**
 * Cost maths: which price applies to a call's usage, and what that usage cost
 * (`summary.weave.costs[<llm_id>]`, the reference's LLMCostSchema; docs/api/core.md §3.8).
 *
 * Price choice, as the reference ranks candidates (weave/trace_server/token_costs.py):
 * 1. prices already in force when the call started (effective_date ≤ started_at) come first;
 *    only when a model has none does a later price apply (so calls logged before a price's
 *    date still get a cost);
 * 2. then the project's own price over the default list;
 * 3. then the newest effective_date.
 * Tokens: prompt = prompt_tokens + input_tokens, completion = completion_tokens + output_tokens
 * (SDKs report one pair or the other); total cost = tokens × per-token cost.
 * Cached prompt tokens (the newest reference, its cost query builder and in-memory pricer):
 * `cache_read_input_tokens` and `cache_creation_input_tokens` are billed at their own prices
 * and taken out of the prompt tokens billed at the prompt price:
 * prompt_tokens_total_cost = (prompt − cache read − cache creation) × prompt_token_cost.
 */
import type { CostCreateReq, LLMCost } from '../../../contract/costs.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import { usageEntryOf } from '../../core/usage.js';

/** The usage an SDK reports for one model; every field optional. */
export interface Usage {
  prompt_tokens?: number | null;
  input_tokens?: number | null;
  completion_tokens?: number | null;
  output_tokens?: number | null;
  requests?: number | null;
  total_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

// Which price applies lives in core/ so that stores can price in SQL's stead (thread cost sorts).
export { pickPrice } from '../../core/pickPrice.js';
import { pickPrice } from '../../core/pickPrice.js';

/** What `usage` cost at `price`. */
export function costOf(usage: Usage, price: PriceRecord): LLMCost {
  // Token counts under the one usage rule (core/usage.ts), so a cost row's tokens are the call's.
  const entry = usageEntryOf('', usage as Record<string, unknown>);
  const promptTokens = entry.inputTokens;
  const completionTokens = entry.outputTokens;
  const cacheRead = entry.cacheReadInputTokens;
  const cacheCreation = entry.cacheCreationInputTokens;
  const cacheReadCost = price.cacheReadInputTokenCost ?? 0;
  const cacheCreationCost = price.cacheCreationInputTokenCost ?? 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    requests: entry.requests,
    total_tokens: entry.totalTokens,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheCreation,
    prompt_token_cost: price.promptTokenCost,
    completion_token_cost: price.completionTokenCost,
    cache_read_input_token_cost: cacheReadCost,
    cache_creation_input_token_cost: cacheCreationCost,
    prompt_tokens_total_cost: (promptTokens - cacheRead - cacheCreation) * price.promptTokenCost,
    completion_tokens_total_cost: completionTokens * price.completionTokenCost,
    cache_read_input_tokens_total_cost: cacheRead * cacheReadCost,
    cache_creation_input_tokens_total_cost: cacheCreation * cacheCreationCost,
    prompt_token_cost_unit: price.promptTokenCostUnit,
    completion_token_cost_unit: price.completionTokenCostUnit,
    effective_date: formatMicros(price.effectiveDate),
    provider_id: price.providerId,
    pricing_level: price.pricingLevel,
    pricing_level_id: price.pricingLevelId,
    created_at: formatMicros(price.createdAt),
    created_by: price.createdBy,
  };
}

/** Costs per model for a call's `summary.usage`; models without a price are left out. */
export function costsForUsage(req: {
  usage: Record<string, Usage>;
  prices: PriceRecord[];
  startedAt: number;
  projectId: string;
}): Record<string, LLMCost> {
  const out: Record<string, LLMCost> = {};
  for (const [llmId, usage] of Object.entries(req.usage)) {
    if (!usage || typeof usage !== 'object') continue;
    const price = pickPrice({ prices: req.prices, llmId, startedAt: req.startedAt, projectId: req.projectId });
    if (price) out[llmId] = costOf(usage, price);
  }
  return out;
}

/** `/cost/create`'s prices as project-level rows created by `userId` at `now` (epoch µs). */
export function toPriceRecords(req: CostCreateReq, userId: string, now: number): PriceRecord[] {
  return Object.entries(req.costs).map(([llmId, cost]) => {
    // The contract has already checked that effective_date parses.
    const effectiveDate = cost.effective_date ? parseIsoToMicros(cost.effective_date)! : now;
    return {
      id: uuidv7(),
      pricingLevel: 'project',
      pricingLevelId: req.project_id,
      providerId: cost.provider_id || 'default',
      llmId,
      effectiveDate,
      promptTokenCost: cost.prompt_token_cost,
      completionTokenCost: cost.completion_token_cost,
      cacheReadInputTokenCost: cost.cache_read_input_token_cost ?? 0,
      cacheCreationInputTokenCost: cost.cache_creation_input_token_cost ?? 0,
      promptTokenCostUnit: cost.prompt_token_cost_unit ?? 'USD',
      completionTokenCostUnit: cost.completion_token_cost_unit ?? 'USD',
      createdBy: userId,
      createdAt: now,
    };
  });
}
