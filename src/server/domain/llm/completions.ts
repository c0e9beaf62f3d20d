/**
 * `/completions/create` and `/completions/create_stream`, as the reference serves them
 * (clickhouse_query_layer/completions.py): resolve `inputs.prompt` (a MessagesPrompt ref whose
 * messages go first) and `template_vars`, call the provider, and — unless `track_llm_call` is
 * false — record a `weave.completions_create` call whose inputs keep the caller's own messages.
 * Failures (no provider, upstream error) come back as `response.error` with HTTP 200, as in the
 * reference; a tracked failure records the error as the call's exception.
 *
 * The stream answers `{"_meta": {"weave_call_id"}}` first when tracked, then the provider's
 * chunks as they arrive, and ends the call with the accumulated response when the stream ends
 * (or breaks, or the client goes away).
 */
import type { CompletionsCreateReq } from '../../../contract/completions.js';
import { ProviderError } from '../../providers/ModelProvider.js';
import { NoProviderError, type ProviderRegistry } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import { toEndWrite, toStartWrite } from '../calls/calls.js';
import type { Clock } from '../../core/clock.js';
import { formatMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import {
  chatThroughProvider,
  COMPLETIONS_CREATE_OP,
  finishedCallWrites,
  timeoutMsOf,
  upstreamBody,
  usageSummary,
  withoutNulls,
} from './llmCalls.js';
import { weftMade } from '../calls/weftMade.js';
import { readRefs } from '../objects/refsRead.js';

interface Deps {
  store: Store;
  registry: ProviderRegistry;
  clock: Clock;
  userId: string;
}

type Message = Record<string, unknown>;

/** `{name}` placeholders replaced by `vars[name]`; unknown names are left as written. */
export function fillTemplate(text: string, vars: Record<string, unknown>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? (typeof vars[name] === 'string' ? (vars[name] as string) : JSON.stringify(vars[name])) : whole,
  );
}

function fillMessage(message: unknown, vars: Record<string, unknown>): unknown {
  if (!message || typeof message !== 'object') return message;
  const m = { ...(message as Message) };
  if (typeof m.content === 'string') m.content = fillTemplate(m.content, vars);
  else if (Array.isArray(m.content)) {
    m.content = m.content.map((p) =>
      p && typeof p === 'object' && typeof p.text === 'string' ? { ...p, text: fillTemplate(p.text, vars) } : p,
    );
  }
  return m;
}

/** The messages sent upstream (prompt messages first, placeholders filled) and the caller's own. */
async function combinedMessages(
  store: Store,
  inputs: CompletionsCreateReq['inputs'],
): Promise<{ combined: unknown[]; initial: unknown[] }> {
  const initial = inputs.messages ?? [];
  let combined = [...initial];
  if (inputs.prompt) {
    const [prompt] = await readRefs(store, [inputs.prompt]);
    const messages = prompt && typeof prompt === 'object' ? (prompt as { messages?: unknown }).messages : undefined;
    if (!Array.isArray(messages)) throw new Error(`${inputs.prompt} is not a MessagesPrompt (it has no messages)`);
    combined = [...messages, ...initial];
  }
  if (inputs.template_vars) combined = combined.map((m) => fillMessage(m, inputs.template_vars!));
  return { combined, initial };
}

/** What the tracked call records as inputs: the request inputs without nulls, with the caller's messages. */
const trackedInputs = (inputs: CompletionsCreateReq['inputs'], initial: unknown[]) => withoutNulls({ ...inputs, messages: initial });

export async function createCompletion(
  deps: Deps,
  req: CompletionsCreateReq,
): Promise<{ response: Record<string, unknown>; weave_call_id: string | null }> {
  let messages: { combined: unknown[]; initial: unknown[] };
  try {
    messages = await combinedMessages(deps.store, req.inputs);
  } catch (err) {
    return { response: { error: `Failed to resolve and apply prompt: ${(err as Error).message}` }, weave_call_id: null };
  }
  const startedAt = deps.clock.nowMicros();
  const outcome = await chatThroughProvider(deps.registry, {
    projectId: req.project_id,
    inputs: { ...req.inputs, messages: messages.combined },
  });
  if (req.track_llm_call === false || outcome.noProvider) return { response: outcome.response, weave_call_id: null };
  const id = uuidv7();
  await deps.store.calls.writeCalls(
    finishedCallWrites({
      projectId: req.project_id,
      userId: deps.userId,
      opName: COMPLETIONS_CREATE_OP,
      id,
      attributes: weftMade('playground'),
      inputs: trackedInputs(req.inputs, messages.initial),
      output: outcome.response,
      summary: usageSummary(outcome.model, outcome.response),
      exception: outcome.error,
      startedAt,
      endedAt: deps.clock.nowMicros(),
    }),
  );
  return { response: outcome.response, weave_call_id: id };
}

