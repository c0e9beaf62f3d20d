/** How a call field reads best: as a conversation (a message list, or a chat reply), as a short record, or as JSON. */
import { extractChat, type ChatMessage } from '../../../components/chat/chatModel.js';

/** The conversation a field holds: a message list, or a reply (`choices`, `message`), or null. */
export function chatOf(value: unknown): ChatMessage[] | null {
  if (Array.isArray(value)) return value.length > 0 ? extractChat({ inputs: { messages: value }, output: null }) : null;
  if (typeof value !== 'object' || value === null) return null;
  const inputs = value as { messages?: unknown };
  // A whole `inputs` with messages: the conversation so far.
  if (Array.isArray(inputs.messages)) return extractChat({ inputs: value, output: null });
  return extractChat({ inputs: {}, output: value });
}

/** A small object of plain values (`{question: "…"}`, `{answer: "…", score: 3}`): shown as labelled text. */
export function isFlatRecord(value: unknown): value is Record<string, string | number | boolean | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.values(value);
  return (
    entries.length > 0 && entries.length <= 12 && entries.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
  );
}
