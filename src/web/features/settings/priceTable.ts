/** Which price rows the settings page shows, and how a per-token price reads per million tokens. */
import type { PriceListEntry } from '../../../contract/costs.js';

const perMillion = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** `$2.50` for a per-token price of 0.0000025 (prices are published per million tokens). */
export function formatPerMillion(perToken: number, unit = 'USD'): string {
  const value = perMillion.format(perToken * 1e6);
  return unit === 'USD' ? `$${value}` : `${value} ${unit}`;
}

/**
 * The rows to show: by default each model's price in force plus every project price (a
 * project price dated in the future is not in force yet, but is the project's own); with
 * `all`, the defaults' history too. `search` matches model and provider names. Project prices
 * come first.
 */
export function visiblePrices(prices: readonly PriceListEntry[], { all, search }: { all: boolean; search: string }): PriceListEntry[] {
  const q = search.trim().toLowerCase();
  const shown = prices.filter(
    (p) =>
      (all || p.in_force || p.pricing_level === 'project') &&
      (!q || p.llm_id.toLowerCase().includes(q) || p.provider_id.toLowerCase().includes(q)),
  );
  // The project's own prices first (what someone here set), then the defaults; order kept otherwise.
  return [...shown.filter((p) => p.pricing_level === 'project'), ...shown.filter((p) => p.pricing_level !== 'project')];
}
