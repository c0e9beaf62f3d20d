/**
 * Finds a conversation in a call: OpenAI-style `messages` in the inputs ({role, content,
 * tool_calls, tool_call_id}) and the reply in the output (`choices[].message`, a `message`, or a
 * message itself). Content may be a string or a list of parts (`{type:'text', text}`, Anthropic
 * `tool_use` / `tool_result` blocks).
 */

import { mediaOf, replyAudio, type MediaItem } from '../media/mediaModel.js';

/** A tool invocation requested by the assistant. */
export interface ToolCall {
  id: string | null;
  name: string;
  arguments: unknown;
}

/** One message of the conversation, normalised. */
export interface ChatMessage {
  role: string;
  name: string | null;
  text: string;
  toolCalls: ToolCall[];
  /** For tool results: the call they answer. */
  toolCallId: string | null;
  /** True for messages taken from the output (the reply). */
  fromOutput: boolean;
  /** Images, audio and PDFs among its content parts (docs/media.md). */
  media?: MediaItem[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** `arguments` arrive as JSON text (OpenAI) or as objects (Anthropic `input`). */
function parseArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function partsToText(content: unknown, toolCalls: ToolCall[], media: MediaItem[] = [], path = 'content'): string {
  if (typeof content === 'string') {
    const item = mediaOf(content, path);
    if (item) media.push(item);
    return item ? '' : content;
  }
  if (!Array.isArray(content)) return content === null || content === undefined ? '' : JSON.stringify(content);
  const out: string[] = [];
  for (const [i, part] of content.entries()) {
    const item = mediaOf(part, `${path}.${i}`);
    if (item) media.push(item);
    else if (typeof part === 'string') out.push(part);
    else if (isObj(part)) {
      if (typeof part.text === 'string') out.push(part.text);
      else if (part.type === 'tool_use') toolCalls.push({ id: str(part.id), name: str(part.name) ?? 'tool', arguments: part.input });
      else if (part.type === 'tool_result') out.push(partsToText(part.content, toolCalls, media, `${path}.${i}.content`));
      else if (part.type === 'image_url' || part.type === 'image') out.push('[image]');
      else out.push(JSON.stringify(part));
    }
  }
  return out.join('\n');
}

function toMessage(m: unknown, fromOutput: boolean): ChatMessage | null {
  if (!isObj(m) || typeof m.role !== 'string') return null;
  const toolCalls: ToolCall[] = [];
  if (Array.isArray(m.tool_calls)) {
    for (const tc of m.tool_calls) {
      if (!isObj(tc)) continue;
      const fn = isObj(tc.function) ? tc.function : tc;
      toolCalls.push({ id: str(tc.id), name: str(fn.name) ?? 'tool', arguments: parseArgs(fn.arguments) });
    }
  }
  if (isObj(m.function_call))
    toolCalls.push({ id: null, name: str(m.function_call.name) ?? 'function', arguments: parseArgs(m.function_call.arguments) });
  const media: MediaItem[] = [];
  const text = partsToText(m.content, toolCalls, media);
  const audio = replyAudio(m, 'audio');
  if (audio) media.push(audio);
  const message: ChatMessage = { role: m.role, name: str(m.name), text, toolCalls, toolCallId: str(m.tool_call_id), fromOutput };
  if (media.length) message.media = media;
  return message;
}

function outputMessages(output: unknown): ChatMessage[] {
  if (!isObj(output)) return [];
  if (Array.isArray(output.choices)) {
    return output.choices.flatMap((c) =>
      isObj(c) ? [toMessage(c.message ?? c.delta, true)].filter((m): m is ChatMessage => m !== null) : [],
    );
  }
  if (isObj(output.message)) return [toMessage(output.message, true)].filter((m): m is ChatMessage => m !== null);
  if (Array.isArray(output.messages)) return output.messages.map((m) => toMessage(m, true)).filter((m): m is ChatMessage => m !== null);
  const self = toMessage(output, true);
  return self ? [self] : [];
}

/** The conversation in a call, or null when it has none. */
export function extractChat({ inputs, output }: { inputs: unknown; output: unknown }): ChatMessage[] | null {
  const source = isObj(inputs) ? inputs.messages : undefined;
  const prompt = Array.isArray(source) ? source.map((m) => toMessage(m, false)) : [];
  if (prompt.some((m) => m === null)) return null;
  const reply = outputMessages(output);
  // `def chat(messages) -> str`: a prompt of messages answered with plain text is a reply too.
  if (reply.length === 0 && prompt.length > 0 && typeof output === 'string' && output !== '') {
    reply.push({ role: 'assistant', name: null, text: output, toolCalls: [], toolCallId: null, fromOutput: true });
  }
  const messages = [...(prompt as ChatMessage[]), ...reply];
  return messages.length ? messages : null;
}
