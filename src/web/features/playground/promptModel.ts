/** The playground's editable prompt: messages and parameters, and how a logged LLM call prefills them. */
import { parseRef } from '../../lib/refs.js';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PromptParams {
  temperature: number | null;
  max_tokens: number | null;
  top_p: number | null;
  json: boolean;
}

export const DEFAULT_PARAMS: PromptParams = { temperature: null, max_tokens: null, top_p: null, json: false };
export const DEFAULT_MESSAGES: PromptMessage[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: '' },
];

const text = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? p.text : '')).join('');
  return content == null ? '' : JSON.stringify(content);
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Messages and parameters of an LLM call's inputs (OpenAI-style `messages`), or null when it has none. */
export function promptFromInputs(
  inputs: Record<string, unknown> | null | undefined,
): { messages: PromptMessage[]; params: PromptParams; model: string | null } | null {
  const raw = inputs?.messages;
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const messages = raw
    .filter((m): m is Record<string, unknown> => !!m && typeof m === 'object')
    .map((m) => ({
      role: (['system', 'user', 'assistant'].includes(String(m.role)) ? m.role : 'user') as PromptMessage['role'],
      content: text(m.content),
    }));
  const format = inputs?.response_format as { type?: unknown } | undefined;
  return {
    messages,
    params: {
      temperature: num(inputs?.temperature),
      max_tokens: num(inputs?.max_tokens) ?? num(inputs?.max_completion_tokens),
      top_p: num(inputs?.top_p),
      json: format?.type === 'json_object',
    },
    model: typeof inputs?.model === 'string' ? inputs.model : null,
  };
}

/**
 * The prompt version a completion named by ref (the reference's `inputs.prompt`, as the
 * playground's runs of an unedited prompt send it), with the `template_vars` it was filled with.
 */
export function promptRefOfInputs(
  inputs: Record<string, unknown> | null | undefined,
): { name: string; digest: string; values: Record<string, string> } | null {
  const ref = typeof inputs?.prompt === 'string' ? parseRef(inputs.prompt) : null;
  if (!ref || ref.kind !== 'object' || ref.extra.length > 0) return null;
  const vars = inputs?.template_vars;
  const values =
    vars && typeof vars === 'object' && !Array.isArray(vars)
      ? Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      : {};
  return { name: ref.name, digest: ref.digest, values };
}

/** Whether a call's inputs can open in the playground: messages, or a prompt named by ref. */
export const isLlmCall = (inputs: Record<string, unknown> | null | undefined): boolean =>
  promptFromInputs(inputs) !== null || promptRefOfInputs(inputs) !== null;

/** The completion inputs for one model. */
export function completionInputs(model: string, messages: PromptMessage[], params: PromptParams) {
  return {
    model,
    messages: messages.filter((m) => m.content.trim() !== '' || m.role === 'assistant'),
    ...(params.temperature !== null ? { temperature: params.temperature } : {}),
    ...(params.max_tokens !== null ? { max_tokens: params.max_tokens } : {}),
    ...(params.top_p !== null ? { top_p: params.top_p } : {}),
    ...(params.json ? { response_format: { type: 'json_object' } } : {}),
  };
}

/** The assistant text of a completion response. */
export function responseText(response: Record<string, unknown>): string {
  const choices = response.choices as { message?: { content?: unknown } }[] | undefined;
  return text(choices?.[0]?.message?.content);
}
