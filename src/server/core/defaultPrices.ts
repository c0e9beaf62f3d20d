/**
 * The default price list: USD per token for widely used models, keyed by the model name the
 * provider SDKs report (and Weave's integrations put in `summary.usage`). Every backend seeds
 * these rows as `default`-level prices when it opens, replacing the previous list, so a new
 * release updates them; `/cost/create` overrides any of them per project.
 *
 * Prices are the providers' published list prices for standard (non-batch, non-cached)
 * prompts, in the lowest context tier, as of the dates given. A model whose price changed
 * has one row per period, so calls are priced at what they cost when they ran.
 */
import { parseIsoToMicros } from '../core/datetime.js';
import type { PriceRecord } from '../store/CostsStore.js';

interface ListPrice {
  llmIds: string[];
  providerId: 'openai' | 'anthropic' | 'gemini';
  /** USD per million prompt / completion tokens, as providers publish them. */
  perMillion: [number, number];
  effectiveDate: string;
}

const LIST: ListPrice[] = [
  // OpenAI
  { llmIds: ['gpt-4', 'gpt-4-0613'], providerId: 'openai', perMillion: [30, 60], effectiveDate: '2023-03-14' },
  { llmIds: ['gpt-4o-2024-05-13'], providerId: 'openai', perMillion: [5, 15], effectiveDate: '2024-05-13' },
  {
    llmIds: ['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'],
    providerId: 'openai',
    perMillion: [2.5, 10],
    effectiveDate: '2024-08-06',
  },
  { llmIds: ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'], providerId: 'openai', perMillion: [0.15, 0.6], effectiveDate: '2024-07-18' },
  { llmIds: ['gpt-4.1', 'gpt-4.1-2025-04-14'], providerId: 'openai', perMillion: [2, 8], effectiveDate: '2025-04-14' },
  { llmIds: ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'], providerId: 'openai', perMillion: [0.4, 1.6], effectiveDate: '2025-04-14' },
  { llmIds: ['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], providerId: 'openai', perMillion: [0.1, 0.4], effectiveDate: '2025-04-14' },
  { llmIds: ['o3-mini', 'o3-mini-2025-01-31'], providerId: 'openai', perMillion: [1.1, 4.4], effectiveDate: '2025-01-31' },
  // o3 launched at $10/$40 and dropped to $2/$8 on 2025-06-10.
  { llmIds: ['o3', 'o3-2025-04-16'], providerId: 'openai', perMillion: [10, 40], effectiveDate: '2025-04-16' },
  { llmIds: ['o3', 'o3-2025-04-16'], providerId: 'openai', perMillion: [2, 8], effectiveDate: '2025-06-10' },
  { llmIds: ['o4-mini', 'o4-mini-2025-04-16'], providerId: 'openai', perMillion: [1.1, 4.4], effectiveDate: '2025-04-16' },

  // Anthropic
  { llmIds: ['claude-3-haiku-20240307'], providerId: 'anthropic', perMillion: [0.25, 1.25], effectiveDate: '2024-03-07' },
  {
    llmIds: ['claude-3-opus-20240229', 'claude-3-opus-latest'],
    providerId: 'anthropic',
    perMillion: [15, 75],
    effectiveDate: '2024-02-29',
  },
  {
    llmIds: ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest'],
    providerId: 'anthropic',
    perMillion: [3, 15],
    effectiveDate: '2024-06-20',
  },
  {
    llmIds: ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'],
    providerId: 'anthropic',
    perMillion: [0.8, 4],
    effectiveDate: '2024-10-22',
  },
  {
    llmIds: ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-latest'],
    providerId: 'anthropic',
    perMillion: [3, 15],
    effectiveDate: '2025-02-19',
  },
  { llmIds: ['claude-sonnet-4-20250514', 'claude-sonnet-4-0'], providerId: 'anthropic', perMillion: [3, 15], effectiveDate: '2025-05-14' },
  { llmIds: ['claude-opus-4-20250514', 'claude-opus-4-0'], providerId: 'anthropic', perMillion: [15, 75], effectiveDate: '2025-05-14' },
  { llmIds: ['claude-opus-4-1-20250805', 'claude-opus-4-1'], providerId: 'anthropic', perMillion: [15, 75], effectiveDate: '2025-08-05' },
  {
    llmIds: ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    providerId: 'anthropic',
    perMillion: [3, 15],
    effectiveDate: '2025-09-29',
  },
  { llmIds: ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'], providerId: 'anthropic', perMillion: [1, 5], effectiveDate: '2025-10-01' },

  // Google Gemini (prompts up to 128k tokens for 1.5, 200k for 2.5 Pro)
  { llmIds: ['gemini-1.5-pro', 'gemini-1.5-pro-002'], providerId: 'gemini', perMillion: [1.25, 5], effectiveDate: '2024-10-01' },
  { llmIds: ['gemini-1.5-flash', 'gemini-1.5-flash-002'], providerId: 'gemini', perMillion: [0.075, 0.3], effectiveDate: '2024-08-12' },
  { llmIds: ['gemini-1.5-flash-8b'], providerId: 'gemini', perMillion: [0.0375, 0.15], effectiveDate: '2024-10-03' },
  { llmIds: ['gemini-2.0-flash', 'gemini-2.0-flash-001'], providerId: 'gemini', perMillion: [0.1, 0.4], effectiveDate: '2025-02-05' },
  {
    llmIds: ['gemini-2.0-flash-lite', 'gemini-2.0-flash-lite-001'],
    providerId: 'gemini',
    perMillion: [0.075, 0.3],
    effectiveDate: '2025-02-25',
  },
  { llmIds: ['gemini-2.5-pro'], providerId: 'gemini', perMillion: [1.25, 10], effectiveDate: '2025-06-17' },
  { llmIds: ['gemini-2.5-flash'], providerId: 'gemini', perMillion: [0.3, 2.5], effectiveDate: '2025-06-17' },
  { llmIds: ['gemini-2.5-flash-lite'], providerId: 'gemini', perMillion: [0.1, 0.4], effectiveDate: '2025-07-22' },
];

/** Who "created" the shipped prices: `system`, as the reference's own default rows say. */
export const DEFAULT_PRICES_CREATED_BY = 'system';

/**
 * The list as price rows. Ids are derived from model and date, so they stay the same from
 * one start to the next.
 */
export function defaultPriceRecords(): PriceRecord[] {
  return LIST.flatMap((p) =>
    p.llmIds.map((llmId) => {
      const effectiveDate = parseIsoToMicros(p.effectiveDate)!;
      return {
        id: `default:${llmId}:${p.effectiveDate}`,
        pricingLevel: 'default' as const,
        pricingLevelId: 'default',
        providerId: p.providerId,
        llmId,
        effectiveDate,
        promptTokenCost: p.perMillion[0] / 1e6,
        completionTokenCost: p.perMillion[1] / 1e6,
        promptTokenCostUnit: 'USD',
        completionTokenCostUnit: 'USD',
        createdBy: DEFAULT_PRICES_CREATED_BY,
        createdAt: effectiveDate,
      };
    }),
  );
}
