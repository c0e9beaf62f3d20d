/**
 * Costs: per-token prices of LLMs, used to price the `summary.usage` of calls. Shapes follow
 * the Weave trace server (`CostCreateReq`, `CostQueryOutput`, `LLMCostSchema`); see
 * docs/api/core.md §3.8 and §2.
 */
import { z } from 'zod';
import { DateTime, Limit, Offset, ProjectId, Query, SortBy } from './common.js';

/** One model's price, as `/cost/create` takes it. */
export const CostCreateInput = z.object({
  prompt_token_cost: z.number().min(0).describe('Price of one prompt (input) token'),
  completion_token_cost: z.number().min(0).describe('Price of one completion (output) token'),
  cache_read_input_token_cost: z.number().min(0).nullish().default(0).describe('Price of one prompt token read from the cache'),
  cache_creation_input_token_cost: z.number().min(0).nullish().default(0).describe('Price of one prompt token written to the cache'),
  prompt_token_cost_unit: z.string().nullish().default('USD'),
  completion_token_cost_unit: z.string().nullish().default('USD'),
  effective_date: DateTime.nullish().describe('From when the price applies; default now'),
  provider_id: z.string().nullish().describe('Default "default"'),
});

// POST /cost/create
export const CostCreateReq = z.object({
  project_id: ProjectId,
  costs: z.record(z.string().min(1), CostCreateInput).describe('Prices keyed by llm_id, the key calls use in summary.usage'),
  wb_user_id: z.string().nullish().describe('Ignored: the server sets the authenticated user'),
});
export type CostCreateReq = z.infer<typeof CostCreateReq>;
export const CostCreateRes = z.object({
  ids: z.array(z.tuple([z.string(), z.string()])).describe('[cost id, llm_id] per created price'),
});

/** A price row; every field is nullable because `fields` may select a subset. */
export const CostQueryOutput = z.object({
  id: z.string().nullish(),
  llm_id: z.string().nullish(),
  prompt_token_cost: z.number().nullish(),
  completion_token_cost: z.number().nullish(),
  cache_read_input_token_cost: z.number().nullish(),
  cache_creation_input_token_cost: z.number().nullish(),
  prompt_token_cost_unit: z.string().nullish(),
  completion_token_cost_unit: z.string().nullish(),
  effective_date: z.string().nullish(),
  provider_id: z.string().nullish(),
});

// POST /cost/query
export const CostQueryReq = z.object({
  project_id: ProjectId,
  fields: z.array(z.string()).nullish(),
  query: Query.nullish(),
  sort_by: z.array(SortBy).nullish(),
  limit: Limit,
  offset: Offset,
});
export const CostQueryRes = z.object({ results: z.array(CostQueryOutput) });

// POST /cost/purge
export const CostPurgeReq = z.object({
  project_id: ProjectId,
  query: Query.describe('Only ids: $eq or $in on "id", or an $or of $eq on "id"'),
});
export const CostPurgeRes = z.object({});

/** `summary.weave.costs[<llm_id>]` on calls read with `include_costs`. */
export const LLMCost = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  requests: z.number().int(),
  total_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
  cache_creation_input_tokens: z.number().int(),
  prompt_token_cost: z.number(),
  completion_token_cost: z.number(),
  cache_read_input_token_cost: z.number(),
  cache_creation_input_token_cost: z.number(),
  prompt_tokens_total_cost: z.number().describe('Uncached prompt tokens (prompt − cache read − cache creation) × prompt_token_cost'),
  completion_tokens_total_cost: z.number(),
  cache_read_input_tokens_total_cost: z.number(),
  cache_creation_input_tokens_total_cost: z.number(),
  prompt_token_cost_unit: z.string(),
  completion_token_cost_unit: z.string(),
  effective_date: z.string(),
  provider_id: z.string(),
  pricing_level: z.enum(['project', 'default']),
  pricing_level_id: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
export type LLMCost = z.infer<typeof LLMCost>;

/** A price as Weft's settings page lists it: a project's own, or one of the shipped defaults. */
export const PriceListEntry = z.object({
  id: z.string(),
  llm_id: z.string(),
  provider_id: z.string(),
  prompt_token_cost: z.number(),
  completion_token_cost: z.number(),
  prompt_token_cost_unit: z.string(),
  completion_token_cost_unit: z.string(),
  effective_date: z.string(),
  pricing_level: z.enum(['project', 'default']),
  created_by: z.string(),
  created_at: z.string(),
  in_force: z.boolean().describe('True for the price a call of this model started now would be charged'),
});
export type PriceListEntry = z.infer<typeof PriceListEntry>;

// GET /weft/prices (Weft addition)
export const PricesListReq = z.object({ project_id: ProjectId });
export const PricesListRes = z.object({
  prices: z.array(PriceListEntry).describe("Every project and default price, by model; the project's first, newest first"),
});
