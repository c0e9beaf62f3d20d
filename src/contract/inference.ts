/**
 * The inference catalogues (docs/api/clients.md §5): outbound feeds describing the models this
 * server serves through its instance-wide providers, in the formats the reference publishes
 * for OpenRouter's provider listing, Artificial Analysis, and NVIDIA's hardware options.
 */
import { z } from 'zod';

export const CatalogueReq = z.object({});

/** OpenRouter's provider-listing model entry. Prices are USD per token, as strings. */
export const OpenRouterModel = z.object({
  id: z.string(),
  hugging_face_id: z.string().nullable(),
  name: z.string(),
  created: z.number().int(),
  input_modalities: z.array(z.string()),
  output_modalities: z.array(z.string()),
  quantization: z.string().nullable().describe('Unknown (null) for models Weft proxies'),
  context_length: z.number().int().nullable(),
  max_output_length: z.number().int().nullable(),
  pricing: z.object({
    prompt: z.string(),
    completion: z.string(),
    image: z.string(),
    request: z.string(),
    input_cache_read: z.string(),
    input_cache_write: z.string(),
  }),
  supported_sampling_parameters: z.array(z.string()),
  supported_features: z.array(z.string()),
  datacenters: z.array(z.object({ country_code: z.string() })),
});
export const OpenRouterModelsRes = z.object({ data: z.array(OpenRouterModel) });

// GET /inference/nvidia/v2/hardware?model=
export const HardwareReq = z.object({ model: z.string().min(1).describe('Model name without its publisher prefix') });
export const HardwareOption = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  pricing: z.object({ cents_per_million_input_tokens: z.number().nullable(), cents_per_million_output_tokens: z.number().nullable() }),
  specs: z.record(z.string(), z.unknown()),
});
export const HardwareRes = z.object({ hardware: z.array(HardwareOption) });

// GET /inference/catalog/models
export const CatalogModel = z.object({
  id: z.string(),
  provider: z.string(),
  name: z.string(),
  contextWindow: z.number().int().nullable(),
  maxOutputTokens: z.number().int().nullable(),
  lifecycleStage: z.string(),
  pricing: z.object({ inputUsdPerMillionTokens: z.number().nullable(), outputUsdPerMillionTokens: z.number().nullable() }),
});
export const CatalogModelsRes = z.object({ models: z.array(CatalogModel) });
