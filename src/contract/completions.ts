/**
 * Completions and images through the server's model providers, as the reference serves them
 * (trace_server_interface.py: CompletionsCreateReq/Res, ImageGenerationCreateReq/Res). The
 * provider's payload comes back as `response`; a provider failure is `response.error`, not an
 * HTTP error, as in the reference.
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

const wbUserId = z.string().nullish().describe('Ignored: the server sets the authenticated user');

/** The reference's CompletionsCreateRequestInputs (unknown fields are dropped, as pydantic does). */
export const CompletionsCreateRequestInputs = z.object({
  model: z.string().min(1).describe('<provider>/<model>, custom::<provider>::<model>, or a model name a provider offers'),
  messages: z.array(z.unknown()).default([]),
  timeout: z.union([z.number(), z.string()]).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  n: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.unknown())]).nullish(),
  max_completion_tokens: z.number().int().nullish(),
  max_tokens: z.number().int().nullish(),
  modalities: z.array(z.unknown()).nullish(),
  presence_penalty: z.number().nullish(),
  frequency_penalty: z.number().nullish(),
  stream: z.boolean().nullish(),
  logit_bias: z.record(z.string(), z.unknown()).nullish(),
  user: z.string().nullish(),
  response_format: z.record(z.string(), z.unknown()).nullish(),
  seed: z.number().int().nullish(),
  tools: z.array(z.unknown()).nullish(),
  tool_choice: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  extra_headers: z.record(z.string(), z.string()).nullish(),
  functions: z.array(z.unknown()).nullish(),
  function_call: z.string().nullish(),
  api_version: z.string().nullish(),
  prompt: z.string().nullish().describe('A ref to a Weave MessagesPrompt whose messages go before `messages`'),
  template_vars: z.record(z.string(), z.unknown()).nullish().describe('Values for {name} placeholders in the messages'),
});
export type CompletionsCreateRequestInputs = z.infer<typeof CompletionsCreateRequestInputs>;

// POST /completions/create, POST /completions/create_stream
export const CompletionsCreateReq = z.object({
  project_id: ProjectId,
  inputs: CompletionsCreateRequestInputs,
  wb_user_id: wbUserId,
  track_llm_call: z.boolean().nullish().default(true).describe('Record the completion as a weave.completions_create call'),
});
export type CompletionsCreateReq = z.infer<typeof CompletionsCreateReq>;
export const CompletionsCreateRes = z.object({
  response: z.record(z.string(), z.unknown()),
  weave_call_id: z.string().nullable(),
});
/** One line of the stream: `{"_meta": {"weave_call_id"}}` first when tracked, then the provider's chunks, or `{"error"}`. */
export const CompletionsStreamChunk = z.record(z.string(), z.unknown());

// POST /image/create
export const ImageGenerationCreateReq = z.object({
  project_id: ProjectId,
  inputs: z.object({ model: z.string().min(1), prompt: z.string().min(1), n: z.number().int().min(1).max(10).nullish() }),
  wb_user_id: wbUserId,
  track_llm_call: z.boolean().nullish().default(true),
});
export const ImageGenerationCreateRes = z.object({
  response: z.record(z.string(), z.unknown()),
  weave_call_id: z.string().nullable(),
});
