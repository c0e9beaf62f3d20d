/**
 * The Weave objects server-side LLM work runs from, read from stored object versions:
 *
 * - `LLMStructuredCompletionModel` (builtin_object_classes/llm_structured_model.py):
 *   `llm_model_id` (`<provider>/<model>` or a provider-model ref) and `default_params`
 *   (`messages_template`, temperature, top_p, max_tokens, presence/frequency penalty, stop,
 *   `response_format` "json" | "text"). Older versions keep `messages_template` at the top level;
 *   both are read.
 * - `LLMAsAJudgeScorer` (scorers/llm_as_a_judge_scorer.py): `model` (an
 *   LLMStructuredCompletionModel, inline or a ref) and `scoring_prompt`, a template with
 *   `{output}` and the row's fields (or `scoring_prompt_ref`, a MessagesPrompt ref).
 * - `Evaluation`: `dataset` (a Dataset ref whose `rows` is a table ref), `scorers`, `trials`.
 */
import { BadRequestError } from '../../errors.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { checkScorerCount, checkTrials, uniqueRefs } from '../evaluations/jobBounds.js';
import type { Store } from '../../store/Store.js';
import { readRefs } from '../objects/refsRead.js';
import { isRefString, parseRef } from '../objects/refs.js';

type Obj = Record<string, unknown>;

export interface StructuredModel {
  ref: string | null;
  llmModelId: string;
  messagesTemplate: Obj[];
  params: Obj;
  responseFormat: 'json' | 'text' | null;
}

