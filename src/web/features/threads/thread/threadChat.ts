/**
 * A thread as one conversation: for each turn, the messages that turn added. Chat-shaped turns
 * (OpenAI `messages` / Anthropic content blocks, see components/chat/chatModel.ts) usually resend
 * the whole history, so a turn shows only what follows the previous turn's prompt and reply; any
 * other turn reads as one user message (its inputs) and one reply (its output).
 */
import { extractChat, type ChatMessage } from '../../../components/chat/chatModel.js';
import type { Call } from '../../../entities/calls/callFields.js';
import { readableText } from '../threadText.js';

const sameMessage = (a: ChatMessage, b: ChatMessage) =>
  a.role === b.role &&
  a.text === b.text &&
  a.toolCallId === b.toolCallId &&
  a.toolCalls.length === b.toolCalls.length &&
  a.toolCalls.every((tc, i) => tc.name === b.toolCalls[i]?.name);

function message(role: string, text: string, fromOutput: boolean): ChatMessage {
  return { role, name: null, text, toolCalls: [], toolCallId: null, fromOutput };
}

/** Inputs or output as text: the readable part, else pretty JSON; null when empty. */
function sideText(value: unknown, side: 'input' | 'output'): string | null {
  const text = readableText(value, side);
  if (text !== null) return text;
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  return JSON.stringify(value, null, 2);
}

/** The prompt messages a turn adds to the conversation so far. */
function newPromptMessages({ prompt, previous, first }: { prompt: ChatMessage[]; previous: ChatMessage[]; first: boolean }): ChatMessage[] {
  if (first) return prompt;
  const continues = previous.length > 0 && previous.length <= prompt.length && previous.every((m, i) => sameMessage(m, prompt[i]!));
  if (continues) return prompt.slice(previous.length);
  // Not a plain continuation (history trimmed or rewritten): what came after the last reply.
  const lastReply = prompt.findLastIndex((m) => m.role === 'assistant');
  return prompt.slice(lastReply + 1).filter((m) => m.role !== 'system');
}

/** Per turn (same order as `turns`), the messages to show for it. */
export function threadConversation(turns: Pick<Call, 'inputs' | 'output'>[]): ChatMessage[][] {
  let previous: ChatMessage[] = [];
  return turns.map((turn, index) => {
    const chat = extractChat({ inputs: turn.inputs, output: turn.output });
    if (chat) {
      const prompt = chat.filter((m) => !m.fromOutput);
      const reply = chat.filter((m) => m.fromOutput);
      const added = newPromptMessages({ prompt, previous, first: index === 0 });
      previous = [...prompt, ...reply.map((m) => ({ ...m, fromOutput: false }))];
      return [...added, ...reply];
    }
    const asked = sideText(turn.inputs, 'input');
    const told = sideText(turn.output, 'output');
    const messages = [
      ...(asked !== null ? [message('user', asked, false)] : []),
      ...(told !== null ? [message('assistant', told, true)] : []),
    ];
    previous = messages.map((m) => ({ ...m, fromOutput: false }));
    return messages;
  });
}

/** One line for a turn in lists: what the user asked in it, else the first thing it added. */
export function turnPreview(messages: ChatMessage[]): string | null {
  const asked = messages.find((m) => m.role === 'user' && m.text.trim());
  if (asked) return asked.text;
  const first = messages.find((m) => m.role !== 'system' && (m.text.trim() || m.toolCalls.length));
  if (!first) return null;
  return first.text.trim() ? `${first.role}: ${first.text}` : `${first.role}: → ${first.toolCalls.map((tc) => tc.name).join(', ')}`;
}
