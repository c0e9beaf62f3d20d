/**
 * Weft's model-provider and background-job endpoints (Weft extensions under `/weft/...`, like
 * `/weft/users`): a project's OpenAI-compatible providers (API keys write-only: answers carry
 * only a mask such as `sk-…abcd`), the models a project can use, and its background jobs.
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

const ProviderName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Use letters, digits, "_", "." and "-" only (the name is the <provider> of <provider>/<model>)');

export const ProviderModel = z.object({
  name: z.string().min(1).max(256).describe('The upstream model name, e.g. gpt-4o-mini or llama3.2'),
  prompt_token_cost: z.number().nonnegative().nullish().describe('USD per prompt token; feeds the cost table'),
  completion_token_cost: z.number().nonnegative().nullish().describe('USD per completion token; feeds the cost table'),
  context_length: z.number().int().positive().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
});
export type ProviderModel = z.infer<typeof ProviderModel>;

const AuthStyle = z.enum(['bearer', 'api-key']).describe('bearer: Authorization: Bearer <key> (OpenAI and most); api-key: Azure OpenAI');

export const ProviderRead = z.object({
  id: z.string(),
  name: z.string(),
  base_url: z.string().nullable().describe("null for an instance provider unless the caller is an admin (it names the operator's network)"),
  source: z.enum(['project', 'instance']).describe('instance providers come from the server environment and cannot be edited here'),
  api_key_mask: z.string().nullable().describe('The key is never returned; this shows its first 3 and last 4 characters'),
  auth_style: AuthStyle,
  header_names: z.array(z.string()).describe('Names of the extra headers sent upstream (values are not returned)'),
  models: z.array(
    ProviderModel.extend({
      prompt_token_cost: z.number().nullable(),
      completion_token_cost: z.number().nullable(),
      context_length: z.number().nullable(),
      max_output_tokens: z.number().nullable(),
    }),
  ),
  discovers_models: z.boolean().describe('No model list configured: the models are what the upstream GET /models answers'),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type ProviderRead = z.infer<typeof ProviderRead>;

// GET /weft/providers
export const ProvidersListReq = z.object({ project_id: ProjectId });
export const ProvidersListRes = z.object({ providers: z.array(ProviderRead) });

// POST /weft/providers
export const ProviderCreateReq = z.object({
  project_id: ProjectId,
  name: ProviderName,
  base_url: z.url({ protocol: /^https?$/ }).describe('The OpenAI base URL, e.g. http://localhost:11434/v1 or https://api.openai.com/v1'),
  api_key: z.string().min(1).max(4096).nullish(),
  auth_style: AuthStyle.default('bearer'),
  headers: z.record(z.string().min(1), z.string()).default({}),
  models: z.array(ProviderModel).max(500).default([]),
});
export const ProviderRes = z.object({ provider: ProviderRead });

// PUT /weft/providers/:provider_id
export const ProviderUpdateReq = z.object({
  project_id: ProjectId,
  provider_id: z.string().min(1),
  name: ProviderName.optional(),
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  api_key: z
    .string()
    .min(1)
    .max(4096)
    .nullish()
    .describe(
      'Absent: keep the stored key (refused with 400 when base_url, headers or auth_style change); null: remove it; a string: replace it',
    ),
  auth_style: AuthStyle.optional(),
  headers: z.record(z.string().min(1), z.string()).optional(),
  models: z.array(ProviderModel).max(500).optional(),
});

// DELETE /weft/providers/:provider_id
export const ProviderDeleteReq = z.object({ project_id: ProjectId, provider_id: z.string().min(1) });
export const ProviderDeleteRes = z.object({ deleted: z.boolean() });

// POST /weft/providers/:provider_id/test
export const ProviderTestReq = z.object({ project_id: ProjectId, provider_id: z.string().min(1) });
export const ProviderTestRes = z.object({
  ok: z.boolean(),
  models: z.array(z.string()).describe("What the upstream's GET /models answered"),
  error: z.string().nullable(),
});

// GET /weft/models
export const ModelsListReq = z.object({ project_id: ProjectId });
export const OfferedModel = z.object({
  id: z.string().describe('<provider>/<model>: what /completions/create accepts as inputs.model'),
  provider: z.string(),
  model: z.string(),
  source: z.enum(['project', 'instance']),
  prompt_token_cost: z.number().nullable(),
  completion_token_cost: z.number().nullable(),
  context_length: z.number().nullable(),
  max_output_tokens: z.number().nullable(),
});
export type OfferedModel = z.infer<typeof OfferedModel>;
export const ModelsListRes = z.object({
  models: z.array(OfferedModel),
  configured: z.boolean().describe('Whether any provider is configured for this project'),
  help: z.string().nullable().describe('What to configure, when nothing is'),
  errors: z.array(z.object({ provider: z.string(), message: z.string() })).describe('Providers whose model list could not be read'),
});

// Background jobs
export const JobRead = z.object({
  id: z.string(),
  project_id: z.string(),
  kind: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  progress_done: z.number().int(),
  progress_total: z.number().int().nullable(),
  error: z.string().nullable(),
  result: z.unknown(),
  attempts: z.number().int(),
  cancel_requested: z.boolean(),
  payload: z.record(z.string(), z.unknown()),
  created_by: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type JobRead = z.infer<typeof JobRead>;
export const JobsListReq = z.object({
  project_id: ProjectId,
  kind: z.string().nullish(),
  limit: z.number().int().min(1).max(500).default(50),
});
export const JobsListRes = z.object({ jobs: z.array(JobRead) });
export const JobReq = z.object({ project_id: ProjectId, job_id: z.string().min(1) });
export const JobRes = z.object({ job: JobRead });
