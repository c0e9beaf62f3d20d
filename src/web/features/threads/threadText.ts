/**
 * The words people typed and read in a turn, found in its inputs or output: a chat's last user
 * message or reply, else a well-known text field (`question`, `answer`, ...), else a plain string.
 * Used for the list's previews (which arrive as JSON cut to 300 characters) and the turn list.
 */
import { extractChat } from '../../components/chat/chatModel.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields that usually hold what a person asked or was told, in the order they are tried. */
const TEXT_FIELDS = [
  'question',
  'query',
  'input',
  'prompt',
  'message',
  'user_message',
  'text',
  'content',
  'answer',
  'response',
  'output',
  'result',
  'completion',
];

/** The readable text in one side of a turn, or null when there is none to find. */
export function readableText(value: unknown, side: 'input' | 'output'): string | null {
  if (typeof value === 'string') return value;
  if (!isObj(value)) return null;
  const chat = side === 'input' ? extractChat({ inputs: value, output: null }) : extractChat({ inputs: null, output: value });
  if (chat) {
    const wanted = side === 'input' ? chat.filter((m) => m.role === 'user') : chat;
    const text = wanted.at(-1)?.text;
    if (text) return text;
  }
  for (const key of TEXT_FIELDS) {
    const v = value[key];
    if (typeof v === 'string' && v.trim()) return v;
    if (isObj(v)) {
      const inner = readableText(v, side);
      if (inner) return inner;
    }
  }
  // A single string argument (`def chat(msg: str)`) reads as itself, whatever its name.
  const strings = Object.values(value).filter((v): v is string => typeof v === 'string');
  return strings.length === 1 ? strings[0]! : null;
}

const TRUNCATED_FIELD = new RegExp(`"(?:${TEXT_FIELDS.join('|')})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`);

/** Undoes JSON string escapes in a possibly cut-off string body. */
function unescapeJson(body: string): string {
  try {
    return JSON.parse(`"${body.replace(/\\u[0-9a-fA-F]{0,3}$|\\$/, '')}"`) as string;
  } catch {
    return body;
  }
}

/**
 * The preview the threads endpoint sends (JSON, cut to 300 characters) as text to show: the
 * readable part when there is one, else the JSON itself.
 */
export function previewText(preview: string | null, side: 'input' | 'output'): string | null {
  if (preview === null || preview === '') return null;
  try {
    const value: unknown = JSON.parse(preview);
    if (value === null) return null;
    return readableText(value, side) ?? preview;
  } catch {
    // Cut mid-value: pick the first well-known field out of the text.
    const m = TRUNCATED_FIELD.exec(preview);
    return m ? `${unescapeJson(m[1]!)}…` : preview;
  }
}
