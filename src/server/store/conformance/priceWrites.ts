/** Price records as tests write them, and the cost orders every threads store must answer alike. */
import { expect } from 'vitest';
import type { PriceRecord } from '../CostsStore.js';
import { compareThreads } from '../query/threadsOrder.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';

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

/** The cost orders a threads query must answer alike: by cost both ways, and cost then turns. */
const COST_ORDERS: ThreadsQuery['sortBy'][] = [
  [{ field: 'total_cost', direction: 'desc' }],
  [{ field: 'total_cost', direction: 'asc' }],
  [
    { field: 'total_cost', direction: 'asc' },
    { field: 'turn_count', direction: 'desc' },
  ],
];

/**
 * Every cost order, whole and as a page from `offset`, is the unsorted answer's threads sorted by
 * their own reported costs (compareThreads: unpriced lowest, ties by thread id).
 */
export async function expectCostOrders(
  query: (q: Partial<ThreadsQuery>) => Promise<ThreadRecord[]>,
  unsorted: ThreadRecord[],
  page: { limit: number; offset: number },
  label = '',
): Promise<void> {
  for (const sortBy of COST_ORDERS) {
    const expected = [...unsorted].sort(compareThreads(sortBy));
    expect(await query({ sortBy }), `${label} ${JSON.stringify(sortBy)}`).toEqual(expected);
    expect(await query({ sortBy, ...page }), label).toEqual(expected.slice(page.offset, page.offset + page.limit));
  }
}
