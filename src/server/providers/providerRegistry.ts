/**
 * Which provider serves a model name, for a project: the project's own providers (Settings →
 * Model providers, stored with sealed keys) first, then the instance-wide ones
 * (instanceProviders.ts).
 *
 * Model names, decided against the reference (trace_server/clickhouse_query_layer/completions.py,
 * `_setup_completion_model_info`): the reference resolves LiteLLM ids (`gpt-4o`,
 * `anthropic/claude-...`) against keys stored per provider, and custom providers as
 * `custom::<provider>::<model>`. Weft accepts:
 * - `<provider>/<model>` — the provider named before the first `/` (`ollama/llama3.2`,
 *   `openrouter/openai/gpt-4o`), the form the playground and catalogues show;
 * - `custom::<provider>::<model>` — the reference's custom-provider form;
 * - a bare `<model>` — the first project provider, then instance provider, that lists it, else
 *   the instance's `openai` provider (what an OpenAI SDK user expects `gpt-4o-mini` to mean).
 * Usage is recorded under the upstream model name (as the reference records LiteLLM's model
 * name), so the shipped default prices apply to OpenAI models and a project provider's prices
 * are stored under the same names.
 */
import type { SecretBox } from '../auth/secretBox.js';
import type { OutboundClient } from '../outbound/outboundClient.js';
import type { ProviderModelRecord, ProviderRecord } from '../store/ProvidersStore.js';
import type { Store } from '../store/Store.js';
import type { InstanceProviderConfig } from './instanceProviders.js';
import type { ModelProvider } from './ModelProvider.js';
import { OpenAiCompatibleProvider } from './openaiCompatible.js';

export interface ResolvedModel {
  provider: ModelProvider;
  providerName: string;
  /** The name sent upstream. */
  model: string;
  /** `<provider>/<model>`. */
  id: string;
  source: 'project' | 'instance';
}

export interface OfferedModel {
  id: string;
  provider: string;
  model: string;
  source: 'project' | 'instance';
  promptTokenCost: number | null;
  completionTokenCost: number | null;
  contextLength: number | null;
  maxOutputTokens: number | null;
}

/** No provider can serve the model: the message says what to configure. */
export class NoProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoProviderError';
  }
}

export const NO_PROVIDER_HELP =
  'No model provider is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL for Ollama, vLLM, LM Studio, LiteLLM or OpenRouter) ' +
  'where Weft runs, or add a provider in the project Settings → Model providers.';

const DISCOVERY_TTL_MS = 60_000;

export class ProviderRegistry {
  readonly #store: Store;
  readonly #box: SecretBox;
  readonly #instance: InstanceProviderConfig[];
  readonly #timeoutMs: number | undefined;
  readonly #outbound: OutboundClient;
  readonly #maxAnswerBytes: number | undefined;
  readonly #maxImageBytes: number | undefined;
  readonly #discovered = new Map<string, { at: number; models: string[] }>();

  constructor(options: {
    store: Store;
    box: SecretBox;
    instance: InstanceProviderConfig[];
    outbound: OutboundClient;
    timeoutMs?: number;
    /** WEFT_MAX_PROVIDER_ANSWER_BYTES and WEFT_MAX_FILE_BYTES. */
    maxAnswerBytes?: number;
    maxImageBytes?: number;
  }) {
    this.#store = options.store;
    this.#box = options.box;
    this.#instance = options.instance;
    this.#outbound = options.outbound;
    this.#timeoutMs = options.timeoutMs;
    this.#maxAnswerBytes = options.maxAnswerBytes;
    this.#maxImageBytes = options.maxImageBytes;
  }

  get box(): SecretBox {
    return this.#box;
  }

  get outbound(): OutboundClient {
    return this.#outbound;
  }

  /**
   * Whether a project provider's base URL may reach what WEFT_OUTBOUND_ALLOW opens: only when
   * the URL names an entry itself, which only an admin may save (domain/llm/providers.ts). A name
   * that merely resolves into an allowed range is not enough, or any member could point one there.
   */
  projectUrlTrusted(baseUrl: string): boolean {
    try {
      const url = new URL(baseUrl);
      return this.#outbound.allow.namesHost(url.hostname, url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
    } catch {
      return false;
    }
  }

  /** The instance-wide providers' names and settings (keys excluded). */
  get instanceProviders(): readonly InstanceProviderConfig[] {
    return this.#instance;
  }

  hasInstanceProvider(): boolean {
    return this.#instance.length > 0;
  }

  /** A ModelProvider for a stored project provider (its key unsealed for this use only). */
  projectProvider(record: ProviderRecord): ModelProvider {
    const apiKey = record.apiKeySealed ? this.#box.decrypt(record.apiKeySealed, record.id) : null;
    if (record.apiKeySealed && apiKey === null) {
      throw new NoProviderError(
        `The API key of provider "${record.name}" cannot be decrypted (the server secret changed); enter the key again in Settings → Model providers.`,
      );
    }
    return new OpenAiCompatibleProvider({
      name: record.name,
      baseUrl: record.baseUrl,
      apiKey,
      authStyle: record.authStyle,
      extraHeaders: record.extraHeaders,
      ...this.#reach(this.projectUrlTrusted(record.baseUrl)),
    });
  }

