/**
 * Prompt objects (docs/prompts.md): the reference's `StringPrompt` (`content`) and
 * `MessagesPrompt` (`messages`, `{role, content}` dicts), as the Python and npm SDKs publish them
 * (base class `Prompt`). Their text for display and diffs, and their variables: the `{name}` and
 * `{name:spec}` placeholders the SDKs' `format` fills.
 */

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const PROMPT_BASE_CLASS = 'Prompt';

/** One message of a prompt as shown: its role and its text. */
export interface PromptMessage {
  role: string;
  content: string;
}

/** A message's content as text: a string, or the text parts of a content list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isJson(p) && typeof p.text === 'string' ? p.text : JSON.stringify(p))).join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** The messages of a prompt value (a StringPrompt is one message without a role). */
export function promptMessages(val: unknown): PromptMessage[] {
  if (!isJson(val)) return [];
  if (typeof val.content === 'string') return [{ role: '', content: val.content }];
  if (Array.isArray(val.messages)) {
    return val.messages.filter(isJson).map((m) => ({ role: typeof m.role === 'string' ? m.role : '', content: contentText(m.content) }));
  }
  return [];
}

/** The prompt as one text, for line diffs: messages as `role:` headers over their content. */
export function promptText(val: unknown): string {
  return promptMessages(val)
    .map((m) => (m.role ? `${m.role}:\n${m.content}` : m.content))
    .join('\n\n');
}

const PLACEHOLDER = /\{(\w+)(:[^}]+)?\}/g;

/** The variables a prompt's `format` fills, in order of first use. */
export function promptVariables(val: unknown): string[] {
  const names = new Set<string>();
  for (const m of promptMessages(val)) for (const match of m.content.matchAll(PLACEHOLDER)) names.add(match[1]!);
  return [...names];
}
