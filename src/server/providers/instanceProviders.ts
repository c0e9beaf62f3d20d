/**
 * Instance-wide providers, configured by whoever runs the server and shared by every project:
 *
 * - the standard OpenAI SDK variables alone: `OPENAI_API_KEY` and/or `OPENAI_BASE_URL` make a
 *   provider named `openai` (base URL default `https://api.openai.com/v1`), so a user pointing
 *   their SDKs at a local Ollama (`OPENAI_BASE_URL=http://localhost:11434/v1`) gets the same
 *   models in Weft with no further set-up;
 * - a JSON file (`WEFT_PROVIDERS_FILE`, else `<data dir>/providers.json` when present) listing
 *   more: `{"providers": [{"name", "base_url", "api_key" | "api_key_env", "auth_style"?,
 *   "headers"?, "models"?: [{"name", "prompt_token_cost"?, "completion_token_cost"?,
 *   "context_length"?, "max_output_tokens"?}]}]}`. Keys named by `api_key_env` are read from the
 *   environment, so the file itself can hold no secret.
 *
 * A provider with no `models` list offers what its `GET /models` answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProviderModelRecord } from '../store/ProvidersStore.js';

export interface InstanceProviderConfig {
  name: string;
  baseUrl: string;
  apiKey: string | null;
  authStyle: 'bearer' | 'api-key';
  extraHeaders: Record<string, string>;
  /** Null: discover with `GET /models`. */
  models: ProviderModelRecord[] | null;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const ModelEntry = z.union([
  z.string().min(1),
  z.object({
    name: z.string().min(1),
    prompt_token_cost: z.number().nonnegative().nullish(),
    completion_token_cost: z.number().nonnegative().nullish(),
    context_length: z.number().int().positive().nullish(),
    max_output_tokens: z.number().int().positive().nullish(),
  }),
]);

const ProvidersFile = z.object({
  providers: z.array(
    z.object({
      name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only'),
      base_url: z.url(),
      api_key: z.string().nullish(),
      api_key_env: z.string().nullish(),
      auth_style: z.enum(['bearer', 'api-key']).nullish(),
      headers: z.record(z.string(), z.string()).nullish(),
      models: z.array(ModelEntry).nullish(),
    }),
  ),
});

export function toModelRecord(entry: z.infer<typeof ModelEntry>): ProviderModelRecord {
  if (typeof entry === 'string')
    return { name: entry, promptTokenCost: null, completionTokenCost: null, contextLength: null, maxOutputTokens: null };
  return {
    name: entry.name,
    promptTokenCost: entry.prompt_token_cost ?? null,
    completionTokenCost: entry.completion_token_cost ?? null,
    contextLength: entry.context_length ?? null,
    maxOutputTokens: entry.max_output_tokens ?? null,
  };
}

/** The instance providers the environment and the providers file configure; a broken file stops the start with the reason. */
export function loadInstanceProviders(options: {
  env: NodeJS.ProcessEnv;
  openaiApiKey: string | null;
  openaiBaseUrl: string | null;
  providersFile: string | null;
  dataDir: string;
}): InstanceProviderConfig[] {
  const out: InstanceProviderConfig[] = [];
  if (options.openaiApiKey || options.openaiBaseUrl) {
    out.push({
      name: 'openai',
      baseUrl: options.openaiBaseUrl || OPENAI_DEFAULT_BASE_URL,
      apiKey: options.openaiApiKey || null,
      authStyle: 'bearer',
      extraHeaders: {},
      models: null,
    });
  }
  const file = options.providersFile ?? join(options.dataDir, 'providers.json');
  if (!options.providersFile && !existsSync(file)) return out;
  let parsed: z.infer<typeof ProvidersFile>;
  try {
    parsed = ProvidersFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw new Error(`Cannot read the providers file ${file}: ${(err as Error).message}`, { cause: err });
  }
  for (const p of parsed.providers) {
    if (out.some((o) => o.name === p.name)) throw new Error(`The providers file ${file} names provider "${p.name}" twice`);
    out.push({
      name: p.name,
      baseUrl: p.base_url,
      apiKey: p.api_key ?? (p.api_key_env ? (options.env[p.api_key_env] ?? null) : null),
      authStyle: p.auth_style ?? 'bearer',
      extraHeaders: p.headers ?? {},
      models: p.models ? p.models.map(toModelRecord) : null,
    });
  }
  return out;
}
