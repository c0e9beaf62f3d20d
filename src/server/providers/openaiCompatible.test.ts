/** The OpenAI-compatible provider against the local stand-in (testing/fakeOpenAi.ts): answers, streams, images, every failure kind. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundAllowList } from '../outbound/addresses.js';
import { OutboundClient } from '../outbound/outboundClient.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { ProviderError, type ChatChunk } from './ModelProvider.js';
import { joinUrl, OpenAiCompatibleProvider, parseRetryAfter } from './openaiCompatible.js';

let fake: FakeOpenAi;
let provider: OpenAiCompatibleProvider;
// The stand-in listens on 127.0.0.1, which only an allowed, trusted provider may reach.
const outbound = new OutboundClient({ allow: OutboundAllowList.parse('127.0.0.1') });
const reach = { outbound, trusted: true };
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-right-key-1234', acceptApiKeyHeader: true });
  provider = new OpenAiCompatibleProvider({ name: 'fake', baseUrl: fake.baseUrl, apiKey: 'sk-right-key-1234', ...reach });
});
afterAll(async () => {
  outbound.close();
  await fake.close();
});

const failure = async (p: Promise<unknown>): Promise<ProviderError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

describe('chat', () => {
  it('answers a chat.completion with usage, sending the bearer key', async () => {
    const res = await provider.chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }], temperature: 0.2 });
    expect(res.choices?.[0]?.message?.content).toBe('Echo: hello there');
    expect(res.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-right-key-1234');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, stream: false });
  });

  it('streams chunks whose deltas add up to the answer, with usage last', async () => {
    const chunks: ChatChunk[] = [];
    for await (const c of provider.chatStream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'one two three' }] })) chunks.push(c);
    const text = chunks.map((c) => (c.choices as any[])?.[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Echo: one two three');
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: 4 });
    expect(fake.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('uses the api-key header for Azure-style providers and keeps the api-version query', async () => {
    const azure = new OpenAiCompatibleProvider({
      name: 'azure',
      baseUrl: `${fake.baseUrl}?api-version=2024-10-21`,
      apiKey: 'sk-right-key-1234',
      authStyle: 'api-key',
      ...reach,
    });
    await azure.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests.at(-1)!.headers['api-key']).toBe('sk-right-key-1234');
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
    expect(joinUrl('https://x.openai.azure.com/openai/v1/?api-version=1', '/chat/completions')).toBe(
      'https://x.openai.azure.com/openai/v1/chat/completions?api-version=1',
    );
  });
});

describe('images and models', () => {
  it('asks for b64_json images and gets n of them', async () => {
    const res = await provider.generateImages({ model: 'dall-e-2', prompt: 'a red square', n: 2 });
    expect(res.data).toHaveLength(2);
    expect(res.data![0]!.b64_json).toMatch(/^iVBOR/);
    expect(fake.requests.at(-1)!.body).toMatchObject({ response_format: 'b64_json', n: 2 });
  });

  it('lists the upstream models', async () => {
    expect(await provider.listModels()).toEqual(['gpt-4o', 'gpt-4o-mini', 'llama3.2']);
  });
});

describe('failures become ProviderErrors with a clear message', () => {
  it('a wrong key is an auth error', async () => {
    const wrong = new OpenAiCompatibleProvider({ name: 'fake', baseUrl: fake.baseUrl, apiKey: 'sk-wrong', ...reach });
    const err = await failure(wrong.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.kind).toBe('auth');
    // OpenAI's error code is repeated; its free text (any upstream's body) is not.
    expect(err.message).toContain('refused the API key (HTTP 401) (invalid_api_key).');
    expect(err.message).not.toContain('Incorrect API key');
  });

  it('429 carries Retry-After', async () => {
    const err = await failure(provider.chat({ model: 'fail-429', messages: [{ role: 'user', content: 'x' }] }));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429, retryAfter: 7 });
    expect(err.message).toContain('Retry after 7 s');
  });

  it('5xx upstream is an upstream error', async () => {
    fake.failNext({ status: 503, message: 'overloaded' });
    const err = await failure(provider.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }));
    expect(err).toMatchObject({ kind: 'upstream', status: 503 });
    expect(err.message).toContain('failed (HTTP 503)');
    expect(err.message).not.toContain('overloaded');
  });

  it('a slow upstream times out', async () => {
    const err = await failure(provider.chat({ model: 'slow-3000', messages: [{ role: 'user', content: 'x' }] }, { timeoutMs: 200 }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('did not answer within');
  });

  it('an unreachable base URL says so', async () => {
    const gone = new OpenAiCompatibleProvider({ name: 'gone', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, ...reach });
    const err = await failure(gone.listModels());
    expect(err.kind).toBe('unreachable');
    expect(err.message).toContain('Cannot reach gone (ECONNREFUSED)');
  });

  it('a cancelled request is cancelled', async () => {
    const controller = new AbortController();
    const pending = provider.chat({ model: 'slow-3000', messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).kind).toBe('cancelled');
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThanOrEqual(4);
  });
});
