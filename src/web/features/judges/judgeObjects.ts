/**
 * The two Weave objects the judge editors save, as the reference writes them, and back:
 *
 * - `LLMStructuredCompletionModel` (builtin_object_classes/llm_structured_model.py, a
 *   `BaseObject`): `llm_model_id` (`<provider>/<model>`) and `default_params`
 *   (`messages_template`, temperature, max_tokens, `response_format` "json" | "text").
 * - `LLMAsAJudgeScorer` (scorers/llm_as_a_judge_scorer.py, a `Scorer`): `model`, a ref to such a
 *   model, and `scoring_prompt`, a template with `{output}` and the scored call's inputs by name
 *   (Weft adds `{inputs}` for all of them).
 *
 * `_class_name`/`_bases` are what the Python SDK stamps, so `weave.ref(...).get()` and the
 * server's evaluate_model and calls/score read them back as those classes. Editing saves a new
 * version under the same object id.
 */

export type Json = Record<string, unknown>;

export interface ModelForm {
  name: string;
  /** `<provider>/<model>`, as /weft/models offers it. */
  llmModelId: string;
  systemPrompt: string;
  /** Further template messages after the system prompt (user turns with `{placeholders}`). */
  userTemplate: string;
  temperature: string;
  maxTokens: string;
  responseFormat: 'json' | 'text';
}

export interface JudgeForm {
  name: string;
  /** A ref to an LLMStructuredCompletionModel version. */
  modelRef: string;
  scoringPrompt: string;
}

export const MODEL_CLASS = 'LLMStructuredCompletionModel';
export const JUDGE_CLASS = 'LLMAsAJudgeScorer';

/** What a judge model is told by default: answer with a JSON score. */
export const DEFAULT_JUDGE_SYSTEM_PROMPT =
  'You are a strict evaluator. Answer only with a JSON object: {"score": <integer 1-5>, "reason": "<one sentence>"}.';

export const DEFAULT_SCORING_PROMPT = 'Rate how helpful this answer is.\n\nInputs: {inputs}\n\nAnswer: {output}';

/** Object ids the server accepts (and the reference dashboard's name rule). */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function nameProblem(name: string): string | null {
  if (!name) return 'Give it a name.';
  if (!NAME_PATTERN.test(name)) return 'Names start with a letter or digit and use only letters, digits, - and _.';
  return null;
}

export const emptyModelForm = (llmModelId = ''): ModelForm => ({
  name: '',
  llmModelId,
  systemPrompt: DEFAULT_JUDGE_SYSTEM_PROMPT,
  userTemplate: '',
  temperature: '0',
  maxTokens: '',
  responseFormat: 'json',
});

const num = (s: string): number | null => (s.trim() === '' || Number.isNaN(Number(s)) ? null : Number(s));

export function toModelValue(form: ModelForm): Json {
  const messages: Json[] = [];
  if (form.systemPrompt.trim()) messages.push({ role: 'system', content: form.systemPrompt });
  if (form.userTemplate.trim()) messages.push({ role: 'user', content: form.userTemplate });
  const maxTokens = num(form.maxTokens);
  return {
    _type: MODEL_CLASS,
    name: form.name,
    description: null,
    llm_model_id: form.llmModelId,
    default_params: {
      messages_template: messages,
      temperature: num(form.temperature),
      max_tokens: maxTokens === null ? null : Math.round(maxTokens),
      response_format: form.responseFormat,
    },
    _class_name: MODEL_CLASS,
    _bases: ['BaseObject', 'BaseModel'],
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function fromModelValue(name: string, val: unknown): ModelForm {
  const v = isObj(val) ? val : {};
  const params = isObj(v.default_params) ? v.default_params : {};
  const template = (Array.isArray(params.messages_template) ? params.messages_template : []).filter(isObj);
  const system = template.find((m) => m.role === 'system');
  const user = template.find((m) => m.role === 'user');
  return {
    name,
    llmModelId: str(v.llm_model_id),
    systemPrompt: str(system?.content),
    userTemplate: str(user?.content),
    temperature: typeof params.temperature === 'number' ? String(params.temperature) : '',
    maxTokens: typeof params.max_tokens === 'number' ? String(params.max_tokens) : '',
    responseFormat: params.response_format === 'text' ? 'text' : 'json',
  };
}

export function toJudgeValue(form: JudgeForm): Json {
  return {
    _type: JUDGE_CLASS,
    name: form.name,
    description: null,
    model: form.modelRef,
    scoring_prompt: form.scoringPrompt,
    _class_name: JUDGE_CLASS,
    _bases: ['Scorer', 'Object', 'BaseModel'],
  };
}

export function fromJudgeValue(name: string, val: unknown): JudgeForm {
  const v = isObj(val) ? val : {};
  return { name, modelRef: str(v.model), scoringPrompt: str(v.scoring_prompt) };
}

/** `weave:///e/p/object/name:digest` → `name`. */
export const refObjectName = (ref: string) => /\/object\/([^/:]+)/.exec(ref)?.[1] ?? ref;

/** A score as a cell shows it: `{score: 4, reason}` → 4; plain values as they are. */
export function scoreText(output: unknown): string {
  if (output === null || output === undefined) return '–';
  if (typeof output === 'number' || typeof output === 'boolean' || typeof output === 'string') return String(output);
  if (isObj(output)) {
    for (const key of ['score', 'value', 'rating', 'passed', 'correct']) {
      const v = output[key];
      if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return String(v);
    }
  }
  const text = JSON.stringify(output);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
