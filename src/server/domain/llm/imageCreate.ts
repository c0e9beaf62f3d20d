/**
 * `/image/create`, as the reference serves it (trace_server/image_completion.py and
 * clickhouse_query_layer/completions.py `image_create`): generate images with the OpenAI
 * images API, store each one as a Weave `Content` — its bytes as a file named `content` and its
 * metadata as `metadata.json`, referenced from the response by a `CustomWeaveType` value of type
 * `weave.type_wrappers.Content.content.Content` (base64_content_conversion.py
 * `store_content_object`, which is how the SDKs store Content too) — and record the
 * `weave.image_generation_create` call.
 *
 * As in the reference: with no provider configured the answer is 200
 * `{"response": {"error": "No OpenAI API key found"}}`; an upstream failure is `response.error`
 * and is not tracked. Decision: the images and the call are written in one transaction, so a
 * failed write leaves no orphan files.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ImageGenerationCreateReq } from '../../../contract/completions.js';
import { ProviderError } from '../../providers/ModelProvider.js';
import { NoProviderError, type ProviderRegistry } from '../../providers/providerRegistry.js';
import type { Store } from '../../store/Store.js';
import type { Clock } from '../../core/clock.js';
import { uuidv7 } from '../../core/ids.js';
import { finishedCallWrites, IMAGE_GENERATION_CREATE_OP } from './llmCalls.js';
import { WritePlan } from '../calls/writePlan.js';

export const CONTENT_TYPE = 'weave.type_wrappers.Content.content.Content';
const NO_KEY = 'No OpenAI API key found';

type Req = z.output<typeof ImageGenerationCreateReq>;

/** Stores bytes as a Weave Content in the plan; answers the value that stands for it. */
export function planContent(
  plan: WritePlan,
  bytes: Uint8Array,
  meta: { mimetype: string; extension: string; metadata: Record<string, unknown> },
) {
  const metadata = {
    id: randomUUID().replaceAll('-', ''),
    size: bytes.byteLength,
    mimetype: meta.mimetype,
    digest: createHash('sha256').update(bytes).digest('hex'),
    filename: `file${meta.extension}`,
    content_type: 'base64',
    input_type: 'str',
    encoding: 'utf-8',
    metadata: meta.metadata,
    extension: meta.extension,
  };
  return {
    _type: 'CustomWeaveType',
    weave_type: { type: CONTENT_TYPE },
    files: { content: plan.bytesFile('content', bytes), 'metadata.json': plan.file('metadata.json', JSON.stringify(metadata)) },
  };
}

/** An image URL is fetched within this; b64_json answers (asked for first) need no second request. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

export async function createImage(
  deps: { store: Store; registry: ProviderRegistry; clock: Clock; userId: string; maxFileBytes: number },
  req: Req,
): Promise<{ response: Record<string, unknown>; weave_call_id: string | null }> {
  let resolved;
  try {
    resolved = await deps.registry.resolve(req.project_id, req.inputs.model);
  } catch (err) {
    if (!(err instanceof NoProviderError)) throw err;
    // The reference only knows the OpenAI key; with no provider at all it says exactly this.
    return { response: { error: err.message.startsWith('No model provider') ? NO_KEY : err.message }, weave_call_id: null };
  }
  const startedAt = deps.clock.nowMicros();
  let upstream: Record<string, unknown>;
  try {
    // DALL-E 3 makes one image per request (the reference forces n = 1 for it).
    const n = resolved.model === 'dall-e-3' ? 1 : (req.inputs.n ?? 1);
    upstream = await resolved.provider.generateImages({ model: resolved.model, prompt: req.inputs.prompt, n });
  } catch (err) {
    if (err instanceof ProviderError) return { response: { error: err.message }, weave_call_id: null };
    throw err;
  }

  const plan = new WritePlan({ projectId: req.project_id, userId: deps.userId, now: deps.clock.nowMicros() });
  const response: Record<string, unknown> = { ...upstream, model: req.inputs.model };
  const usage = upstream.usage as Record<string, number | undefined> | undefined;
  if (usage && typeof usage === 'object') {
    response.usage = {
      ...usage,
      prompt_tokens: usage.prompt_tokens || usage.input_tokens || 0,
      completion_tokens: usage.completion_tokens || usage.output_tokens || usage.total_tokens || 0,
      total_tokens: usage.total_tokens || 0,
    };
  }
  const data = Array.isArray(upstream.data) ? (upstream.data as Record<string, unknown>[]) : [];
  response.data = [];
  // Every image of the answer together stays within the file limit (WEFT_MAX_FILE_BYTES).
  let budget = deps.maxFileBytes;
  for (const [index, item] of data.entries()) {
    const out: Record<string, unknown> = { ...item };
    try {
      if (typeof item.b64_json === 'string' && item.b64_json) {
        const bytes = new Uint8Array(Buffer.from(item.b64_json, 'base64'));
        budget -= bytes.byteLength;
        out.b64_json = planContent(plan, bytes, {
          mimetype: 'image/png',
          extension: '.png',
          metadata: { source_index: index, _original_schema: 'b64_json' },
        });
      } else if (typeof item.url === 'string' && item.url) {
        if (budget <= 0)
          throw new ProviderError('upstream', `The images exceed the file limit of ${deps.maxFileBytes} bytes (WEFT_MAX_FILE_BYTES)`);
        const { bytes, mimetype } = await resolved.provider.downloadImage(item.url, budget, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
        budget -= bytes.byteLength;
        // The upstream's Content-Type names the stored file: only a plain image type is kept.
        const image = /^image\/(png|jpeg|gif|webp)$/i.exec(mimetype);
        const type = image ? `image/${image[1]!.toLowerCase()}` : 'image/png';
        out.url = planContent(plan, bytes, {
          mimetype: type,
          extension: `.${type.slice(6)}`,
          metadata: { source_index: index, _original_schema: 'url' },
        });
      }
    } catch (err) {
      response.error = (err as Error).message;
      break;
    }
    (response.data as unknown[]).push(out);
  }
  if (typeof response.error === 'string') return { response: { error: response.error }, weave_call_id: null };

  let callId: string | null = null;
  if (req.track_llm_call !== false) {
    callId = uuidv7();
    plan.calls.push(
      ...finishedCallWrites({
        projectId: req.project_id,
        userId: deps.userId,
        opName: IMAGE_GENERATION_CREATE_OP,
        id: callId,
        inputs: { model: req.inputs.model, prompt: req.inputs.prompt, n: req.inputs.n ?? null },
        output: response,
        summary: response.usage ? { usage: { [req.inputs.model]: response.usage } } : {},
        startedAt,
        endedAt: deps.clock.nowMicros(),
      }),
    );
  }
  await plan.apply(deps.store);
  return { response, weave_call_id: callId };
}
