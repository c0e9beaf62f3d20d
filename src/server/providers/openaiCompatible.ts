/**
 * The OpenAI-compatible provider: `POST {base}/chat/completions` (JSON, or server-sent events
 * with `stream: true`), `POST {base}/images/generations` and `GET {base}/models`, where `base`
 * is the URL users already know from their SDK's OPENAI_BASE_URL (`https://api.openai.com/v1`,
 * `http://localhost:11434/v1` for Ollama, `http://localhost:1234/v1` for LM Studio, a vLLM or
 * LiteLLM proxy, `https://openrouter.ai/api/v1`, or an Azure OpenAI resource's
 * `https://<name>.openai.azure.com/openai/v1`). Azure authenticates with an `api-key` header
 * instead of a bearer token (`authStyle: 'api-key'`); a query string on the base URL (Azure's
 * `?api-version=`) is kept on every request.
 *
 * Every failure becomes a ProviderError whose message says what happened and what to do.
 */
import {
  ProviderError,
  type CallOptions,
  type ChatChunk,
  type ChatRequest,
  type ChatResponse,
  type ImageRequest,
  type ImageResponse,
  type ModelProvider,
} from './ModelProvider.js';

export interface OpenAiCompatibleConfig {
  name: string;
  baseUrl: string;
  apiKey: string | null;
  authStyle?: 'bearer' | 'api-key';
  extraHeaders?: Record<string, string>;
  /** Per request, unless the call says otherwise. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

export class OpenAiCompatibleProvider implements ModelProvider {
  readonly name: string;
  readonly #config: Readonly<OpenAiCompatibleConfig>;

  constructor(config: OpenAiCompatibleConfig) {
    this.name = config.name;
    this.#config = Object.freeze({ ...config });
  }

  async chat(req: ChatRequest, options: CallOptions = {}): Promise<ChatResponse> {
    const res = await this.#send('POST', '/chat/completions', { ...req, stream: false }, options);
    return (await readJson(res, this.name)) as ChatResponse;
  }

  async *chatStream(req: ChatRequest, options: CallOptions = {}): AsyncIterable<ChatChunk> {
    // include_usage makes OpenAI (and the servers copying it) send token counts in a last chunk.
    const body = { ...req, stream: true, stream_options: { include_usage: true, ...(req.stream_options as object | undefined) } };
    const res = await this.#send('POST', '/chat/completions', body, options);
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // Some servers ignore `stream` and answer one JSON object: hand it on as one chunk.
      yield (await readJson(res, this.name)) as ChatChunk;
      return;
    }
    for await (const data of readServerSentEvents(res, this.name)) {
      if (data === '[DONE]') return;
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(data) as ChatChunk;
      } catch {
        throw new ProviderError('upstream', `${this.name} sent a stream event that is not JSON: ${data.slice(0, 200)}`);
      }
      if (chunk.error) throw new ProviderError('upstream', `${this.name}: ${errorMessage(chunk) ?? 'error in the stream'}`);
      yield chunk;
    }
  }

  async generateImages(req: ImageRequest, options: CallOptions = {}): Promise<ImageResponse> {
    // b64_json keeps the bytes in the answer, so they can be stored without a second download
    // from a URL that expires (gpt-image-1 always answers b64_json and refuses the parameter).
    const body: Record<string, unknown> = { model: req.model, prompt: req.prompt, n: req.n ?? 1, size: req.size ?? '1024x1024' };
    if (!req.model.startsWith('gpt-image')) body.response_format = 'b64_json';
    const res = await this.#send('POST', '/images/generations', body, options);
    return (await readJson(res, this.name)) as ImageResponse;
  }

  async listModels(options: CallOptions = {}): Promise<string[]> {
    const res = await this.#send('GET', '/models', undefined, options);
    const body = (await readJson(res, this.name)) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return ids.sort();
  }

  /** One upstream request; non-2xx answers and network failures become ProviderErrors. */
  async #send(method: 'GET' | 'POST', path: string, body: unknown, options: CallOptions): Promise<Response> {
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...this.#config.extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#config.apiKey) {
      if (this.#config.authStyle === 'api-key') headers['api-key'] = this.#config.apiKey;
      else headers.authorization = `Bearer ${this.#config.apiKey}`;
    }
    let res: Response;
    try {
      res = await fetch(joinUrl(this.#config.baseUrl, path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (options.signal?.aborted) throw new ProviderError('cancelled', `The request to ${this.name} was cancelled`);
      if (timeout.aborted) {
        throw new ProviderError(
          'timeout',
          `${this.name} did not answer within ${Math.round(timeoutMs / 1000)} s; try again or raise the timeout`,
        );
      }
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ProviderError(
        'unreachable',
        `Cannot reach ${this.name} at ${this.#config.baseUrl}: ${cause?.code ?? cause?.message ?? (err as Error).message}. Check the provider's base URL and that it is running.`,
      );
    }
    if (res.ok) return res;
    throw await toProviderError(res, this.name);
  }
}

/** `base` + `path`, keeping a query string of `base` (Azure's api-version) at the end. */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url.toString();
}

async function readJson(res: Response, name: string): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError('upstream', `${name} answered something that is not JSON: ${text.slice(0, 200)}`, { status: res.status });
  }
}

/** The `message` of an OpenAI-style error body (`{"error": {"message"}}` or `{"error": "..."}`). */
function errorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  const message = (body as { message?: unknown; detail?: unknown }).message ?? (body as { detail?: unknown }).detail;
  return typeof message === 'string' ? message : null;
}

async function toProviderError(res: Response, name: string): Promise<ProviderError> {
  const text = await res.text().catch(() => '');
  let upstream: string | null;
  try {
    upstream = errorMessage(JSON.parse(text));
  } catch {
    upstream = text.trim().slice(0, 300) || null;
  }
  const detail = upstream ? `: ${upstream}` : '';
  const status = res.status;
  if (status === 401 || status === 403) {
    return new ProviderError('auth', `${name} refused the API key (HTTP ${status})${detail}. Check the key configured for this provider.`, {
      status,
    });
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const wait = retryAfter !== null ? ` Retry after ${retryAfter} s.` : '';
    return new ProviderError('rate_limit', `${name} is rate limiting requests (HTTP 429)${detail}.${wait}`, { status, retryAfter });
  }
  if (status === 404) return new ProviderError('bad_request', `${name} does not know this model or route (HTTP 404)${detail}`, { status });
  if (status >= 400 && status < 500)
    return new ProviderError('bad_request', `${name} rejected the request (HTTP ${status})${detail}`, { status });
  return new ProviderError('upstream', `${name} failed (HTTP ${status})${detail}. Try again later.`, { status });
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent. */
export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The `data:` payloads of a server-sent-events body, one per event, as they arrive. */
async function* readServerSentEvents(res: Response, name: string): AsyncIterable<string> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) yield data;
      }
    }
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    throw new ProviderError('upstream', `The stream from ${name} broke off: ${(err as Error).message}`);
  }
}
