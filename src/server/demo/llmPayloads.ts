/**
 * LLM call payloads as the Weave SDK integrations record them: the request keyword arguments
 * as `inputs` and the provider's response object as `output`, for OpenAI chat completions
 * (`choices[].message`, tool calls as `tool_calls` functions) and Anthropic messages
 * (`content` blocks, `tool_use` / `tool_result`). Token counts are estimated from the text
 * (about four characters a token), so bigger prompts cost more, as they would for real.
 */
import type { Rng } from './seededRandom.js';
import { SYSTEM_PROMPT, type ToolRun } from './demoScenarios.js';

export type Provider = 'openai' | 'anthropic';

/** A tool call the model asked for, with its provider-style id. */
export interface ToolExchange {
  id: string;
  run: ToolRun;
}

/** What the model sees: earlier turns of the conversation, the question, tool results so far. */
export interface LlmRequest {
  provider: Provider;
  model: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  question: string;
  exchanges: ToolExchange[];
}

/** What the model answers: a tool call, or the final text. */
export type LlmReply = { toolCall: ToolExchange } | { text: string };

// A type alias rather than an interface so it fits the contract's open `usage` records.
export type LlmUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  requests: number;
};

const TOOL_SPECS = [
  {
    name: 'search_web',
    description: 'Search the public web',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  {
    name: 'run_sql',
    description: 'Run a read-only SQL query on the analytics database',
    parameters: { type: 'object', properties: { query: { type: 'string' }, database: { type: 'string' } }, required: ['query'] },
  },
];

/** A provider-style id for a tool call. */
export function toolCallId(rng: Rng, provider: Provider): string {
  return provider === 'openai' ? `call_${rng.alnum(24)}` : `toolu_01${rng.alnum(22)}`;
}

/** The request as the SDK call's keyword arguments. */
export function llmInputs(req: LlmRequest): Record<string, unknown> {
  const conversation = [...req.history, { role: 'user', content: req.question }];
  if (req.provider === 'openai') {
    const messages: unknown[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...conversation];
    for (const { id, run } of req.exchanges) {
      messages.push({ role: 'assistant', content: null, tool_calls: [openAiToolCall({ id, run })] });
      messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(run.result) });
    }
    return { model: req.model, messages, temperature: 0.2, tools: TOOL_SPECS.map((f) => ({ type: 'function', function: f })) };
  }
  const messages: unknown[] = [...conversation];
  for (const { id, run } of req.exchanges) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: run.tool, input: run.args }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: JSON.stringify(run.result) }] });
  }
  const tools = TOOL_SPECS.map(({ parameters, ...rest }) => ({ ...rest, input_schema: parameters }));
  return { model: req.model, max_tokens: 1024, system: SYSTEM_PROMPT, messages, tools };
}

/** Token usage for a request and its reply, in `summary.usage` form. */
export function estimateUsage(inputs: Record<string, unknown>, reply: LlmReply): LlmUsage {
  // Tool schemas are sent with every request but are a fixed overhead; count the messages.
  const prompt_tokens = Math.ceil(JSON.stringify(inputs.messages).length / 4) + (inputs.system ? 60 : 0) + 120;
  const replyText = 'text' in reply ? reply.text : JSON.stringify(reply.toolCall.run.args);
  const completion_tokens = Math.ceil(replyText.length / 4) + 4;
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens, requests: 1 };
}

/** The provider's response object. */
export function llmOutput(p: {
  rng: Rng;
  provider: Provider;
  model: string;
  createdMs: number;
  reply: LlmReply;
  usage: LlmUsage;
}): Record<string, unknown> {
  const { rng, reply, usage } = p;
  if (p.provider === 'openai') {
    const message =
      'text' in reply
        ? { role: 'assistant', content: reply.text, refusal: null }
        : { role: 'assistant', content: null, refusal: null, tool_calls: [openAiToolCall(reply.toolCall)] };
    return {
      id: `chatcmpl-${rng.alnum(29)}`,
      object: 'chat.completion',
      created: Math.floor(p.createdMs / 1000),
      model: p.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
      system_fingerprint: `fp_${rng.hex(10)}`,
    };
  }
  const content =
    'text' in reply
      ? [{ type: 'text', text: reply.text }]
      : [{ type: 'tool_use', id: reply.toolCall.id, name: reply.toolCall.run.tool, input: reply.toolCall.run.args }];
  return {
    id: `msg_01${rng.alnum(22)}`,
    type: 'message',
    role: 'assistant',
    model: p.model,
    content,
    stop_reason: 'text' in reply ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  };
}

function openAiToolCall({ id, run }: ToolExchange) {
  return { id, type: 'function', function: { name: run.tool, arguments: JSON.stringify(run.args) } };
}
