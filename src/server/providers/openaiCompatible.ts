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
 * Every failure becomes a ProviderError whose message says what happened and what to do; it
 * quotes nothing of the upstream's body but a known OpenAI error code, so a base URL pointed at
 * some other service cannot read that service back through errors (docs/security/outbound.md).
 * Requests go through the outbound client, which decides which addresses may be reached.
 */
import { OutboundError, type OutboundClient, type OutboundResponse } from '../outbound/outboundClient.js';
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
  outbound: OutboundClient;
  /** Configured by the operator or an admin: may reach what WEFT_OUTBOUND_ALLOW opens. */
  trusted: boolean;
  /** Bytes of a chat or model-list answer (WEFT_MAX_PROVIDER_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  /** Bytes of an images answer, and of all images it names together (WEFT_MAX_FILE_BYTES). */
  maxImageBytes?: number;
}

export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_IMAGE_BYTES = 64 * 1024 * 1024;

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
    return (await this.#readJson(res)) as ChatResponse;
  }

  async *chatStream(req: ChatRequest, options: CallOptions = {}): AsyncIterable<ChatChunk> {
    // include_usage makes OpenAI (and the servers copying it) send token counts in a last chunk.
    const body = { ...req, stream: true, stream_options: { include_usage: true, ...(req.stream_options as object | undefined) } };
    const res = await this.#send('POST', '/chat/completions', body, options);
    if (!(res.header('content-type') ?? '').includes('text/event-stream')) {
      // Some servers ignore `stream` and answer one JSON object: hand it on as one chunk.
      yield (await this.#readJson(res)) as ChatChunk;
      return;
    }
    const events = readServerSentEvents(res, this.name)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<string>;
        try {
          next = await events.next();
        } catch (err) {
          throw this.#asProviderError(err, options.timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        }
        if (next.done || next.value === '[DONE]') return;
        let chunk: ChatChunk;
        try {
          chunk = JSON.parse(next.value) as ChatChunk;
        } catch {
          throw new ProviderError('upstream', `${this.name} sent a stream event that is not JSON`);
        }
        if (chunk.error) throw new ProviderError('upstream', `${this.name} reported an error in the stream${knownCode(chunk)}`);
        yield chunk;
      }
    } finally {
      res.discard();
    }
  }

  async generateImages(req: ImageRequest, options: CallOptions = {}): Promise<ImageResponse> {
    // b64_json keeps the bytes in the answer, so they can be stored without a second download
    // from a URL that expires (gpt-image-1 always answers b64_json and refuses the parameter).
    const body: Record<string, unknown> = { model: req.model, prompt: req.prompt, n: req.n ?? 1, size: req.size ?? '1024x1024' };
    if (!req.model.startsWith('gpt-image')) body.response_format = 'b64_json';
    const res = await this.#send('POST', '/images/generations', body, { ...options, maxBytes: this.#maxImageBytes });
    return (await this.#readJson(res)) as ImageResponse;
  }

  /**
   * The bytes of an image the provider answered as a URL (when it would not send b64_json),
   * within `budget` bytes, fetched with the provider's own reach and none of its credentials.
   */
  async downloadImage(url: string, budget: number, options: CallOptions = {}): Promise<{ bytes: Uint8Array; mimetype: string }> {
    const limit = Math.min(budget, this.#maxImageBytes);
    const res = await this.#fetch(
      url,
      { method: 'GET', headers: { accept: 'image/*' }, maxBytes: limit, maxBytesSetting: 'WEFT_MAX_FILE_BYTES' },
      options,
    );
    if (!res.ok) {
      res.discard();
      throw new ProviderError('upstream', `Downloading an image from ${this.name} failed (HTTP ${res.status})`, { status: res.status });
    }
    const bytes = await this.#read(res, () => res.bytes());
    return { bytes, mimetype: res.header('content-type')?.split(';')[0]?.trim() || 'image/png' };
  }

  get #maxImageBytes(): number {
    return this.#config.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  }

  async listModels(options: CallOptions = {}): Promise<string[]> {
    const res = await this.#send('GET', '/models', undefined, options);
    const body = (await this.#readJson(res)) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return ids.sort();
  }

  /** One upstream request; non-2xx answers and network failures become ProviderErrors. */
  async #send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    options: CallOptions & { maxBytes?: number },
  ): Promise<OutboundResponse> {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...this.#config.extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#config.apiKey) {
      if (this.#config.authStyle === 'api-key') headers['api-key'] = this.#config.apiKey;
      else headers.authorization = `Bearer ${this.#config.apiKey}`;
    }
    const maxBytes = options.maxBytes ?? this.#config.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const maxBytesSetting = options.maxBytes !== undefined ? 'WEFT_MAX_FILE_BYTES' : 'WEFT_MAX_PROVIDER_ANSWER_BYTES';
    const res = await this.#fetch(
      joinUrl(this.#config.baseUrl, path),
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body), maxBytes, maxBytesSetting },
      options,
    );
    if (res.ok) return res;
    throw await this.#read(res, () => toProviderError(res, this.name));
  }

  async #fetch(
    url: string,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; maxBytes: number; maxBytesSetting: string },
    options: CallOptions,
  ): Promise<OutboundResponse> {
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return await this.#config.outbound.request(url, { ...init, trusted: this.#config.trusted, timeoutMs, signal: options.signal });
    } catch (err) {
      throw this.#asProviderError(err, timeoutMs);
    }
  }

  /** Reads the body with `read`, turning a cut-off, timed-out or cancelled read into a ProviderError. */
  async #read<T>(res: OutboundResponse, read: () => Promise<T>, timeoutMs?: number): Promise<T> {
    try {
      return await read();
    } catch (err) {
      res.discard();
      throw this.#asProviderError(err, timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    }
  }

  #asProviderError(err: unknown, timeoutMs: number): Error {
    if (!(err instanceof OutboundError)) return err as Error;
    switch (err.kind) {
      case 'cancelled':
        return new ProviderError('cancelled', `The request to ${this.name} was cancelled`);
      case 'timeout':
        return new ProviderError(
          'timeout',
          `${this.name} did not answer within ${Math.round(timeoutMs / 1000)} s; try again or raise the timeout`,
        );
      case 'refused':
        return new ProviderError('unreachable', `Cannot reach ${this.name}: ${err.message}.`);
      case 'network':
        return new ProviderError(
          'unreachable',
          `Cannot reach ${this.name}${err.code ? ` (${err.code})` : ''}. Check the provider's base URL and that it is running.`,
        );
      case 'redirect':
      case 'too_large':
        return new ProviderError('upstream', `${this.name} ${err.message}.`);
    }
  }

  async #readJson(res: OutboundResponse): Promise<unknown> {
    const text = await this.#read(res, () => res.text());
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError('upstream', `${this.name} answered something that is not JSON (HTTP ${res.status})`, { status: res.status });
    }
  }
}

