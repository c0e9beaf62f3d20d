/**
 * Project model providers (/weft/providers, /weft/models), the inference catalogues and
 * geolocate, over real HTTP against the OpenAI stand-in. Keys are sealed at rest and never
 * answered.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelsListRes, ProvidersListRes } from '../../contract/providers.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';

const SECRET_KEY = 'sk-project-secret-abcd';
let fake: FakeOpenAi;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: SECRET_KEY, models: ['llama3.2', 'qwen2.5'] });
  t = await startTestServer({ env: ALLOW_FAKE });
  // Changing a project's providers needs an admin of its entity (docs/security/roles.md).
  await t.server.store.accounts.setRole('alice', 'alice-co', 'admin');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/providers');
const send = (path: string, init: { method?: string; json?: unknown } = {}) => sendAsAlice(t)(path, init);
// The stand-in listens on 127.0.0.1: the server may reach it for admins' providers only.
const ALLOW_FAKE = { WEFT_OUTBOUND_ALLOW: '127.0.0.1' };
const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
/** As `send`, as the admin. */
const sendAsAdmin =
  (server: TestServer) =>
  async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await server.fetch(path, {
      method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
      headers: { authorization: ADMIN },
      body: JSON.stringify(init.json),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
const admin = (path: string, init: { method?: string; json?: unknown } = {}) => sendAsAdmin(t)(path, init);

async function addProvider(p: string, extra: Record<string, unknown> = {}) {
  const res = await admin('/weft/providers', {
    json: {
      project_id: p,
      name: 'local',
      base_url: fake.baseUrl,
      api_key: SECRET_KEY,
      models: [{ name: 'llama3.2', prompt_token_cost: 0.000001, completion_token_cost: 0.000002, context_length: 8192 }],
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body.provider;
}

describe('/weft/providers', () => {
  it('creates a provider whose key is masked in every answer and sealed in the database file', async () => {
    const p = project();
    const created = await addProvider(p);
    expect(created).toMatchObject({ name: 'local', source: 'project', api_key_mask: 'sk-…abcd', discovers_models: false });
    const listed = ProvidersListRes.parse((await send(`/weft/providers?project_id=${encodeURIComponent(p)}`)).body);
    expect(listed.providers.map((x) => x.name)).toEqual(['local']);
    expect(JSON.stringify(listed)).not.toContain(SECRET_KEY);

    // At rest: neither the SQLite file nor its WAL holds the key in the clear; the secret file is 0600.
    const files = ['weft.sqlite', 'weft.sqlite-wal'].map((f) => join(t.dataDir, f));
    for (const f of files) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(f);
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(SECRET_KEY))).toBe(false);
    }
    expect(statSync(join(t.dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('serves completions through the project provider with its key, priced from its models', async () => {
    const p = project();
    await addProvider(p);
    const res = await send('/completions/create', {
      json: { project_id: p, inputs: { model: 'local/llama3.2', messages: [{ role: 'user', content: 'a b c' }] } },
    });
    expect(res.body.response.choices[0].message.content).toBe('Echo: a b c');
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const { call } = await t.alice.client.callRead({ project_id: p, id: res.body.weave_call_id, include_costs: true });
    const cost = (call!.summary as any).weave.costs['llama3.2'];
    expect(cost.prompt_tokens_total_cost).toBeCloseTo(4 * 0.000001);
    expect(cost.completion_tokens_total_cost).toBeCloseTo(4 * 0.000002);
  });

  it('updates keeping the key unless given, replaces prices, and deletes', async () => {
    const p = project();
    const created = await addProvider(p);
    const updated = await send(`/weft/providers/${created.id}`, {
      method: 'PUT',
      json: { project_id: p, base_url: fake.baseUrl, models: [{ name: 'qwen2.5', prompt_token_cost: 0.5 }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.provider).toMatchObject({ api_key_mask: 'sk-…abcd', models: [{ name: 'qwen2.5', prompt_token_cost: 0.5 }] });
    const prices = (await send(`/weft/prices?project_id=${encodeURIComponent(p)}`)).body;
    expect(JSON.stringify(prices)).toContain('qwen2.5');
    expect(JSON.stringify(prices)).not.toContain('llama3.2');

    const wrongKey = await send(`/weft/providers/${created.id}`, { method: 'PUT', json: { project_id: p, api_key: 'sk-wrong-key-9999' } });
    expect(wrongKey.body.provider.api_key_mask).toBe('sk-…9999');
    const test = await send(`/weft/providers/${created.id}/test`, { json: { project_id: p } });
    expect(test.body).toMatchObject({ ok: false, models: [] });
    expect(test.body.error).toMatch(/refused the API key \(HTTP 401\)/);
    const chat = await send('/completions/create', {
      json: { project_id: p, inputs: { model: 'local/llama3.2', messages: [{ role: 'user', content: 'x' }] } },
    });
    expect(chat.status).toBe(200);
    expect(chat.body.response.error).toMatch(/refused the API key/);

    const del = await send(`/weft/providers/${created.id}?project_id=${encodeURIComponent(p)}`, { method: 'DELETE' });
    expect(del.body).toEqual({ deleted: true });
    expect((await send(`/weft/providers?project_id=${encodeURIComponent(p)}`)).body.providers).toEqual([]);
    expect(JSON.stringify((await send(`/weft/prices?project_id=${encodeURIComponent(p)}`)).body)).not.toContain('qwen2.5');
  });

  it('refuses a taken name (409), a bad URL (422) and other projects (403)', async () => {
    const p = project();
    await addProvider(p);
    expect((await admin('/weft/providers', { json: { project_id: p, name: 'local', base_url: fake.baseUrl } })).status).toBe(409);
    expect((await send('/weft/providers', { json: { project_id: p, name: 'x', base_url: 'not a url' } })).status).toBe(422);
    expect((await send('/weft/providers', { json: { project_id: p, name: 'bad name!', base_url: fake.baseUrl } })).status).toBe(422);
    expect((await send('/weft/providers', { json: { project_id: 'bob-co/x', name: 'x', base_url: fake.baseUrl } })).status).toBe(403);
  });
});

describe('GET /weft/models', () => {
  it('says what to configure when nothing is, then lists listed and discovered models', async () => {
    const p = project();
    const empty = ModelsListRes.parse((await send(`/weft/models?project_id=${encodeURIComponent(p)}`)).body);
    expect(empty).toMatchObject({ models: [], configured: false });
    expect(empty.help).toMatch(/OPENAI_API_KEY/);
    await addProvider(p);
    await addProvider(p, { name: 'discovering', models: [] });
    const listed = ModelsListRes.parse((await send(`/weft/models?project_id=${encodeURIComponent(p)}`)).body);
    expect(listed.models.map((m) => m.id).sort()).toEqual(['discovering/llama3.2', 'discovering/qwen2.5', 'local/llama3.2']);
    expect(listed.configured).toBe(true);
  });
});

describe('the inference catalogues and geolocate', () => {
  let withEnv: TestServer;
  beforeAll(async () => {
    withEnv = await startTestServer({ env: { OPENAI_API_KEY: SECRET_KEY, OPENAI_BASE_URL: fake.baseUrl, ...ALLOW_FAKE } });
  });
  afterAll(() => withEnv.close());

  it('are empty without instance providers, and list what the instance serves with one', async () => {
    const bare = await (await fetch(`${t.url}/inference/router/openrouter/models`)).json();
    expect(bare).toEqual({ data: [] });
    const listing = await (await fetch(`${withEnv.url}/inference/router/openrouter/models`)).json();
    expect(listing.data.map((m: any) => m.id)).toEqual(['openai/llama3.2', 'openai/qwen2.5']);
    expect(listing.data[0]).toMatchObject({ name: 'llama3.2', quantization: null, pricing: { prompt: '-1' } });
    const analysis = await (await fetch(`${withEnv.url}/inference/analysis/artificialanalysis/models`)).json();
    expect(analysis.data).toHaveLength(2);
    const catalog = await (await fetch(`${withEnv.url}/inference/catalog/models`)).json();
    expect(catalog.models[0]).toMatchObject({ id: 'openai/llama3.2', provider: 'openai', lifecycleStage: 'ga' });
  });

  it('hardware takes Bearer <api key> only', async () => {
    const url = `${withEnv.url}/inference/nvidia/v2/hardware?model=llama3.2`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${withEnv.alice.apiKey}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).hardware).toEqual([
      expect.objectContaining({
        id: 'openai/llama3.2',
        type: 'serverless',
        pricing: { cents_per_million_input_tokens: null, cents_per_million_output_tokens: null },
      }),
    ]);
  });

  it('geolocate allows inference once a provider is configured', async () => {
    expect((await (await withEnv.fetch('/geolocate')).json()).allowed).toBe(true);
    const fresh = await startTestServer({ env: ALLOW_FAKE });
    try {
      expect((await (await fresh.fetch('/geolocate')).json()).allowed).toBe(false);
      await sendAsAdmin(fresh)('/weft/providers', { json: { project_id: 'alice-co/geo', name: 'p', base_url: fake.baseUrl } });
      expect((await (await fresh.fetch('/geolocate')).json()).allowed).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
