/**
 * Prompt objects in and out of the playground (docs/prompts.md "In the playground"): a stored
 * `StringPrompt`, `MessagesPrompt` or `EasyPrompt` opened as editable messages, its `{name}`
 * variables filled for a run, and the edited messages written back as the value the SDKs
 * publish for that class, so `weave.ref(uri).get()` reads it and equal prompts share a digest.
 */
import { promptVariables } from '../prompts/promptModel.js';
import { DEFAULT_PARAMS, type PromptMessage, type PromptParams } from './promptModel.js';

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The base classes both SDKs stamp on a direct subclass of `Prompt`. */
export const PROMPT_BASES = ['Prompt', 'Object', 'BaseModel'];

const ROLES: readonly string[] = ['system', 'user', 'assistant'];
const asRole = (role: unknown): PromptMessage['role'] => (ROLES.includes(String(role)) ? (role as PromptMessage['role']) : 'user');

/** A message's content as text: a string, or the text parts of a content list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isJson(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return content == null ? '' : JSON.stringify(content);
}

/** The stored message list of a prompt value: `messages`, or an `EasyPrompt`'s `data`. */
function storedMessages(val: Json): Json[] | null {
  if (Array.isArray(val.messages)) return val.messages.filter(isJson);
  if (Array.isArray(val.data)) return val.data.filter(isJson);
  return null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** What the playground edits for a stored prompt, or null when the value is not a prompt it can edit. */
export function playgroundFromPrompt(val: unknown): { messages: PromptMessage[]; params: PromptParams; model: string | null } | null {
  if (!isJson(val)) return null;
  // An EasyPrompt keeps completion settings (model, temperature, …) in `config`.
  const config = isJson(val.config) ? val.config : {};
  const params: PromptParams = {
    ...DEFAULT_PARAMS,
    temperature: num(config.temperature),
    max_tokens: num(config.max_tokens),
    top_p: num(config.top_p),
  };
  const model = typeof config.model === 'string' ? config.model : null;
  if (typeof val.content === 'string') return { messages: [{ role: 'user', content: val.content }], params, model };
  const stored = storedMessages(val);
  if (!stored) return null;
  return { messages: stored.map((m) => ({ role: asRole(m.role), content: contentText(m.content) })), params, model };
}

/** The variables of the messages being edited, in order of first use. */
export const messageVariables = (messages: PromptMessage[]): string[] => promptVariables({ messages });

const PLACEHOLDER = /\{(\w+)(:[^}]+)?\}/g;

/**
 * The messages with their variables filled, as the npm SDK's `format` does: a `{name}` or
 * `{name:spec}` with a value becomes the value (the spec is not applied), others stay as written.
 */
export function fillVariables(messages: PromptMessage[], values: Record<string, string>): PromptMessage[] {
  return messages.map((m) => ({
    ...m,
    content: m.content.replace(PLACEHOLDER, (match, name: string) =>
      values[name] !== undefined && values[name] !== '' ? values[name] : match,
    ),
  }));
}

/** A fresh prompt's value, as the Python SDK's `weave.publish(weave.MessagesPrompt(...), name)` writes it. */
function newMessagesPrompt(name: string, messages: PromptMessage[]): Json {
  return {
    _type: 'MessagesPrompt',
    _class_name: 'MessagesPrompt',
    _bases: PROMPT_BASES,
    name,
    description: null,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  };
}

/**
 * The stored messages after an edit: each message the edit left as it was (same role, same text)
 * is kept whole (content lists and extra keys included); changed ones take the new role and text.
 */
function editedMessages(stored: Json[], messages: PromptMessage[]): Json[] {
  return messages.map((m, i) => {
    const before = stored[i];
    if (!before) return { role: m.role, content: m.content };
    if (asRole(before.role) === m.role && contentText(before.content) === m.content) return before;
    return { ...before, role: m.role, content: m.content };
  });
}

/**
 * The value of a new version of `previous` holding `messages`: the class and every field the
 * edit does not touch kept as stored. A `StringPrompt` holds one text, so more messages (or a
 * role other than user) make the new version a `MessagesPrompt`. With no previous value (a new
 * prompt), a `MessagesPrompt` named `name`.
 */
export function promptValueFromPlayground({
  previous,
  name,
  messages,
}: {
  previous: unknown;
  name: string;
  messages: PromptMessage[];
}): Json {
  if (!isJson(previous)) return newMessagesPrompt(name, messages);
  if (typeof previous.content === 'string') {
    const only = messages.length === 1 && messages[0]!.role === 'user' ? messages[0]! : null;
    if (only) return { ...previous, content: only.content };
    const { content: _content, ...rest } = previous;
    return {
      ...rest,
      _type: 'MessagesPrompt',
      _class_name: 'MessagesPrompt',
      _bases: PROMPT_BASES,
      messages: editedMessages([], messages),
    };
  }
  if (Array.isArray(previous.data) && !Array.isArray(previous.messages)) {
    return { ...previous, data: editedMessages(storedMessages(previous) ?? [], messages) };
  }
  if (Array.isArray(previous.messages)) return { ...previous, messages: editedMessages(storedMessages(previous) ?? [], messages) };
  return newMessagesPrompt(name, messages);
}

/**
 * The value saved as a new prompt `name` from an opened one: the same value with its `name`
 * field renamed (the SDKs publish an object under its name).
 */
export function renamedPromptValue(value: Json, name: string): Json {
  return { ...value, name };
}

const SPEC_PLACEHOLDER = /\{\w+:[^}]+\}/;

/**
 * A run of an unedited `MessagesPrompt` names the version instead of sending its messages: the
 * reference's `inputs.prompt` and `template_vars`, which the server resolves and fills, and
 * which the tracked call keeps, so the run lists under "Calls using this version". Null when
 * the messages were edited, the prompt keeps no `messages`, or a placeholder has a format spec
 * (the server fills `{name}` only).
 */
export function runByRef(
  opened: { val: unknown; ref: string } | null,
  messages: PromptMessage[],
  values: Record<string, string>,
): { prompt: string; template_vars: Record<string, string> } | null {
  if (!opened || !isJson(opened.val) || !Array.isArray(opened.val.messages)) return null;
  const stored = playgroundFromPrompt(opened.val)?.messages ?? [];
  const same =
    stored.length === messages.length && stored.every((m, i) => m.role === messages[i]!.role && m.content === messages[i]!.content);
  if (!same || messages.some((m) => SPEC_PLACEHOLDER.test(m.content))) return null;
  return { prompt: opened.ref, template_vars: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')) };
}
