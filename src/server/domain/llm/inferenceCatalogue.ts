/**
 * The inference catalogues (docs/api/clients.md §5). In the reference they are outbound feeds in
 * which W&B's hosted inference publishes the models it serves; a self-hosted Weft serves the
 * models of its instance-wide providers (environment / providers file), so that is what they
 * list — empty when none is configured. Project providers are private to their project and
 * are not published.
 *
 * Decisions where the feed formats ask for what Weft cannot know: `quantization` is null (Weft
 * proxies the model, it does not know how it is served); a price that is not configured is
 * "-1", OpenRouter's marker for variable/unknown pricing (a "0" would claim the model is
 * free); `created` is when this server process started listing (stable between calls).
 */
import type { z } from 'zod';
import type { CatalogModel, HardwareOption, OpenRouterModel } from '../../../contract/inference.js';
import type { OfferedModel, ProviderRegistry } from '../../providers/providerRegistry.js';

const STARTED = Math.floor(Date.now() / 1000);
const price = (usdPerToken: number | null) => (usdPerToken === null ? '-1' : String(usdPerToken));
const perMillion = (usdPerToken: number | null, scale: number) => (usdPerToken === null ? null : usdPerToken * 1_000_000 * scale);

async function servedModels(registry: ProviderRegistry): Promise<OfferedModel[]> {
  return (await registry.listModels(null)).models;
}

export async function openRouterListing(registry: ProviderRegistry): Promise<z.infer<typeof OpenRouterModel>[]> {
  return (await servedModels(registry)).map((m) => ({
    id: m.id,
    hugging_face_id: null,
    name: m.model,
    created: STARTED,
    input_modalities: ['text'],
    output_modalities: ['text'],
    quantization: null,
    context_length: m.contextLength,
    max_output_length: m.maxOutputTokens,
    pricing: {
      prompt: price(m.promptTokenCost),
      completion: price(m.completionTokenCost),
      image: '0',
      request: '0',
      input_cache_read: price(m.promptTokenCost),
      input_cache_write: price(m.promptTokenCost),
    },
    supported_sampling_parameters: ['temperature', 'top_p', 'max_tokens', 'stop', 'seed', 'presence_penalty', 'frequency_penalty'],
    supported_features: ['json_mode'],
    datacenters: [],
  }));
}

/** Serving options for a model named without its publisher prefix: one per provider serving it. */
export async function hardwareOptions(registry: ProviderRegistry, model: string): Promise<z.infer<typeof HardwareOption>[]> {
  const bare = (name: string) => name.slice(name.lastIndexOf('/') + 1);
  return (await servedModels(registry))
    .filter((m) => bare(m.model) === bare(model))
    .map((m) => ({
      id: m.id,
      name: `${m.provider} (OpenAI-compatible endpoint)`,
      type: 'serverless',
      pricing: {
        cents_per_million_input_tokens: perMillion(m.promptTokenCost, 100),
        cents_per_million_output_tokens: perMillion(m.completionTokenCost, 100),
      },
      specs: { context_length: m.contextLength, max_output_tokens: m.maxOutputTokens },
    }));
}

export async function catalogModels(registry: ProviderRegistry): Promise<z.infer<typeof CatalogModel>[]> {
  return (await servedModels(registry)).map((m) => ({
    id: m.id,
    provider: m.provider,
    name: m.model,
    contextWindow: m.contextLength,
    maxOutputTokens: m.maxOutputTokens,
    lifecycleStage: 'ga',
    pricing: {
      inputUsdPerMillionTokens: perMillion(m.promptTokenCost, 1),
      outputUsdPerMillionTokens: perMillion(m.completionTokenCost, 1),
    },
  }));
}
