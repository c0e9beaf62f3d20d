/**
 * Running LLM models and judges on the server, writing the calls an SDK would write:
 *
 *   LLMStructuredCompletionModel.predict   inputs {self: <model ref>, ...template vars}
 *   └ weave.completions_create             the chat completion, with usage
 *   LLMAsAJudgeScorer.score                inputs {self: <scorer ref>, output, ...row}
 *   └ LLMStructuredCompletionModel.predict  the judge's model, on the filled scoring prompt
 *     └ weave.completions_create
 *
 * Each call is written when it starts and when it ends (so progress shows while it runs), and a
 * parent's `summary.usage` sums its children's, as the SDKs roll usage up. Decision: the
 * completion is recorded as a child call (the reference's worker calls the completion without
 * tracking); this shows the exact prompt, tokens and cost of every model and judge step.
 *
 * Predict output: the completion text, parsed as JSON when `response_format` is json (the text
 * itself when it does not parse). Rate-limited completions are retried after Retry-After (at
 * most 3 times, at most 30 s each).
 */
import type { Clock } from '../../core/clock.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import { toEndWrite, toStartWrite } from '../calls/calls.js';
import { fillTemplate } from './completions.js';
import { formatMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import { chatThroughProvider, completionText, COMPLETIONS_CREATE_OP, type ChatOutcome } from './llmCalls.js';
import type { JudgeScorer, StructuredModel } from './llmObjects.js';
import { PLACEHOLDER_SOURCE } from '../objects/v2ObjectValues.js';
import { WritePlan } from '../calls/writePlan.js';

export type UsageMap = Record<string, Record<string, number>>;

/** Adds usage maps (per model, per numeric field) into `into`. */
export function addUsage(into: UsageMap, more: UsageMap | undefined): UsageMap {
  for (const [model, usage] of Object.entries(more ?? {})) {
    const target = (into[model] ??= {});
    for (const [k, v] of Object.entries(usage)) if (typeof v === 'number') target[k] = (target[k] ?? 0) + v;
  }
  return into;
}

export const PREDICT_OP = 'LLMStructuredCompletionModel.predict';
export const JUDGE_SCORE_OP = 'LLMAsAJudgeScorer.score';

/** What running models on the server needs: where calls go, the providers, and the services clock. */
export interface ModelRunDeps {
  store: Store;
  registry: ProviderRegistry;
  clock: Clock;
}

/** Writes calls of one project as they start and end, each stamped by the clock when it happens. */
export class CallWriter {
  readonly store: Store;
  readonly clock: Clock;

  constructor(
    deps: { store: Store; clock: Clock },
    readonly projectId: string,
    readonly userId: string,
    /** Attributes every call this writer starts carries (scoring marks its calls so monitors skip them). */
    readonly baseAttributes: Record<string, unknown> = {},
  ) {
    this.store = deps.store;
    this.clock = deps.clock;
  }

  async start(call: {
    id?: string;
    traceId: string;
    parentId: string | null;
    opName: string;
    inputs: Record<string, unknown>;
    attributes?: Record<string, unknown>;
  }) {
    const id = call.id ?? uuidv7();
    await this.store.calls.writeCalls([
      toStartWrite(
        {
          project_id: this.projectId,
          id,
          trace_id: call.traceId,
          parent_id: call.parentId,
          op_name: call.opName,
          started_at: formatMicros(this.clock.nowMicros()),
          attributes: { ...this.baseAttributes, ...call.attributes },
          inputs: call.inputs,
        },
        this.userId,
      ),
    ]);
    return id;
  }

  async end(call: { id: string; output: unknown; usage?: UsageMap; exception?: string | null }) {
    const summary = call.usage && Object.keys(call.usage).length ? { usage: call.usage } : {};
    await this.store.calls.writeCalls([
      toEndWrite({
        project_id: this.projectId,
        id: call.id,
        ended_at: formatMicros(this.clock.nowMicros()),
        output: call.output,
        summary,
        exception: call.exception ?? null,
      }),
    ]);
  }
}

/** The op refs the server-run calls use (stored once per project, like the SDKs' ops). */
export async function ensureOps(
  deps: { store: Store; clock: Clock },
  projectId: string,
  userId: string,
  names: (keyof typeof OP_SOURCES)[],
): Promise<Record<string, string>> {
  const plan = new WritePlan({ projectId, userId, now: deps.clock.nowMicros() });
  const refs: Record<string, string> = {};
  for (const name of names) refs[name] = plan.op(name, OP_SOURCES[name]);
  await plan.apply(deps.store);
  return refs;
}

export const OP_SOURCES = {
  'Evaluation.evaluate': PLACEHOLDER_SOURCE.evaluate,
  'Evaluation.predict_and_score': PLACEHOLDER_SOURCE.predictAndScore,
  'Evaluation.summarize': PLACEHOLDER_SOURCE.summarize,
  [PREDICT_OP]: PLACEHOLDER_SOURCE.predict,
  [JUDGE_SCORE_OP]: PLACEHOLDER_SOURCE.score,
};

export interface RunContext {
  writer: CallWriter;
  registry: ProviderRegistry;
  ops: Record<string, string>;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** One chat completion with rate-limit retries. */
async function chatWithRetries(ctx: RunContext, inputs: Record<string, unknown>): Promise<ChatOutcome> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await chatThroughProvider(ctx.registry, { projectId: ctx.writer.projectId, inputs, signal: ctx.signal });
    if (!outcome.rateLimited || attempt >= 3 || ctx.signal?.aborted) return outcome;
    await sleep(Math.min(30, outcome.retryAfter ?? 2 ** attempt) * 1000, ctx.signal);
  }
}