/** `base` + `path`, keeping a query string of `base` (Azure's api-version) at the end. */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url.toString();
}

/**
 * OpenAI's error codes and types that say what to fix. Only these are repeated from an error
 * body: a fixed list cannot carry anything of a service the base URL was pointed at.
 */
const KNOWN_CODES = new Set([
  'invalid_api_key',
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'model_not_found',
  'not_found_error',
  'insufficient_quota',
  'rate_limit_exceeded',
  'rate_limit_error',
  'requests',
  'tokens',
  'context_length_exceeded',
  'content_policy_violation',
  'content_filter',
  'unsupported_parameter',
  'unsupported_value',
  'invalid_value',
  'server_error',
  'overloaded_error',
  'api_error',
]);

/** ` (invalid_api_key)` when an OpenAI-style error body names a known code or type; else empty. */
function knownCode(body: unknown): string {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (!error || typeof error !== 'object') return '';
  const { code, type } = error as { code?: unknown; type?: unknown };
  const known = [code, type].find((v): v is string => typeof v === 'string' && KNOWN_CODES.has(v));
  return known ? ` (${known})` : '';
}

async function toProviderError(res: OutboundResponse, name: string): Promise<ProviderError> {
  let body: unknown = null;
  try {
    body = JSON.parse(await res.text());
  } catch {
    // Not JSON, or cut off: only the status is reported.
  }
  const detail = knownCode(body);
  const status = res.status;
  if (status === 401 || status === 403) {
    return new ProviderError('auth', `${name} refused the API key (HTTP ${status})${detail}. Check the key configured for this provider.`, {
      status,
    });
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(res.header('retry-after'));
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
async function* readServerSentEvents(res: OutboundResponse, name: string): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const bytes of res.chunks()) {
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
    if (err instanceof OutboundError && err.kind !== 'network') throw err;
    throw new ProviderError('upstream', `The stream from ${name} broke off`);
  }
}
