/**
 * Conformance suite for CostsStore: the shipped default prices, project-level prices written,
 * queried (own project only), purged, and the candidate lookup used to price calls. Every
 * backend's test file calls `describeCostsConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { PriceRecord } from '../CostsStore.js';
import type { Store } from '../Store.js';

const P = 'acme/costs';
const T0 = Date.UTC(2024, 0, 1) * 1000;

const price = (id: string, over: Partial<PriceRecord> = {}): PriceRecord => ({
  id,
  pricingLevel: 'project',
  pricingLevelId: P,
  providerId: 'default',
  llmId: 'my-model',
  effectiveDate: T0,
  promptTokenCost: 0.001,
  completionTokenCost: 0.002,
  promptTokenCostUnit: 'USD',
  completionTokenCostUnit: 'USD',
  createdBy: 'alice',
  createdAt: T0,
  ...over,
});

export function describeCostsConformance(open: OpenStore): void {
  describe('CostsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
      await store.costs.createPrices([
        price('p1'),
        price('p2', { effectiveDate: T0 + 10, promptTokenCost: 0.003, createdAt: T0 + 1 }),
        price('p3', { llmId: 'gpt-4o', providerId: 'openai', createdAt: T0 + 2 }),
        price('x1', { pricingLevelId: 'acme/other' }),
      ]);
    });
    afterAll(() => close());

    it('ships default prices for common models', async () => {
      const prices = await store.costs.pricesFor({
        projectId: 'acme/empty',
        llmIds: ['gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'gemini-2.0-flash'],
      });
      expect(new Set(prices.map((p) => p.llmId))).toEqual(new Set(['gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'gemini-2.0-flash']));
      expect(prices.every((p) => p.pricingLevel === 'default' && p.pricingLevelId === 'default')).toBe(true);
      expect(prices.find((p) => p.llmId === 'gpt-4o-mini')?.promptTokenCost).toBeCloseTo(0.15e-6, 12);
    });

    it("finds the project's and the default prices of the asked models only", async () => {
      const prices = await store.costs.pricesFor({ projectId: P, llmIds: ['gpt-4o', 'my-model'] });
      const project = prices
        .filter((p) => p.pricingLevel === 'project')
        .map((p) => p.id)
        .sort();
      expect(project).toEqual(['p1', 'p2', 'p3']);
      expect(prices.some((p) => p.pricingLevel === 'default' && p.llmId === 'gpt-4o')).toBe(true);
      expect(prices.some((p) => p.llmId !== 'gpt-4o' && p.llmId !== 'my-model')).toBe(false);
    });

    it("queries the project's own prices, with the reference's default fields", async () => {
      const rows = await store.costs.queryPrices({ projectId: P });
      expect(rows.map((r) => r.id)).toEqual(['p1', 'p2', 'p3']);
      expect(rows[0]).toEqual({
        id: 'p1',
        llm_id: 'my-model',
        prompt_token_cost: 0.001,
        completion_token_cost: 0.002,
        // The newest CostQueryOutput's cached-token prices; 0 for a price stored without them.
        cache_read_input_token_cost: 0,
        cache_creation_input_token_cost: 0,
        prompt_token_cost_unit: 'USD',
        completion_token_cost_unit: 'USD',
        effective_date: '2024-01-01T00:00:00Z',
        provider_id: 'default',
      });
    });

    it('filters, sorts, pages and selects fields', async () => {
      const rows = await store.costs.queryPrices({
        projectId: P,
        fields: ['id', 'pricing_level', 'created_by'],
        query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'my-model' }] } },
        sortBy: [{ field: 'effective_date', direction: 'desc' }],
        limit: 1,
      });
      expect(rows).toEqual([{ id: 'p2', pricing_level: 'project', created_by: 'alice' }]);
    });

    it("lists the instance providers' prices in every project, replaces them as a whole, and never purges them from one", async () => {
      const instance = (id: string, llmId: string) =>
        price(`instance:local:${id}`, { pricingLevel: 'default', pricingLevelId: 'default', llmId });
      await store.costs.replaceInstancePrices([instance('a', 'local-a'), instance('b', 'local-b')]);
      const listed = async (projectId: string) =>
        (await store.costs.queryPrices({ projectId, fields: ['id'] })).map((r) => r.id).filter((id) => String(id).startsWith('instance:'));
      expect((await listed('acme/any')).sort()).toEqual(['instance:local:a', 'instance:local:b']);
      expect(await store.costs.purgePrices({ projectId: 'acme/any', ids: ['instance:local:a'] })).toBe(0);
      await store.costs.replaceInstancePrices([instance('b', 'local-b2')]);
      expect(await listed(P)).toEqual(['instance:local:b']);
      const candidates = await store.costs.pricesFor({ projectId: P, llmIds: ['local-b2', 'local-a'] });
      expect(candidates.map((p) => p.id)).toEqual(['instance:local:b']);
      await store.costs.replaceInstancePrices([]);
      expect(await listed(P)).toEqual([]);
    });

    it("purges only the project's listed prices", async () => {
      expect(await store.costs.purgePrices({ projectId: P, ids: ['p1', 'x1'] })).toBe(1);
      expect((await store.costs.queryPrices({ projectId: P })).map((r) => r.id)).toEqual(['p2', 'p3']);
      expect((await store.costs.queryPrices({ projectId: 'acme/other' })).map((r) => r.id)).toEqual(['x1']);
    });
  });
}
