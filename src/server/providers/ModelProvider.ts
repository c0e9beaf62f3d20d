/**
 * The model-provider seam: everything Weft asks of a model (chat completions, streamed or
 * not, image generation, the model list) goes through `ModelProvider`, the way storage goes
 * through `Store`. One file per protocol implements it (openaiCompatible.ts speaks the OpenAI
 * chat-completions and images protocol that OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio,
 * LiteLLM and OpenRouter all serve). Tests run it against testing/fakeOpenAi.ts.
 *
 * Bodies stay in the provider's own JSON (OpenAI's chat.completion object): the reference
 * returns the provider payload as `response`, so Weft passes it through rather than
 * re-modelling it.
 */

/** A chat-completions request body in OpenAI's shape (`model` is the upstream model name). */
export type ChatRequest = Record<string, unknown> & { model: string; messages: unknown[] };

/** An OpenAI `chat.completion` object. */
export type ChatResponse = Record<string, unknown> & {
  choices?: { index?: number; message?: { role?: string; content?: unknown }; finish_reason?: string | null }[];
  usage?: Record<string, unknown>;
};

/** One streamed `chat.completion.chunk`. */
export type ChatChunk = Record<string, unknown>;

export interface ImageRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
}

/** An OpenAI images response: `data[]` with `b64_json` or `url`, maybe `usage`. */
export type ImageResponse = Record<string, unknown> & { data?: { b64_json?: string; url?: string; revised_prompt?: string }[] };

export interface CallOptions {
  /** Aborts the upstream request (the caller went away, a job was cancelled). */
  signal?: AbortSignal;
  /** Milliseconds before the upstream request is given up (default: the provider's). */
  timeoutMs?: number;
}

export interface ModelProvider {
  /** The provider's name, the `<provider>` of `<provider>/<model>`. */
  readonly name: string;
  chat(req: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
  /** The completion as chunks, as the upstream sends them. */
  chatStream(req: ChatRequest, options?: CallOptions): AsyncIterable<ChatChunk>;
  generateImages(req: ImageRequest, options?: CallOptions): Promise<ImageResponse>;
  /** The upstream's model names (`GET /models`). */
  listModels(options?: CallOptions): Promise<string[]>;
  /** An image the provider answered as a URL, at most `budget` bytes, reached as the provider may reach. */
  downloadImage(url: string, budget: number, options?: CallOptions): Promise<{ bytes: Uint8Array; mimetype: string }>;
}

export type ProviderErrorKind = 'auth' | 'rate_limit' | 'timeout' | 'unreachable' | 'bad_request' | 'upstream' | 'cancelled';

/**
 * Anything that went wrong talking to a provider, as a message a user can act on. It never
 * becomes a 5xx of Weft's own: completions put it in `response.error` (as the reference does),
 * jobs record it, the dashboard shows it.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /** The upstream HTTP status, when there was one. */
  readonly status: number | null;
  /** Seconds the upstream asked to wait (429 Retry-After). */
  readonly retryAfter: number | null;
  constructor(kind: ProviderErrorKind, message: string, extra: { status?: number | null; retryAfter?: number | null } = {}) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = extra.status ?? null;
    this.retryAfter = extra.retryAfter ?? null;
  }
}
