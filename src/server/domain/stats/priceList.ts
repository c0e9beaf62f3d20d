/**
 * Weft's price list for a project (`GET /weft/prices`, the settings page): every price that
 * can apply to its calls, the project's own and the shipped defaults, each marked when it is
 * the one a call started now would be charged (domain/stats/costs.ts `pickPrice` decides, as it does
 * for `include_costs`).
 */
import type { PriceListEntry } from '../../../contract/costs.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import type { Store } from '../../store/Store.js';
import { pickPrice } from './costs.js';
import { formatMicros } from '../../core/datetime.js';
import { defaultPriceRecords } from '../../core/defaultPrices.js';

function toEntry(p: PriceRecord, inForce: boolean): PriceListEntry {
  return {
    id: p.id,
    llm_id: p.llmId,
    provider_id: p.providerId,
    prompt_token_cost: p.promptTokenCost,
    completion_token_cost: p.completionTokenCost,
    prompt_token_cost_unit: p.promptTokenCostUnit,
    completion_token_cost_unit: p.completionTokenCostUnit,
    effective_date: formatMicros(p.effectiveDate),
    pricing_level: p.pricingLevel,
    created_by: p.createdBy,
    created_at: formatMicros(p.createdAt),
    in_force: inForce,
  };
}

/** Every price of the project's models and the default list, by model, the project's first. */
export async function listPrices(store: Store, projectId: string, now: number): Promise<PriceListEntry[]> {
  const own = await store.costs.queryPrices({ projectId, fields: ['llm_id'] });
  const llmIds = new Set([...defaultPriceRecords().map((p) => p.llmId), ...own.map((r) => String(r.llm_id))]);
  const prices = await store.costs.pricesFor({ projectId, llmIds: [...llmIds] });
  const inForce = new Set<string>();
  for (const llmId of llmIds) {
    const picked = pickPrice({ prices, llmId, startedAt: now, projectId });
    if (picked) inForce.add(picked.id);
  }
  const level = (p: PriceRecord) => (p.pricingLevel === 'project' ? 0 : 1);
  return prices
    .sort((a, b) => a.llmId.localeCompare(b.llmId) || level(a) - level(b) || b.effectiveDate - a.effectiveDate)
    .map((p) => toEntry(p, inForce.has(p.id)));
}