  instanceProvider(config: InstanceProviderConfig): ModelProvider {
    // The operator configured it: it may reach what WEFT_OUTBOUND_ALLOW opens.
    return new OpenAiCompatibleProvider({ ...config, ...this.#reach(true) });
  }

  #reach(trusted: boolean) {
    return {
      outbound: this.#outbound,
      trusted,
      timeoutMs: this.#timeoutMs,
      maxAnswerBytes: this.#maxAnswerBytes,
      maxImageBytes: this.#maxImageBytes,
    };
  }

  /** The provider and upstream model for a model name in a project; NoProviderError when none serves it. */
  async resolve(projectId: string, modelName: string): Promise<ResolvedModel> {
    const projectProviders = await this.#store.providers.listProviders(projectId);
    const byName = (name: string) => {
      const record = projectProviders.find((p) => p.name === name);
      if (record) return { provider: this.projectProvider(record), source: 'project' as const };
      const config = this.#instance.find((p) => p.name === name);
      return config ? { provider: this.instanceProvider(config), source: 'instance' as const } : null;
    };
    const make = (found: { provider: ModelProvider; source: 'project' | 'instance' }, model: string): ResolvedModel => ({
      ...found,
      providerName: found.provider.name,
      model,
      id: `${found.provider.name}/${model}`,
    });

    const custom = /^custom::([^:]+)::(.+)$/.exec(modelName);
    if (custom) {
      const found = byName(custom[1]!);
      if (!found) throw new NoProviderError(`No provider named "${custom[1]}" is configured for this project. ${NO_PROVIDER_HELP}`);
      return make(found, custom[2]!);
    }
    const slash = modelName.indexOf('/');
    if (slash > 0) {
      const found = byName(modelName.slice(0, slash));
      if (found) return make(found, modelName.slice(slash + 1));
    }
    const lister = projectProviders.find((p) => p.models.some((m) => m.name === modelName));
    if (lister) return make({ provider: this.projectProvider(lister), source: 'project' }, modelName);
    const instanceLister = this.#instance.find((p) => p.models?.some((m) => m.name === modelName));
    if (instanceLister) return make({ provider: this.instanceProvider(instanceLister), source: 'instance' }, modelName);
    const fallback = this.#instance.find((p) => p.name === 'openai') ?? this.#instance[0];
    if (fallback) return make({ provider: this.instanceProvider(fallback), source: 'instance' }, modelName);
    if (projectProviders.length === 1) return make({ provider: this.projectProvider(projectProviders[0]!), source: 'project' }, modelName);
    if (projectProviders.length === 0) throw new NoProviderError(NO_PROVIDER_HELP);
    throw new NoProviderError(
      `No provider offers "${modelName}". Name the provider as <provider>/<model>, one of: ${projectProviders.map((p) => p.name).join(', ')}.`,
    );
  }

  /** Every model a project can use: its providers' and the instance's (discovered when not listed). */
  async listModels(projectId: string | null): Promise<{ models: OfferedModel[]; errors: { provider: string; message: string }[] }> {
    const models: OfferedModel[] = [];
    const errors: { provider: string; message: string }[] = [];
    const projectProviders = projectId ? await this.#store.providers.listProviders(projectId) : [];
    for (const p of projectProviders) {
      let list = p.models;
      if (!list.length) {
        try {
          list = (await this.#discover(`project:${p.id}:${p.updatedAt}`, this.projectProvider(p))).map(bareModel);
        } catch (err) {
          errors.push({ provider: p.name, message: (err as Error).message });
        }
      }
      for (const m of list) models.push(offered(p.name, m, 'project'));
    }
    for (const config of this.#instance) {
      if (projectProviders.some((p) => p.name === config.name)) continue;
      let list = config.models;
      if (!list) {
        try {
          list = (await this.#discover(`instance:${config.name}`, this.instanceProvider(config))).map(bareModel);
        } catch (err) {
          errors.push({ provider: config.name, message: (err as Error).message });
          list = [];
        }
      }
      for (const m of list) models.push(offered(config.name, m, 'instance'));
    }
    return { models, errors };
  }

  async #discover(key: string, provider: ModelProvider): Promise<string[]> {
    const hit = this.#discovered.get(key);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.models;
    const list = await provider.listModels({ timeoutMs: 10_000 });
    this.#discovered.set(key, { at: Date.now(), models: list });
    return list;
  }
}

const bareModel = (name: string): ProviderModelRecord => ({
  name,
  promptTokenCost: null,
  completionTokenCost: null,
  contextLength: null,
  maxOutputTokens: null,
});

const offered = (provider: string, m: ProviderModelRecord, source: 'project' | 'instance'): OfferedModel => ({
  id: `${provider}/${m.name}`,
  provider,
  model: m.name,
  source,
  promptTokenCost: m.promptTokenCost,
  completionTokenCost: m.completionTokenCost,
  contextLength: m.contextLength,
  maxOutputTokens: m.maxOutputTokens,
});
