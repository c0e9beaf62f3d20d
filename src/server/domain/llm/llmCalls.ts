/**
 * One chat completion through the project's providers, and the call that records it: the
 * shared core of `/completions/create`, LLM-judge scorers, LLMStructuredCompletionModel
 * predictions and monitors.
 *
 * The recorded call is what the reference writes (clickhouse_query_layer/completions.py):
 * op `weave.completions_create`, inputs = the request inputs (without nulls), output = the
 * provider's response, `summary.usage[<upstream model>]` = its usage, and the provider's error
 * as the call's exception.
 */
import type { CallStartWrite, CallEndWrite } from '../../store/Store.js';
import type { ProviderRegistry } from '../../providers/providerRegistry.js';
import { NoProviderError } from '../../providers/providerRegistry.js';
import { ProviderError, type ChatResponse } from '../../providers/ModelProvider.js';
import { toEndWrite, toStartWrite } from '../calls/calls.js';
import { formatMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';

export const COMPLETIONS_CREATE_OP = 'weave.completions_create';
export const IMAGE_GENERATION_CREATE_OP = 'weave.image_generation_create';

/** Inputs fields that configure Weft's request rather than the upstream one. */
const LOCAL_FIELDS = new Set(['model', 'prompt', 'template_vars', 'timeout', 'extra_headers', 'api_version', 'stream']);

export interface ChatOutcome {
  /** The provider's chat.completion, or `{error}`. */
  response: Record<string, unknown>;
  /** The upstream model name (the key usage is recorded under). */
  model: string;
  error: string | null;
  /** Seconds a rate-limited upstream asked to wait; null otherwise. */
  retryAfter: number | null;
  rateLimited: boolean;
  /** No provider serves the model (the reference answers this before tracking anything). */
  noProvider: boolean;
}

/** Drops null and undefined fields (pydantic's `exclude_none`). */
export const withoutNulls = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** The upstream request body for completion inputs. */
export function upstreamBody(
  inputs: Record<string, unknown>,
  model: string,
): { model: string; messages: unknown[] } & Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inputs)) if (!LOCAL_FIELDS.has(k) && v !== null && v !== undefined) body[k] = v;
  return { ...body, model, messages: Array.isArray(inputs.messages) ? inputs.messages : [] };
}

/** Milliseconds from the reference's `timeout` input (seconds, number or numeric string). */
export function timeoutMsOf(timeout: unknown): number | undefined {
  const seconds = typeof timeout === 'string' ? Number(timeout) : timeout;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : undefined;
}

/** Runs one chat completion; every failure (no provider, upstream error) comes back as `{error}`. */
export async function chatThroughProvider(
  registry: ProviderRegistry,
  req: { projectId: string; inputs: Record<string, unknown>; signal?: AbortSignal },
): Promise<ChatOutcome> {
  const requested = String(req.inputs.model);
  let model = requested;
  try {
    const resolved = await registry.resolve(req.projectId, requested);
    model = resolved.model;
    const response = (await resolved.provider.chat(upstreamBody(req.inputs, resolved.model), {
      signal: req.signal,
      timeoutMs: timeoutMsOf(req.inputs.timeout),
    })) as ChatResponse;
    return { response, model, error: null, retryAfter: null, rateLimited: false, noProvider: false };
  } catch (err) {
    if (err instanceof ProviderError) {
      return {
        response: { error: err.message },
        model,
        error: err.message,
        retryAfter: err.retryAfter,
        rateLimited: err.kind === 'rate_limit',
        noProvider: false,
      };
    }
    if (err instanceof NoProviderError) {
      return { response: { error: err.message }, model, error: err.message, retryAfter: null, rateLimited: false, noProvider: true };
    }
    throw err;
  }
}

/** The text of the first choice of a chat.completion ('' when none). */
export function completionText(response: Record<string, unknown>): string {
  const choices = response.choices as { message?: { content?: unknown } }[] | undefined;
  const content = choices?.[0]?.message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** The start and end writes of a finished call. */
export function finishedCallWrites(call: {
  projectId: string;
  userId: string;
  opName: string;
  id?: string;
  traceId?: string;
  parentId?: string | null;
  inputs: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  output: unknown;
  summary?: Record<string, unknown>;
  exception?: string | null;
  startedAt: number;
  endedAt: number;
  displayName?: string | null;
}): [CallStartWrite, CallEndWrite] {
  const id = call.id ?? uuidv7();
  return [
    toStartWrite(
      {
        project_id: call.projectId,
        id,
        trace_id: call.traceId ?? id,
        parent_id: call.parentId ?? null,
        op_name: call.opName,
        display_name: call.displayName ?? null,
        started_at: formatMicros(call.startedAt),
        attributes: call.attributes ?? {},
        inputs: call.inputs,
      },
      call.userId,
    ),
    toEndWrite({
      project_id: call.projectId,
      id,
      ended_at: formatMicros(call.endedAt),
      output: call.output,
      summary: call.summary ?? {},
      exception: call.exception ?? null,
    }),
  ];
}

/** `summary` of a completion call: usage under the upstream model name, when the response has usage. */
export function usageSummary(model: string, response: Record<string, unknown>): Record<string, unknown> {
  const usage = response.usage;
  return usage && typeof usage === 'object' ? { usage: { [model]: usage } } : {};
}
