/**
 * Prices of the instance-wide providers' models (providers file `prompt_token_cost` /
 * `completion_token_cost`, USD per token) as rows of the cost table, so calls, threads, stats and
 * `/costs/query` price their usage like any other price.
 *
 * They are default-level rows (every project sees them; a project's own price still wins, as
 * pickPrice ranks), with ids `instance:<provider>:<model>` that stay the same from one start to
 * the next. Decision: their effective date is just after the newest shipped default price of the
 * same model (or the epoch when there is none), so the operator's price applies to every call,
 * past ones included, rather than the shipped list's — the operator configured what they pay —
 * and restarting the server does not move it.
 */
import { defaultPriceRecords } from '../core/defaultPrices.js';
import type { PriceRecord } from '../store/CostsStore.js';
import type { InstanceProviderConfig } from './instanceProviders.js';

export const INSTANCE_PRICE_ID_PREFIX = 'instance:';

export function instancePriceRecords(providers: InstanceProviderConfig[]): PriceRecord[] {
  const shippedNewest = new Map<string, number>();
  for (const p of defaultPriceRecords()) shippedNewest.set(p.llmId, Math.max(shippedNewest.get(p.llmId) ?? 0, p.effectiveDate));
  const out: PriceRecord[] = [];
  const seen = new Set<string>();
  for (const provider of providers) {
    for (const m of provider.models ?? []) {
      if (m.promptTokenCost === null && m.completionTokenCost === null) continue;
      // Two providers pricing the same model: the first listed wins, as model lookup does.
      if (seen.has(m.name)) continue;
      seen.add(m.name);
      const shipped = shippedNewest.get(m.name);
      out.push({
        id: `${INSTANCE_PRICE_ID_PREFIX}${provider.name}:${m.name}`,
        pricingLevel: 'default',
        pricingLevelId: 'default',
        providerId: provider.name,
        llmId: m.name,
        effectiveDate: shipped === undefined ? 0 : shipped + 1,
        promptTokenCost: m.promptTokenCost ?? 0,
        completionTokenCost: m.completionTokenCost ?? 0,
        promptTokenCostUnit: 'USD',
        completionTokenCostUnit: 'USD',
        createdBy: 'instance',
        createdAt: 0,
      });
    }
  }
  return out;
}
