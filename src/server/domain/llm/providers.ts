/**
 * Project model providers (Settings → Model providers): create, update, delete, read. The API
 * key is sealed with the server secret before it reaches the store and is never answered (only
 * its mask). A provider's model prices become project-level prices in the cost table (llm_id =
 * the upstream model name, provider_id = the provider name), replaced whenever the provider
 * changes and removed with it — in the same transaction as the provider itself.
 *
 * Where a provider may send its key is guarded here (docs/security/outbound.md): a base URL must
 * reach only addresses the outbound policy allows (an address WEFT_OUTBOUND_ALLOW opens only an
 * admin may name), and a change of base URL, headers or auth style must give the key again, so
 * a stored key is never sent to a host its owner did not choose.
 */
import type { z } from 'zod';
import type { ProviderCreateReq, ProviderModel, ProviderRead, ProviderUpdateReq } from '../../../contract/providers.js';
import { maskSecret } from '../../auth/secretBox.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { OutboundError } from '../../outbound/outboundClient.js';
import type { InstanceProviderConfig } from '../../providers/instanceProviders.js';
import { ProviderError } from '../../providers/ModelProvider.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import type { ProviderModelRecord, ProviderRecord } from '../../store/ProvidersStore.js';
import type { Store } from '../../store/Store.js';
import { formatMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';

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

/** An instance provider as a caller sees it: only admins see where it points (the operator's network). */
export function instanceProviderRead(p: InstanceProviderConfig, viewer: { isAdmin: boolean }): ProviderRead {
  return {
    id: `instance:${p.name}`,
    name: p.name,
    base_url: viewer.isAdmin ? p.baseUrl : null,
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

/** Request headers a provider may not set: they would redirect the request or break its framing. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'forwarded',
  'x-forwarded-host',
  'accept-encoding',
]);

function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new BadRequestError(`Header name "${name}" is not a valid HTTP header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('proxy-'))
      throw new BadRequestError(`Header "${name}" cannot be set on a provider; give the key as api_key, and the address as base_url`);
    if (/[\r\n\0]/.test(value)) throw new BadRequestError(`The value of header "${name}" contains a line break or NUL`);
  }
}

/**
 * Whether this user may save this base URL: one naming an address WEFT_OUTBOUND_ALLOW opens is
 * an admin's to save (it reaches the operator's network), and none may resolve to an address the
 * policy refuses.
 */
async function checkBaseUrl(registry: ProviderRegistry, baseUrl: string, isAdmin: boolean): Promise<void> {
  const named = registry.projectUrlTrusted(baseUrl);
  if (named && !isAdmin) {
    throw new ForbiddenError(
      `Only an admin may point a provider at ${new URL(baseUrl).host}: WEFT_OUTBOUND_ALLOW opens it for the operator's own model servers. Ask an admin to add this provider.`,
    );
  }
  try {
    await registry.outbound.checkUrl(baseUrl, named);
  } catch (err) {
    if (err instanceof OutboundError) throw new BadRequestError(`base_url cannot be used: ${err.message}`);
    throw err;
  }
}

const sameUrl = (a: string, b: string) => new URL(a).href === new URL(b).href;
const sameHeaders = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

export async function createProvider(
  deps: { store: Store; registry: ProviderRegistry; userId: string; isAdmin: boolean; now: number },
  req: z.output<typeof ProviderCreateReq>,
): Promise<ProviderRead> {
  checkHeaders(req.headers);
  await checkBaseUrl(deps.registry, req.base_url, deps.isAdmin);
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
  deps: { store: Store; registry: ProviderRegistry; isAdmin: boolean; now: number },
  req: z.output<typeof ProviderUpdateReq>,
): Promise<ProviderRead> {
  const old = await requireProvider(deps.store, req.project_id, req.provider_id);
  const urlChanged = req.base_url !== undefined && !sameUrl(req.base_url, old.baseUrl);
  const headersChanged = req.headers !== undefined && !sameHeaders(req.headers, old.extraHeaders);
  const styleChanged = req.auth_style !== undefined && req.auth_style !== old.authStyle;
  // The stored key (and header values, which may be keys too) go only where their owner sent
  // them: whoever moves the provider must give them again.
  if (old.apiKeySealed && req.api_key === undefined && (urlChanged || headersChanged || styleChanged)) {
    const what = [urlChanged && 'base_url', headersChanged && 'headers', styleChanged && 'auth_style'].filter(Boolean).join(', ');
    throw new BadRequestError(
      `Changing ${what} would send the stored API key somewhere new: give api_key again in the same request (or null to remove the key).`,
    );
  }
  if (urlChanged && Object.keys(old.extraHeaders).length && req.headers === undefined) {
    throw new BadRequestError(
      'Changing base_url would send the stored header values to a new host: give headers again in the same request ({} to remove them).',
    );
  }
  if (req.headers) checkHeaders(req.headers);
  if (urlChanged) await checkBaseUrl(deps.registry, req.base_url!, deps.isAdmin);
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
