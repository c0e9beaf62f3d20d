/**
 * Where the semantic conventions put inputs, outputs, usage and call metadata: the attribute
 * keys the reference reads (weave/trace_server/opentelemetry/constants.py), in priority
 * order. The first truthy value wins.
 */

/** Prompt / input attributes (GenAI semconv, OpenInference, Vercel AI, MLflow, Traceloop, ...). */
export const INPUT_KEYS = [
  'ai.prompt',
  'gen_ai.prompt',
  'input.value',
  'mlflow.spanInputs',
  'gen_ai.input.messages',
  'pydantic_ai.all_messages',
  'traceloop.entity.input',
  'gcp.vertex.agent.tool_call_args',
  'gcp.vertex.agent.llm_request',
  'events.gen_ai.user.message',
  'input',
  'inputs',
];

/** Completion / output attributes. */
export const OUTPUT_KEYS = [
  'ai.response',
  'gen_ai.completion',
  'output.value',
  'gen_ai.output.messages',
  'mlflow.spanOutputs',
  'final_result',
  'gen_ai.content.completion',
  'traceloop.entity.output',
  'gcp.vertex.agent.tool_response',
  'gcp.vertex.agent.llm_response',
  'events.gen_ai.choice',
  'output',
  'outputs',
];

/** Token counts, by the LLMUsageSchema field they fill. */
export const USAGE_KEYS: Record<'input_tokens' | 'prompt_tokens' | 'completion_tokens' | 'output_tokens' | 'total_tokens', string[]> = {
  input_tokens: ['gen_ai.usage.input_tokens'],
  prompt_tokens: ['gen_ai.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.promptTokens'],
  completion_tokens: ['gen_ai.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.completionTokens'],
  output_tokens: ['gen_ai.usage.output_tokens'],
  total_tokens: ['llm.usage.total_tokens', 'llm.token_count.total'],
};

/** Call attributes Weave shows, by their name in `attributes`. */
export const ATTRIBUTE_KEYS: Record<string, string[]> = {
  system: ['gen_ai.system', 'llm.system', 'gen_ai.system_instructions', 'system_prompt'],
  kind: ['weave.span.kind', 'traceloop.span.kind', 'openinference.span.kind'],
  model: ['gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name', 'ai.model.id'],
  provider: ['llm.provider', 'ai.model.provider'],
  model_parameters: ['gen_ai.request', 'llm.invocation_parameters'],
  agent: ['gen_ai.agent.name'],
  tools: ['gen_ai.agent.tools'],
  operation: ['gen_ai.operation.name'],
};

/** Weave's own span attributes, by the call field they fill. */
export const WANDB_KEYS = {
  display_name: ['wandb.display_name'],
  thread_id: ['gcp.vertex.agent.session_id', 'wandb.thread_id'],
  attributes: ['wandb.attributes'],
  wb_run_id: ['wandb.wb_run_id'],
  wb_run_step: ['wandb.wb_run_step'],
  wb_run_step_end: ['wandb.wb_run_step_end'],
  is_turn: ['gcp.vertex.agent.session_id', 'wandb.is_turn'],
} as const;

/** Langfuse's real start and end times override the span's. */
export const TIME_OVERRIDE_KEYS = { start: 'langfuse.startTime', end: 'langfuse.endTime' } as const;

/** Resource attributes naming the project. */
export const PROJECT_KEYS = { entity: 'wandb.entity', project: 'wandb.project' } as const;