export interface JudgeScorer {
  /** Null for a judge tried before it is saved. */
  ref: string | null;
  /** The scorer's name: the object id of its ref (feedback is `wandb.runnable.<name>`). */
  name: string;
  model: StructuredModel;
  scoringPrompt: string | null;
  promptMessages: Obj[] | null;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const classOf = (v: Obj): string[] =>
  [v._class_name, ...(Array.isArray(v._bases) ? v._bases : [])].filter((c): c is string => typeof c === 'string');

/** The value a ref names in the project; 400 when it is not a live object of the project. */
export async function readObjectRef(store: Store, projectId: string, ref: string, field: string): Promise<Obj> {
  let parsed;
  try {
    parsed = parseRef(ref);
  } catch {
    throw new BadRequestError(`${field} is not a weave:/// ref: ${ref}`);
  }
  if (parsed.kind !== 'object') throw new BadRequestError(`${field} must be an object ref, not a ${parsed.kind} ref`);
  if (parsed.projectId !== projectId) throw new BadRequestError(`${field} must name an object of project ${projectId}`);
  let value: unknown;
  try {
    [value] = await readRefs(store, [ref]);
  } catch (err) {
    throw new BadRequestError(`${field} ${ref} cannot be read: ${(err as Error).message}`);
  }
  if (!isObj(value)) throw new BadRequestError(`${field} ${ref} is deleted or not an object`);
  return value;
}

async function resolveNested(store: Store, projectId: string, value: unknown, field: string): Promise<unknown> {
  return isRefString(value) ? readObjectRef(store, projectId, value, field) : value;
}

const PARAM_KEYS = ['temperature', 'top_p', 'max_tokens', 'presence_penalty', 'frequency_penalty', 'stop', 'n', 'functions'];

export function toStructuredModel(value: Obj, ref: string | null): StructuredModel {
  if (!classOf(value).includes('LLMStructuredCompletionModel')) {
    throw new BadRequestError(
      `${ref ?? 'The model'} is a ${String(value._class_name ?? 'plain object')}, not an LLMStructuredCompletionModel: evaluate_model runs LLM models only`,
    );
  }
  const llmModelId = value.llm_model_id;
  if (typeof llmModelId !== 'string' || !llmModelId) throw new BadRequestError(`${ref ?? 'The model'} has no llm_model_id`);
  const defaults = isObj(value.default_params) ? value.default_params : {};
  const template = Array.isArray(defaults.messages_template) ? defaults.messages_template : value.messages_template;
  const params: Obj = {};
  for (const key of PARAM_KEYS) if (defaults[key] !== null && defaults[key] !== undefined) params[key] = defaults[key];
  const format = defaults.response_format;
  return {
    ref,
    llmModelId,
    messagesTemplate: Array.isArray(template) ? template.filter(isObj) : [],
    params,
    responseFormat: format === 'json' || format === 'json_object' ? 'json' : format === 'text' ? 'text' : null,
  };
}

export async function loadStructuredModel(store: Store, projectId: string, ref: string): Promise<StructuredModel> {
  return toStructuredModel(await readObjectRef(store, projectId, ref, 'model_ref'), ref);
}

export async function loadJudge(store: Store, projectId: string, ref: string): Promise<JudgeScorer & { ref: string }> {
  const value = await readObjectRef(store, projectId, ref, 'scorer_ref');
  const parsed = parseRef(ref);
  const judge = await judgeFromValue(store, projectId, value, { ref, name: parsed.kind === 'object' ? parsed.name : 'scorer' });
  return { ...judge, ref };
}

/** A judge from its object value: a saved version's, or one being edited and not saved yet (ref null). */
export async function judgeFromValue(
  store: Store,
  projectId: string,
  value: Obj,
  { ref, name }: { ref: string | null; name: string },
): Promise<JudgeScorer> {
  if (!classOf(value).includes('LLMAsAJudgeScorer')) {
    throw new BadRequestError(
      `${ref ?? name} is a ${String(value._class_name ?? 'plain object')}, not an LLMAsAJudgeScorer: only LLM judges run on the server`,
    );
  }
  const modelValue = await resolveNested(store, projectId, value.model, 'the scorer model');
  if (!isObj(modelValue)) throw new BadRequestError(`${ref ?? name} has no model`);
  const model = toStructuredModel(modelValue, isRefString(value.model) ? value.model : null);
  let promptMessages: Obj[] | null = null;
  if (isRefString(value.scoring_prompt_ref)) {
    const prompt = await readObjectRef(store, projectId, value.scoring_prompt_ref, 'scoring_prompt_ref');
    promptMessages = Array.isArray(prompt.messages) ? prompt.messages.filter(isObj) : null;
  }
  const scoringPrompt = typeof value.scoring_prompt === 'string' ? value.scoring_prompt : null;
  if (!scoringPrompt && !promptMessages) throw new BadRequestError(`${ref ?? name} has neither scoring_prompt nor scoring_prompt_ref`);
  return { ref, name, model, scoringPrompt, promptMessages };
}

export interface LoadedEvaluation {
  ref: string;
  value: Obj;
  tableRef: string;
  tableDigest: string;
  scorers: JudgeScorer[];
  trials: number;
}

/**
 * Reads an Evaluation for evaluate_model. A scorer listed twice is loaded (and run) once, and the
 * scorer list and `trials` are held to the job limits before anything else is read.
 */
export async function loadEvaluation(
  store: Store,
  projectId: string,
  ref: string,
  limits: Limits = DEFAULT_LIMITS,
): Promise<LoadedEvaluation> {
  const value = await readObjectRef(store, projectId, ref, 'evaluation_ref');
  if (!classOf(value).includes('Evaluation')) throw new BadRequestError(`${ref} is not an Evaluation`);
  if (!isRefString(value.dataset)) throw new BadRequestError(`${ref} has no dataset ref`);
  const dataset = await readObjectRef(store, projectId, value.dataset, 'the evaluation dataset');
  if (!isRefString(dataset.rows)) throw new BadRequestError(`The dataset of ${ref} has no rows table`);
  const table = parseRef(dataset.rows);
  if (table.kind !== 'table') throw new BadRequestError(`The dataset of ${ref} has no rows table`);
  const scorerRefs = uniqueRefs(Array.isArray(value.scorers) ? (value.scorers as unknown[]) : []);
  checkScorerCount(scorerRefs.length, limits);
  const trials = Number.isInteger(value.trials) && (value.trials as number) > 0 ? (value.trials as number) : 1;
  checkTrials(trials, limits);
  const scorers: JudgeScorer[] = [];
  for (const s of scorerRefs) {
    if (!isRefString(s)) throw new BadRequestError(`${ref} has a scorer that is not a ref; evaluate_model runs LLMAsAJudgeScorer objects`);
    scorers.push(await loadJudge(store, projectId, s));
  }
  return { ref, value, tableRef: dataset.rows, tableDigest: table.digest, scorers, trials };
}
