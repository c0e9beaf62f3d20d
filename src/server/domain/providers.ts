/**
 * Project model providers (Settings → Model providers): create, update, delete, read. The API
 * key is sealed with the server secret before it reaches the store and is never answered (only
 * its mask). A provider's model prices become project-level prices in the cost table (llm_id =
 * the upstream model name, provider_id = the provider name), replaced whenever the provider
 * changes and removed with it — in the same transaction as the provider itself.
 */
import type { z } from 'zod';
import type { ProviderCreateReq, ProviderModel, ProviderRead, ProviderUpdateReq } from '../../contract/providers.js';
import { maskSecret } from '../auth/secretBox.js';
import { NotFoundError } from '../errors.js';
import type { InstanceProviderConfig } from '../providers/instanceProviders.js';
import { ProviderError } from '../providers/ModelProvider.js';
import type { ProviderRegistry } from '../providers/providerRegistry.js';
import type { PriceRecord } from '../store/CostsStore.js';
import type { ProviderModelRecord, ProviderRecord } from '../store/ProvidersStore.js';
import type { Store } from '../store/Store.js';
import { formatMicros } from '../core/datetime.js';
import { uuidv7 } from '../core/ids.js';

const toModelRecord = (m: ProviderModel): ProviderModelRecord => ({
  name: m.name,
  promptTokenCost: m.prompt_token_cost ?? null,
  completionTokenCost: m.completion_token_cost ?? null,
  contextLength: m.context_length ?? null,
  maxOutputTokens: m.max_output_tokens ?? null,
});

const modelWire = (m: ProviderModelRecord) => ({
  name: m.name,
  prompt_token_cost: m.promptTokenCost,
  completion_token_cost: m.completionTokenCost,
  context_length: m.contextLength,
  max_output_tokens: m.maxOutputTokens,
});

export function toProviderRead(p: ProviderRecord): ProviderRead {
  return {
    id: p.id,
    name: p.name,
    base_url: p.baseUrl,
    source: 'project',
    api_key_mask: p.apiKeyMask,
    auth_style: p.authStyle,
    header_names: Object.keys(p.extraHeaders).sort(),
    models: p.models.map(modelWire),
    discovers_models: p.models.length === 0,
    created_at: formatMicros(p.createdAt),
    updated_at: formatMicros(p.updatedAt),
  };
}

export function instanceProviderRead(p: InstanceProviderConfig): ProviderRead {
  return {
    id: `instance:${p.name}`,
    name: p.name,
    base_url: p.baseUrl,
    source: 'instance',
    api_key_mask: maskSecret(p.apiKey),
    auth_style: p.authStyle,
    header_names: Object.keys(p.extraHeaders).sort(),
    models: (p.models ?? []).map(modelWire),
    discovers_models: p.models === null,
    created_at: null,
    updated_at: null,
  };
}

/** The price rows a provider's priced models put in the cost table. */
function priceRows(p: ProviderRecord, now: number): PriceRecord[] {
  return p.models
    .filter((m) => m.promptTokenCost !== null || m.completionTokenCost !== null)
    .map((m) => ({
      id: uuidv7(),
      pricingLevel: 'project',
      pricingLevelId: p.projectId,
      providerId: p.name,
      llmId: m.name,
      effectiveDate: now,
      promptTokenCost: m.promptTokenCost ?? 0,
      completionTokenCost: m.completionTokenCost ?? 0,
      promptTokenCostUnit: 'USD',
      completionTokenCostUnit: 'USD',
      createdBy: p.createdBy,
      createdAt: now,
    }));
}

/** Saves the record and swaps its price rows, all or nothing. */
async function save(store: Store, record: ProviderRecord, oldPriceIds: string[]): Promise<void> {
  const prices = priceRows(record, record.updatedAt);
  record.priceIds = prices.map((p) => p.id);
  await store.apply([
    ...(oldPriceIds.length ? [{ kind: 'costs.purge', purge: { projectId: record.projectId, ids: oldPriceIds } } as const] : []),
    ...(prices.length ? [{ kind: 'costs.create', prices } as const] : []),
    { kind: 'providers.save', provider: record },
  ]);
}

