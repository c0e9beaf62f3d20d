/**
 * A stand-in for an OpenAI-compatible model provider: a real HTTP server on a free local port
 * speaking the parts of the OpenAI protocol Weft uses, so provider tests never reach the
 * internet. Every answer is deterministic:
 *
 * - `GET /v1/models` lists `models`;
 * - `POST /v1/chat/completions` answers `reply(messages)` (default: `Echo: <last user text>`,
 *   or, when `response_format.type` is `json_object`/`json_schema`, `{"score": <n>, "reason": ...}`
 *   with n = the number of words of the last user message mod 6), with `usage` counted in words;
 *   `stream: true` answers server-sent events, one chunk per word, then `data: [DONE]`;
 * - `POST /v1/images/generations` answers `n` one-pixel PNGs as `b64_json`.
 *
 * Failures are scripted per model name, so the same server serves a whole suite (and the
 * browser tests): `fail-401`, `fail-429` (with `Retry-After: 7`), `fail-500`, `fail-400` and
 * `slow-<ms>` (answers after that many milliseconds). `failNext()` scripts the next answers
 * whatever the model. With `apiKey` set, any other bearer key gets OpenAI's 401.
 *
 * @example
 * const fake = await startFakeOpenAi({ apiKey: 'sk-test' });
 * // OPENAI_BASE_URL=fake.baseUrl (ends in /v1), OPENAI_API_KEY=sk-test
 * await fake.close();
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface FakeFailure {
  status: number;
  message?: string;
  retryAfter?: number;
}

interface ChatMessage {
  role: string;
  content: unknown;
}

export interface FakeOpenAiOptions {
  /** The bearer key the server accepts; none accepts any (or no) key. */
  apiKey?: string;
  /** What `/v1/models` lists. */
  models?: string[];
  /** The assistant's answer to the messages (default: see the module comment). */
  reply?: (messages: ChatMessage[], body: any) => string;
  /** Also accept Azure's `api-key` header for `apiKey`. */
  acceptApiKeyHeader?: boolean;
}

export interface FakeOpenAi {
  /** The OpenAI base URL, ending in `/v1` (what OPENAI_BASE_URL holds). */
  baseUrl: string;
  /** Every request received, oldest first. */
  requests: FakeRequest[];
  /** The next answers fail this way, whatever the model. */
  failNext(...failures: FakeFailure[]): void;
  close(): Promise<void>;
}

/** A 1×1 transparent PNG. */
export const ONE_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The text of a message's content (string, or the text parts of a content list). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join(' ');
  }
  return '';
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** The stand-in's default answer to a chat request. */
export function defaultReply(messages: ChatMessage[], body: any): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const text = messageText(lastUser?.content);
  const format = body?.response_format?.type;
  if (format === 'json_object' || format === 'json_schema') {
    const n = words(text).length % 6;
    return JSON.stringify({ score: n, reason: `The answer has ${words(text).length} words.` });
  }
  return `Echo: ${text}`;
}

const countTokens = (messages: ChatMessage[]): number => messages.reduce((sum, m) => sum + words(messageText(m.content)).length + 1, 0);

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  const scripted: FakeFailure[] = [];
  const models = options.models ?? ['gpt-4o-mini', 'gpt-4o', 'llama3.2'];
  const reply = options.reply ?? defaultReply;
  let created = 1_700_000_000;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'server_error' } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = await readBody(req);
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });

    if (options.apiKey !== undefined) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const azureKey = options.acceptApiKeyHeader ? req.headers['api-key'] : undefined;
      if (bearer !== options.apiKey && azureKey !== options.apiKey) {
        return sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      }
    }
    const failure = scripted.shift() ?? failureForModel(body?.model);
    if (failure && 'slowMs' in failure) await new Promise((r) => setTimeout(r, failure.slowMs));
    else if (failure) {
      if (failure.retryAfter !== undefined) res.setHeader('retry-after', String(failure.retryAfter));
      return sendError(res, failure.status, failure.message ?? `Scripted failure ${failure.status}`, 'scripted');
    }

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })) });
    }
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') return chat(res, body);
    if (req.method === 'POST' && url.pathname === '/v1/images/generations') {
      const n = Number.isInteger(body?.n) && body.n > 0 ? body.n : 1;
      return sendJson(res, 200, {
        created: ++created,
        data: Array.from({ length: n }, () => ({ b64_json: ONE_PIXEL_PNG_BASE64, revised_prompt: body?.prompt ?? '' })),
        usage: { input_tokens: words(String(body?.prompt ?? '')).length, output_tokens: 100 * n, total_tokens: 0 },
      });
    }
    return sendError(res, 404, `Unknown route ${req.method} ${url.pathname}`, 'invalid_request_error');
  }

  function chat(res: ServerResponse, body: any): void {
    const messages: ChatMessage[] = Array.isArray(body?.messages) ? body.messages : [];
    if (!body?.model) return sendError(res, 400, 'you must provide a model parameter', 'invalid_request_error');
    if (!messages.length) return sendError(res, 400, "'messages' must contain at least one message", 'invalid_request_error');
    const content = reply(messages, body);
    const prompt = countTokens(messages);
    const completion = words(content).length;
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    const id = `chatcmpl-fake-${++created}`;
    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    const parts = content.split(/(?<=\s)/);
    for (const part of parts) res.write(chunk({ content: part }, null));
    res.write(chunk({}, 'stop'));
    if (body.stream_options?.include_usage) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (...failures) => scripted.push(...failures),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The failure a model name scripts (`fail-<status>`, `slow-<ms>`), if any. */
function failureForModel(model: unknown): FakeFailure | { slowMs: number } | null {
  if (typeof model !== 'string') return null;
  const fail = /(?:^|\/)fail-(\d{3})/.exec(model);
  if (fail) {
    const status = Number(fail[1]);
    return { status, retryAfter: status === 429 ? 7 : undefined, message: status === 429 ? 'Rate limit reached for requests' : undefined };
  }
  const slow = /(?:^|\/)slow-(\d+)/.exec(model);
  return slow ? { slowMs: Number(slow[1]) } : null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** OpenAI's error body: `{"error": {message, type, param, code}}`. */
function sendError(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}
