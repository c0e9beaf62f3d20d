/**
 * The LLM price part of the storage seam (see Store.ts for the contract every store keeps).
 *
 * Prices live at two levels: `default` (the list shipped in domain/defaultPrices.ts, which
 * every backend seeds when it opens) and `project` (written by `/cost/create`). Picking the
 * price for a call is domain logic (domain/stats/costs.ts); the store only finds the candidates.
 */
import type { ProjectTableQuery } from './ProjectTableQuery.js';

export type PricingLevel = 'project' | 'default';

/** One price row. Costs are per token; times are epoch microseconds. */
export interface PriceRecord {
  id: string;
  pricingLevel: PricingLevel;
  /** The project id for project-level prices, `"default"` otherwise. */
  pricingLevelId: string;
  providerId: string;
  llmId: string;
  effectiveDate: number;
  promptTokenCost: number;
  completionTokenCost: number;
  /** Per cached prompt token read / written; absent means 0 (prices stored before these existed). */
  cacheReadInputTokenCost?: number;
  cacheCreationInputTokenCost?: number;
  promptTokenCostUnit: string;
  completionTokenCostUnit: string;
  createdBy: string;
  createdAt: number;
}

/** A `/cost/query` request, minus the wire names; no `fields` means CostQueryOutput's. */
export type CostQuery = ProjectTableQuery;

export interface CostsStore {
  /** Stores project-level prices in one transaction. */
  createPrices(rows: PriceRecord[]): Promise<void>;
  /** The project's own (project-level) prices and the instance providers' prices, keyed by the requested fields. */
  queryPrices(query: CostQuery): Promise<Record<string, unknown>[]>;
  /** Deletes the listed project-level price ids of the project; returns how many existed. */
  purgePrices(req: { projectId: string; ids: string[] }): Promise<number>;
  /**
   * Replaces the instance providers' prices (default-level rows whose id starts with
   * `instance:`, providers/instancePrices.ts) with `rows`, in one transaction. They survive the
   * re-seeding of the shipped defaults and show in every project's `queryPrices`, never purged by one.
   */
  replaceInstancePrices(rows: PriceRecord[]): Promise<void>;
  /** Every project-level (this project) and default-level price of the given models. */
  pricesFor(req: { projectId: string; llmIds: string[] }): Promise<PriceRecord[]>;
}
