import { describe, expect, it } from 'vitest';
import type { PriceListEntry } from '../../../contract/costs.js';
import { formatPerMillion, visiblePrices } from './priceTable.js';

const price = (id: string, llm_id: string, pricing_level: 'project' | 'default', in_force: boolean): PriceListEntry => ({
  id,
  llm_id,
  provider_id: llm_id.startsWith('gpt') ? 'openai' : 'anthropic',
  prompt_token_cost: 1e-6,
  completion_token_cost: 2e-6,
  prompt_token_cost_unit: 'USD',
  completion_token_cost_unit: 'USD',
  effective_date: '2025-01-01T00:00:00Z',
  pricing_level,
  created_by: 'weft',
  created_at: '2025-01-01T00:00:00Z',
  in_force,
});

const prices = [
  price('p1', 'gpt-4o', 'project', true),
  price('d1', 'gpt-4o', 'default', false),
  price('p2', 'gpt-4o', 'project', false),
  price('d2', 'claude', 'default', true),
];

describe('visiblePrices', () => {
  it('shows prices in force and every project price by default', () => {
    expect(visiblePrices(prices, { all: false, search: '' }).map((p) => p.id)).toEqual(['p1', 'p2', 'd2']);
  });

  it('shows history with all, and filters by model or provider', () => {
    expect(visiblePrices(prices, { all: true, search: '' }).map((p) => p.id)).toEqual(['p1', 'p2', 'd1', 'd2']);
    expect(visiblePrices(prices, { all: true, search: 'OPENAI' }).map((p) => p.id)).toEqual(['p1', 'p2', 'd1']);
    expect(visiblePrices(prices, { all: false, search: 'clau' }).map((p) => p.id)).toEqual(['d2']);
  });
});

describe('formatPerMillion', () => {
  it('reads per-token prices per million tokens', () => {
    expect(formatPerMillion(2.5e-6)).toBe('$2.50');
    expect(formatPerMillion(3.75e-8)).toBe('$0.0375');
    expect(formatPerMillion(1e-6, 'EUR')).toBe('1.00 EUR');
  });
});
