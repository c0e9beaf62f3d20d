/**
 * /completions/create, /completions/create_stream and /image/create over real HTTP, with the
 * OpenAI stand-in (testing/fakeOpenAi.ts) as the instance provider configured by
 * OPENAI_API_KEY / OPENAI_BASE_URL alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompletionsCreateRes, ImageGenerationCreateRes } from '../../contract/completions.js';
import { collect, projectNames, sendAsAlice, useTestServer } from '../testing/serverSuite.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let fake: FakeOpenAi;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-test-key-0001' });
  t = await startTestServer({
    env: {
      OPENAI_API_KEY: 'sk-test-key-0001',
      OPENAI_BASE_URL: fake.baseUrl,
      WEFT_OUTBOUND_ALLOW: '127.0.0.1',
      WEFT_PROVIDER_TIMEOUT_MS: '1000',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/completions');
const send = (path: string, json: unknown) => sendAsAlice(t)(path, { json });

describe('POST /completions/create', () => {
  it('answers the completion and records a weave.completions_create call with usage and cost', async () => {
    const p = project();
    const res = await send('/completions/create', {
      project_id: p,
      inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello world' }], temperature: 0.5 },
    });
    expect(res.status).toBe(200);
    const body = CompletionsCreateRes.parse(res.body);
    expect((body.response.choices as any)[0].message.content).toBe('Echo: hello world');
    const { call } = await t.alice.client.callRead({ project_id: p, id: body.weave_call_id!, include_costs: true });
    expect(call!.op_name).toBe('weave.completions_create');
    expect(call!.inputs).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello world' }], temperature: 0.5 });
    expect((call!.output as any).choices[0].message.content).toBe('Echo: hello world');
    expect((call!.summary as any).usage['gpt-4o-mini']).toMatchObject({ prompt_tokens: 3, completion_tokens: 3 });
    // gpt-4o-mini is in the default price list: the call has a cost.
    expect((call!.summary as any).weave.costs['gpt-4o-mini'].prompt_tokens).toBe(3);
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.5 });
  });

  it('accepts <provider>/<model> and the reference custom::<provider>::<model>', async () => {
    const p = project();
    for (const model of ['openai/llama3.2', 'custom::openai::llama3.2']) {
      const res = await send('/completions/create', { project_id: p, inputs: { model, messages: [{ role: 'user', content: 'hi' }] } });
      expect(res.status).toBe(200);
      expect(fake.requests.at(-1)!.body.model).toBe('llama3.2');
    }
  });

  it('does not record a call when track_llm_call is false', async () => {
    const p = project();
    const res = await send('/completions/create', {
      project_id: p,
      track_llm_call: false,
      inputs: { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(res.body.weave_call_id).toBeNull();
    expect(await collect(t.alice.client.callsStreamQuery({ project_id: p }))).toHaveLength(0);
  });

  it('fills a MessagesPrompt and template_vars, tracking the caller messages only', async () => {
    const p = project();
    const { digest } = await t.alice.client.objCreate({
      obj: {
        project_id: p,
        object_id: 'greeter',
        val: { _class_name: 'MessagesPrompt', messages: [{ role: 'system', content: 'You greet {name}.' }] },
      },
    });
    const res = await send('/completions/create', {
      project_id: p,
      inputs: {
        model: 'gpt-4o',
        prompt: `weave:///${p}/object/greeter:${digest}`,
        template_vars: { name: 'Ada' },
        messages: [{ role: 'user', content: 'Hi {name}' }],
      },
    });
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'You greet Ada.' },
      { role: 'user', content: 'Hi Ada' },
    ]);
    const { call } = await t.alice.client.callRead({ project_id: p, id: res.body.weave_call_id });
    expect(call!.inputs.messages).toEqual([{ role: 'user', content: 'Hi {name}' }]);
  });

  for (const [name, model, expected] of [
    ['429 with Retry-After', 'fail-429', /rate limiting requests \(HTTP 429\).*Retry after 7 s/],
    ['5xx upstream', 'fail-500', /failed \(HTTP 500\)/],
    ['a timeout', 'slow-3000', /did not answer within 1 s/],
  ] as const) {
    it(`answers ${name} as response.error (200) and records the error on the call`, async () => {
      const p = project();
      const res = await send('/completions/create', { project_id: p, inputs: { model, messages: [{ role: 'user', content: 'x' }] } });
      expect(res.status).toBe(200);
      expect(res.body.response.error).toMatch(expected);
      const { call } = await t.alice.client.callRead({ project_id: p, id: res.body.weave_call_id });
      expect(call!.exception).toMatch(expected);
    });
  }

  it('validates the request (422) and checks project access (403)', async () => {
    expect((await send('/completions/create', { project_id: project(), inputs: { messages: [] } })).status).toBe(422);
    expect((await send('/completions/create', { project_id: 'bob-co/x', inputs: { model: 'gpt-4o' } })).status).toBe(403);
  });
});

describe('POST /completions/create_stream', () => {
  it('streams _meta then the chunks, and ends the call with the accumulated response', async () => {
    const p = project();
    const lines = await collect(
      t.alice.client.completionsCreateStream({
        project_id: p,
        inputs: { model: 'gpt-4o', messages: [{ role: 'user', content: 'stream me please' }] },
      }),
    );
    const callId = (lines[0] as any)._meta.weave_call_id;
    expect(callId).toBeTruthy();
    const text = lines
      .slice(1)
      .map((c: any) => c.choices?.[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('Echo: stream me please');
    const { call } = await t.alice.client.callRead({ project_id: p, id: callId });
    expect((call!.output as any).choices[0].message.content).toBe('Echo: stream me please');
    expect((call!.summary as any).usage['gpt-4o'].completion_tokens).toBe(4);
  });

  it('ends with an {error} line on an upstream failure', async () => {
    const lines = await collect(
      t.alice.client.completionsCreateStream({
        project_id: project(),
        inputs: { model: 'fail-500', messages: [{ role: 'user', content: 'x' }] },
      }),
    );
    expect((lines.at(-1) as any).error).toMatch(/HTTP 500/);
  });
});

describe('POST /image/create', () => {
  it('stores each image as a Weave Content (files) and records the call', async () => {
    const p = project();
    const res = await send('/image/create', { project_id: p, inputs: { model: 'dall-e-2', prompt: 'a red square', n: 2 } });
    expect(res.status).toBe(200);
    const body = ImageGenerationCreateRes.parse(res.body);
    const data = body.response.data as any[];
    expect(data).toHaveLength(2);
    const content = data[0].b64_json;
    expect(content).toMatchObject({ _type: 'CustomWeaveType', weave_type: { type: 'weave.type_wrappers.Content.content.Content' } });
    const bytes = await t.fetch('/file/content', { json: { project_id: p, digest: content.files.content } });
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const meta = await (await t.fetch('/file/content', { json: { project_id: p, digest: content.files['metadata.json'] } })).json();
    expect(meta).toMatchObject({ mimetype: 'image/png', metadata: { source_index: 0, _original_schema: 'b64_json' } });
    const { call } = await t.alice.client.callRead({ project_id: p, id: body.weave_call_id! });
    expect(call!.op_name).toBe('weave.image_generation_create');
    expect(call!.inputs).toEqual({ model: 'dall-e-2', prompt: 'a red square', n: 2 });
  });
});

describe('with no provider configured', () => {
  const bare = useTestServer();
  it('/image/create answers the reference error and /completions/create says what to configure', async () => {
    const sendBare = (path: string, json: unknown) => sendAsAlice(bare)(path, { json });
    const image = await sendBare('/image/create', { project_id: 'alice-co/none', inputs: { model: 'dall-e-3', prompt: 'x' } });
    expect(image).toEqual({ status: 200, body: { response: { error: 'No OpenAI API key found' }, weave_call_id: null } });
    const chat = await sendBare('/completions/create', {
      project_id: 'alice-co/none',
      inputs: { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(chat.status).toBe(200);
    expect(chat.body.response.error).toMatch(/No model provider is configured. Set OPENAI_API_KEY/);
    expect(chat.body.weave_call_id).toBeNull();
  });
});