export interface StepResult {
  callId: string;
  output: unknown;
  usage: UsageMap;
  error: string | null;
  latencySeconds: number;
}

const asMessages = (userInput: unknown): Record<string, unknown>[] => {
  if (userInput === undefined || userInput === null) return [];
  if (typeof userInput === 'string') return [{ role: 'user', content: userInput }];
  if (Array.isArray(userInput)) return userInput.filter((m) => m && typeof m === 'object') as Record<string, unknown>[];
  return [{ role: 'user', content: JSON.stringify(userInput) }];
};

/**
 * `LLMStructuredCompletionModel.predict(user_input, **template_vars)`: the template with
 * placeholders filled from `vars`, then `user_input`; with neither, the vars as a JSON user message.
 */
export async function runPredict(
  ctx: RunContext,
  req: {
    model: StructuredModel;
    traceId: string;
    parentId: string | null;
    vars: Record<string, unknown>;
    userInput?: unknown;
    attributes?: Record<string, unknown>;
  },
): Promise<StepResult> {
  const { model } = req;
  const t0 = Date.now();
  const callInputs: Record<string, unknown> = { self: model.ref ?? model.llmModelId, ...req.vars };
  if (req.userInput !== undefined) callInputs.user_input = req.userInput;
  const id = await ctx.writer.start({
    traceId: req.traceId,
    parentId: req.parentId,
    opName: ctx.ops[PREDICT_OP]!,
    inputs: callInputs,
    attributes: req.attributes,
  });
  let messages: Record<string, unknown>[] = [
    ...model.messagesTemplate.map((m) => (typeof m.content === 'string' ? { ...m, content: fillTemplate(m.content, req.vars) } : m)),
    ...asMessages(req.userInput),
  ];
  if (!messages.length) messages = [{ role: 'user', content: JSON.stringify(req.vars) }];
  const inputs: Record<string, unknown> = { model: model.llmModelId, messages, ...model.params };
  if (model.responseFormat === 'json') inputs.response_format = { type: 'json_object' };

  const completionId = await ctx.writer.start({ traceId: req.traceId, parentId: id, opName: COMPLETIONS_CREATE_OP, inputs });
  const outcome = await chatWithRetries(ctx, inputs);
  const usage: UsageMap = {};
  if (outcome.response.usage && typeof outcome.response.usage === 'object')
    usage[outcome.model] = outcome.response.usage as Record<string, number>;
  await ctx.writer.end({ id: completionId, output: outcome.response, usage, exception: outcome.error });

  let output: unknown = null;
  if (!outcome.error) {
    const text = completionText(outcome.response);
    output = text;
    if (model.responseFormat === 'json') {
      try {
        output = JSON.parse(text);
      } catch {
        // Not JSON after all: keep the text, as the judge said it.
      }
    }
  }
  await ctx.writer.end({ id, output, usage, exception: outcome.error });
  return { callId: id, output, usage, error: outcome.error, latencySeconds: (Date.now() - t0) / 1000 };
}

/** Stringifies a value for a prompt: text as is, anything else as JSON. */
const promptValue = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `LLMAsAJudgeScorer.score(output, **row)`: the scoring prompt filled with the output and the row, sent to the judge's model. */
export async function runJudge(
  ctx: RunContext,
  req: {
    judge: JudgeScorer;
    traceId: string;
    parentId: string | null;
    output: unknown;
    row: Record<string, unknown>;
    attributes?: Record<string, unknown>;
  },
): Promise<StepResult> {
  const t0 = Date.now();
  const vars: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.row)) vars[k] = promptValue(v);
  // Beyond the reference (which formats the prompt with `output` and the row's own fields only):
  // `{inputs}` — and `{input}`, the name the reference dashboard's hint uses — stand for all of
  // the row (a call's inputs, a dataset row) as JSON, unless the row has a field of that name.
  for (const name of ['inputs', 'input']) if (!(name in vars)) vars[name] = JSON.stringify(req.row);
  vars.output = promptValue(req.output);
  const id = await ctx.writer.start({
    traceId: req.traceId,
    parentId: req.parentId,
    opName: ctx.ops[JUDGE_SCORE_OP]!,
    inputs: { self: req.judge.ref, output: req.output, ...req.row },
    attributes: req.attributes,
  });
  const userInput = req.judge.promptMessages
    ? req.judge.promptMessages.map((m) => (typeof m.content === 'string' ? { ...m, content: fillTemplate(m.content, vars) } : m))
    : [{ role: 'user', content: fillTemplate(req.judge.scoringPrompt!, vars) }];
  const predicted = await runPredict(ctx, { model: req.judge.model, traceId: req.traceId, parentId: id, vars: {}, userInput });
  await ctx.writer.end({ id, output: predicted.output, usage: predicted.usage, exception: predicted.error });
  return { callId: id, output: predicted.output, usage: predicted.usage, error: predicted.error, latencySeconds: (Date.now() - t0) / 1000 };
}