export async function createProvider(
  deps: { store: Store; registry: ProviderRegistry; userId: string; now: number },
  req: z.output<typeof ProviderCreateReq>,
): Promise<ProviderRead> {
  const { now } = deps;
  const id = uuidv7();
  const record: ProviderRecord = {
    id,
    projectId: req.project_id,
    name: req.name,
    baseUrl: req.base_url,
    apiKeySealed: req.api_key ? deps.registry.box.encrypt(req.api_key, id) : null,
    apiKeyMask: maskSecret(req.api_key),
    authStyle: req.auth_style,
    extraHeaders: req.headers,
    models: req.models.map(toModelRecord),
    priceIds: [],
    createdBy: deps.userId,
    createdAt: now,
    updatedAt: now,
  };
  await save(deps.store, record, []);
  return toProviderRead(record);
}

async function requireProvider(store: Store, projectId: string, id: string): Promise<ProviderRecord> {
  const record = await store.providers.getProvider({ projectId, id });
  if (!record) throw new NotFoundError(`Provider ${id} not found in project ${projectId}`);
  return record;
}

export async function updateProvider(
  deps: { store: Store; registry: ProviderRegistry; now: number },
  req: z.output<typeof ProviderUpdateReq>,
): Promise<ProviderRead> {
  const old = await requireProvider(deps.store, req.project_id, req.provider_id);
  const record: ProviderRecord = {
    ...old,
    name: req.name ?? old.name,
    baseUrl: req.base_url ?? old.baseUrl,
    authStyle: req.auth_style ?? old.authStyle,
    extraHeaders: req.headers ?? old.extraHeaders,
    models: req.models ? req.models.map(toModelRecord) : old.models,
    updatedAt: deps.now,
  };
  if (req.api_key === null) {
    record.apiKeySealed = null;
    record.apiKeyMask = null;
  } else if (req.api_key !== undefined) {
    record.apiKeySealed = deps.registry.box.encrypt(req.api_key, old.id);
    record.apiKeyMask = maskSecret(req.api_key);
  }
  await save(deps.store, record, old.priceIds);
  return toProviderRead(record);
}

export async function deleteProvider(store: Store, req: { project_id: string; provider_id: string }): Promise<boolean> {
  const old = await store.providers.getProvider({ projectId: req.project_id, id: req.provider_id });
  if (!old) return false;
  // The provider goes first so its result sits at a known position.
  const [deleted] = await store.apply([
    { kind: 'providers.delete', delete: { projectId: old.projectId, id: old.id } },
    ...(old.priceIds.length ? [{ kind: 'costs.purge', purge: { projectId: old.projectId, ids: old.priceIds } } as const] : []),
  ]);
  return deleted;
}

/** Lists the provider's upstream models: proof that its URL and key work. */
export async function testProvider(
  deps: { store: Store; registry: ProviderRegistry },
  req: { project_id: string; provider_id: string },
): Promise<{ ok: boolean; models: string[]; error: string | null }> {
  let provider;
  if (req.provider_id.startsWith('instance:')) {
    const config = deps.registry.instanceProviders.find((p) => `instance:${p.name}` === req.provider_id);
    if (!config) throw new NotFoundError(`Provider ${req.provider_id} not found`);
    provider = deps.registry.instanceProvider(config);
  } else {
    provider = deps.registry.projectProvider(await requireProvider(deps.store, req.project_id, req.provider_id));
  }
  try {
    return { ok: true, models: await provider.listModels({ timeoutMs: 15_000 }), error: null };
  } catch (err) {
    if (err instanceof ProviderError) return { ok: false, models: [], error: err.message };
    throw err;
  }
}
