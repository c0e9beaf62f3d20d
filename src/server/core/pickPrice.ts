/**
 * Which price applies to a model's usage in a call (the ranking of domain/stats/costs.ts, which
 * re-exports it): prices in force when the call started first, then the project's own price
 * over the default list, then the newest. Neutral, so stores can price rows in memory too.
 */
import type { PriceRecord } from '../store/CostsStore.js';

/** Lower sorts first: in force, then project over default, then newest. */
function rank(price: PriceRecord, startedAt: number, projectId: string): [number, number, number] {
  const inForce = price.effectiveDate <= startedAt ? 0 : 1;
  const level = price.pricingLevel === 'project' && price.pricingLevelId === projectId ? 0 : 1;
  return [inForce, level, -price.effectiveDate];
}

/** The price that applies to `llmId` for a call started at `startedAt` (epoch µs), if any. */
export function pickPrice(req: { prices: PriceRecord[]; llmId: string; startedAt: number; projectId: string }): PriceRecord | null {
  let best: PriceRecord | null = null;
  let bestRank: [number, number, number] | null = null;
  for (const price of req.prices) {
    if (price.llmId !== req.llmId) continue;
    const r = rank(price, req.startedAt, req.projectId);
    if (!bestRank || r[0] < bestRank[0] || (r[0] === bestRank[0] && (r[1] < bestRank[1] || (r[1] === bestRank[1] && r[2] < bestRank[2])))) {
      best = price;
      bestRank = r;
    }
  }
  return best;
}
