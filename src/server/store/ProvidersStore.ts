/**
 * The model-provider part of the storage seam (see Store.ts for the contract every store
 * keeps): each project's configured OpenAI-compatible providers. The API key arrives already
 * sealed (auth/secretBox.ts) with its mask; a store never sees a key in the clear.
 */

export interface ProviderModelRecord {
  /** The upstream model name (`gpt-4o-mini`, `llama3.2`). */
  name: string;
  /** USD per token; null when not priced. */
  promptTokenCost: number | null;
  completionTokenCost: number | null;
  contextLength: number | null;
  maxOutputTokens: number | null;
}

export interface ProviderRecord {
  id: string;
  projectId: string;
  /** Unique in the project; the `<provider>` of `<provider>/<model>`. */
  name: string;
  baseUrl: string;
  /** `v1.<iv>.<tag>.<ciphertext>`, bound to the record id; null when the provider needs no key. */
  apiKeySealed: string | null;
  /** What may be shown of the key (`sk-…abcd`). */
  apiKeyMask: string | null;
  authStyle: 'bearer' | 'api-key';
  extraHeaders: Record<string, string>;
  models: ProviderModelRecord[];
  /** Ids of the project-level price rows written for `models` (replaced on every update). */
  priceIds: string[];
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface ProvidersStore {
  listProviders(projectId: string): Promise<ProviderRecord[]>;
  /** Whether any project of these entities (or any at all) has a provider. */
  anyProvider(entities: string[] | 'all'): Promise<boolean>;
  getProvider(req: { projectId: string; id: string }): Promise<ProviderRecord | null>;
  /** Inserts or replaces the record with this id; a name taken by another record of the project rejects. */
  saveProvider(record: ProviderRecord): Promise<void>;
  /** Answers whether a record was deleted. */
  deleteProvider(req: { projectId: string; id: string }): Promise<boolean>;
}