/** Folds one chunk into the accumulated chat.completion (content, tool calls, finish reason, usage). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider chunks are open-ended JSON, merged field by field as they arrive
export function accumulateChunk(acc: Record<string, any>, chunk: Record<string, any>): void {
  if (Array.isArray(chunk.choices)) {
    acc.choices ??= [];
    for (const choice of chunk.choices) {
      const idx = typeof choice.index === 'number' ? choice.index : 0;
      while (acc.choices.length <= idx) acc.choices.push({ index: acc.choices.length, message: { role: 'assistant', content: '' } });
      const target = acc.choices[idx];
      const delta = choice.delta ?? choice.message ?? {};
      if (typeof delta.content === 'string') target.message.content += delta.content;
      if (Array.isArray(delta.tool_calls)) {
        target.message.tool_calls ??= [];
        for (const call of delta.tool_calls) {
          const at = typeof call.index === 'number' ? call.index : target.message.tool_calls.length;
          const existing = (target.message.tool_calls[at] ??= {
            id: call.id,
            type: call.type ?? 'function',
            function: { name: '', arguments: '' },
          });
          if (call.id) existing.id = call.id;
          if (call.function?.name) existing.function.name += call.function.name;
          if (call.function?.arguments) existing.function.arguments += call.function.arguments;
        }
      }
      if (choice.finish_reason) target.finish_reason = choice.finish_reason;
    }
  }
  for (const key of ['id', 'model', 'created', 'usage', 'system_fingerprint'] as const) if (chunk[key] != null) acc[key] = chunk[key];
  if (acc.id && !acc.object) acc.object = 'chat.completion';
}

export async function* streamCompletion(
  deps: Deps,
  req: CompletionsCreateReq,
  signal?: AbortSignal,
): AsyncIterable<Record<string, unknown>> {
  let messages: { combined: unknown[]; initial: unknown[] };
  try {
    messages = await combinedMessages(deps.store, req.inputs);
  } catch (err) {
    yield { error: `Failed to resolve and apply prompt: ${(err as Error).message}` };
    return;
  }
  let resolved;
  try {
    resolved = await deps.registry.resolve(req.project_id, req.inputs.model);
  } catch (err) {
    if (err instanceof NoProviderError) {
      yield { error: err.message };
      return;
    }
    throw err;
  }
  const chunks = resolved.provider.chatStream(upstreamBody({ ...req.inputs, messages: messages.combined }, resolved.model), {
    signal,
    timeoutMs: timeoutMsOf(req.inputs.timeout),
  });
  const track = req.track_llm_call !== false;
  const id = uuidv7();
  if (track) {
    await deps.store.calls.writeCalls([
      toStartWrite(
        {
          project_id: req.project_id,
          id,
          trace_id: id,
          op_name: COMPLETIONS_CREATE_OP,
          started_at: formatMicros(deps.clock.nowMicros()),
          attributes: weftMade('playground'),
          inputs: trackedInputs({ ...req.inputs, model: req.inputs.model }, messages.initial),
        },
        deps.userId,
      ),
    ]);
    yield { _meta: { weave_call_id: id } };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the chat.completion being rebuilt from open-ended chunks
  const accumulated: Record<string, any> = {};
  let error: string | null = null;
  try {
    for await (const chunk of chunks) {
      accumulateChunk(accumulated, chunk);
      yield chunk;
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    error = err.message;
    yield { error };
  } finally {
    if (track) {
      await deps.store.calls.writeCalls([
        toEndWrite({
          project_id: req.project_id,
          id,
          ended_at: formatMicros(deps.clock.nowMicros()),
          output: accumulated,
          summary: usageSummary(resolved.model, accumulated),
          exception: error ?? (signal?.aborted ? 'The client closed the stream' : null),
        }),
      ]);
    }
  }
}
