/** Price records as tests write them: one factory per project, the unit and author fixed. */
import type { PriceRecord } from '../CostsStore.js';

/** `price(id, level, llmId, effective, prompt, completion)` for `project`, created at `createdAt`. */
export function priceFor(project: string, createdAt: number) {
  return (id: string, level: 'project' | 'default', llmId: string, effective: number, prompt: number, completion: number): PriceRecord => ({
    id,
    pricingLevel: level,
    pricingLevelId: level === 'project' ? project : 'default',
    providerId: 'test',
    llmId,
    effectiveDate: effective,
    promptTokenCost: prompt,
    completionTokenCost: completion,
    promptTokenCostUnit: 'USD',
    completionTokenCostUnit: 'USD',
    createdBy: 'test',
    createdAt,
  });
}
