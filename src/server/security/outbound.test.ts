/**
 * Server-side request forgery, read-back and key theft through model providers, attacked over
 * HTTP as a member (alice) or an admin would, against a real server. "Internal services" are
 * canary listeners on 127.0.0.1 that record every request: each attack asserts its canary was
 * never reached. Only the model servers listed in WEFT_OUTBOUND_ALLOW (by port) are reachable.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';

interface Listener {
  port: number;
  url: string;
  hits: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  /** Bytes written to clients, for the caps. */
  sent: number;
  close(): Promise<void>;
}

/** A real HTTP listener on 127.0.0.1 recording every request; `answer` writes the response. */
async function listen(answer: (req: IncomingMessage, res: ServerResponse, l: Listener) => void): Promise<Listener> {
  const listener: Listener = { port: 0, url: '', hits: [], sent: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    listener.hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res, listener));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  listener.port = (server.address() as AddressInfo).port;
  listener.url = `http://127.0.0.1:${listener.port}`;
  listener.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return listener;
}

const SECRET = 'CANARY-SECRET-7f3a';
const KEY = 'sk-owner-key-5555';
const MiB = 1024 * 1024;

let fake: FakeOpenAi;
/** An internal service (think ClickHouse's HTTP port): never allowed, must never be reached. */
let canary: Listener;
/** An allowed "model server" that redirects every request to the canary. */
let redirector: Listener;
/** An allowed listener standing for a host an attacker controls: records what keys reach it. */
let catcher: Listener;
/** An allowed "model server" answering whatever the test scripts: secrets, huge bodies, image URLs. */
let scripted: Listener;
let script: (req: IncomingMessage, res: ServerResponse, l: Listener) => void = (_, res) => res.end('{}');
let t: TestServer;
/** The name `rebind.test` resolves to a public address the first time, then to 127.0.0.1. */
let rebindLookups = 0;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: KEY, models: ['llama3.2'] });
  canary = await listen((_, res) => res.end(SECRET));
  redirector = await listen((req, res) => {
    res.writeHead(req.method === 'GET' ? 302 : 307, { location: `${canary.url}${req.url}` });
    res.end();
  });
  catcher = await listen((_, res) => res.end(JSON.stringify({ data: [{ id: 'stolen' }] })));
  scripted = await listen((req, res, l) => script(req, res, l));
  const allowed = [fake.baseUrl, redirector.url, catcher.url, scripted.url].map((u) => new URL(u).host);
  t = await startTestServer({
    env: {
      WEFT_OUTBOUND_ALLOW: allowed.join(','),
      WEFT_MAX_PROVIDER_ANSWER_BYTES: String(1 * MiB),
      WEFT_MAX_FILE_BYTES: String(2 * MiB),
    },
    resolveHost: async (hostname) => {
      if (hostname === 'rebind.test') return [{ address: rebindLookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      if (hostname === 'intranet.test') return [{ address: '10.1.2.3', family: 4 }];
      if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
    },
  });
  // Alice administers her entity (changing its providers needs that, docs/security/roles.md) but is
  // not a global admin: what these tests are about.
  await t.server.store.accounts.setRole('alice', 'alice-co', 'admin');
});
afterAll(async () => {
  await t.close();
  await Promise.all([fake.close(), canary.close(), redirector.close(), catcher.close(), scripted.close()]);
});

const project = projectNames('alice-co/outbound');
const alice = (path: string, init: { method?: string; json?: unknown } = {}) => sendAsAlice(t)(path, init);
const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
async function admin(path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await t.fetch(path, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers: { authorization: ADMIN },
    body: JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}
const chat = (p: string, model: string) =>
  alice('/completions/create', { json: { project_id: p, inputs: { model, messages: [{ role: 'user', content: 'hi' }] } } });

describe('a member cannot point a provider at an internal address', () => {
  for (const [what, host] of [
    ['loopback', () => `127.0.0.1:${canary.port}`],
    ['a name resolving to loopback', () => `localhost:${canary.port}`],
    ['IPv4-mapped IPv6 loopback', () => `[::ffff:127.0.0.1]:${canary.port}`],
    ['IPv6 loopback', () => `[::1]:${canary.port}`],
    ['the cloud metadata address', () => '169.254.169.254'],
    ['a name resolving to a private network', () => 'intranet.test'],
    ['the unspecified address', () => `0.0.0.0:${canary.port}`],
  ] as const) {
    it(`refuses ${what} with 400, and nothing is fetched`, async () => {
      const before = canary.hits.length;
      const res = await alice('/weft/providers', { json: { project_id: project(), name: 'x', base_url: `http://${host()}/v1` } });
      expect(res.status).toBe(400);
      expect(res.body.reason).toMatch(/which this server does not connect to/);
      expect(canary.hits.length).toBe(before);
    });
  }

  it('refuses a member (403) an address WEFT_OUTBOUND_ALLOW opens, which an admin may use', async () => {
    const p = project();
    const res = await alice('/weft/providers', { json: { project_id: p, name: 'x', base_url: fake.baseUrl } });
    expect(res.status).toBe(403);
    expect(res.body.reason).toMatch(/Only an admin .* WEFT_OUTBOUND_ALLOW/);
    expect((await admin('/weft/providers', { json: { project_id: p, name: 'x', base_url: fake.baseUrl, api_key: KEY } })).status).toBe(200);
    expect((await chat(p, 'x/llama3.2')).body.response.choices[0].message.content).toBe('Echo: hi');
  });

  it('checks at connect time: a name that resolved to a public address and then to loopback reaches nothing', async () => {
    const p = project();
    rebindLookups = 0;
    const created = await alice('/weft/providers', {
      json: { project_id: p, name: 'rebind', base_url: `http://rebind.test:${canary.port}/v1` },
    });
    expect(created.status).toBe(200);
    const test = await alice(`/weft/providers/${created.body.provider.id}/test`, { json: { project_id: p } });
    expect(test.body).toMatchObject({ ok: false, models: [] });
    expect(test.body.error).toMatch(/rebind\.test resolves to a loopback address, which this server does not connect to/);
    expect((await chat(p, 'rebind/m')).body.response.error).toMatch(/loopback address/);
    const models = await alice(`/weft/models?project_id=${p}`);
    expect(models.body.errors[0].message).toMatch(/loopback address/);
    expect(rebindLookups).toBeGreaterThan(1);
    expect(canary.hits).toEqual([]);
  });
});

describe('redirects are not followed', () => {
  it('neither a 307 on POST nor a 302 on GET reaches the canary, and the key stays home', async () => {
    const p = project();
    const created = await admin('/weft/providers', {
      json: { project_id: p, name: 'redir', base_url: `${redirector.url}/v1`, api_key: KEY, auth_style: 'api-key' },
    });
    expect(created.status).toBe(200);
    const res = await chat(p, 'redir/m');
    expect(res.body.response.error).toMatch(/answered a redirect \(HTTP 307\), which Weft does not follow/);
    const test = await alice(`/weft/providers/${created.body.provider.id}/test`, { json: { project_id: p } });
    expect(test.body.error).toMatch(/redirect \(HTTP 302\)/);
    expect(redirector.hits.length).toBe(2);
    expect(canary.hits).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });
});

describe('upstream bodies never come back in errors', () => {
  it('an error answer, a non-JSON answer and a stream error are reported by status only', async () => {
    const p = project();
    await admin('/weft/providers', { json: { project_id: p, name: 's', base_url: `${scripted.url}/v1` } });
    const answers: [number, string, string][] = [
      [500, 'text/plain', `Code: 516. DB::Exception: ${SECRET}`],
      [403, 'application/json', JSON.stringify({ error: { message: SECRET, type: SECRET } })],
      [200, 'text/plain', `${SECRET} not json`],
      [200, 'text/event-stream', `data: ${SECRET}\n\n`],
    ];
    for (const [status, type, body] of answers) {
      script = (_, res) => res.writeHead(status, { 'content-type': type }).end(body);
      const res = await chat(p, 's/m');
      expect(res.body.response.error).toMatch(new RegExp(`HTTP ${status}|not JSON`));
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const models = await alice(`/weft/models?project_id=${p}`);
      expect(JSON.stringify(models.body)).not.toContain(SECRET);
    }
    const stream = await t.fetch('/completions/create_stream', {
      json: { project_id: p, inputs: { model: 's/m', stream: true, messages: [{ role: 'user', content: 'x' }] } },
    });
    expect(await stream.text()).not.toContain(SECRET);
  });
});

describe('answers are capped while they stream', () => {
  /** Streams `total` bytes of a JSON string, counting what was written until the client hung up. */
  const huge =
    (total: number, type = 'application/json') =>
    (req: IncomingMessage, res: ServerResponse, l: Listener) => {
      res.writeHead(200, { 'content-type': type });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = total;
      const pump = () => {
        while (left > 0) {
          left -= chunk.length;
          l.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (left = 0));
      pump();
    };

  it('a chat answer past WEFT_MAX_PROVIDER_ANSWER_BYTES is cut off and reported', async () => {
    const p = project();
    await admin('/weft/providers', { json: { project_id: p, name: 'big', base_url: `${scripted.url}/v1` } });
    scripted.sent = 0;
    script = huge(200 * MiB);
    const res = await chat(p, 'big/m');
    expect(res.body.response.error).toMatch(/more than 1048576 bytes, the limit \(WEFT_MAX_PROVIDER_ANSWER_BYTES\)/);
    // The server stopped reading near the cap; socket buffers hold a few MB at most.
    expect(scripted.sent).toBeLessThan(32 * MiB);

    scripted.sent = 0;
    script = huge(200 * MiB, 'text/event-stream');
    const stream = await t.fetch('/completions/create_stream', {
      json: { project_id: p, inputs: { model: 'big/m', messages: [{ role: 'user', content: 'x' }] } },
    });
    expect(await stream.text()).toMatch(/WEFT_MAX_PROVIDER_ANSWER_BYTES/);
    expect(scripted.sent).toBeLessThan(32 * MiB);
  });

  it('an image URL is fetched within WEFT_MAX_FILE_BYTES, without the key, and only where the provider may reach', async () => {
    const p = project();
    await admin('/weft/providers', { json: { project_id: p, name: 'img', base_url: `${scripted.url}/v1`, api_key: KEY } });
    const imageAt = (url: string) => (req: IncomingMessage, res: ServerResponse, l: Listener) =>
      req.url === '/v1/images/generations'
        ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ url }] }))
        : huge(100 * MiB, 'image/png')(req, res, l);
    const create = () => alice('/image/create', { json: { project_id: p, inputs: { model: 'img/dall-e-2', prompt: 'x' } } });

    scripted.sent = 0;
    script = imageAt(`${scripted.url}/huge.png`);
    const big = await create();
    expect(big.status).toBe(200);
    expect(big.body.response.error).toMatch(/more than 2097152 bytes, the limit \(WEFT_MAX_FILE_BYTES\)/);
    expect(big.body.weave_call_id).toBeNull();
    expect(scripted.sent).toBeLessThan(32 * MiB);
    const download = scripted.hits.find((h) => h.path === '/huge.png')!;
    expect(download.headers.authorization).toBeUndefined();

    script = imageAt(`${canary.url}/?query=SELECT+password_hash+FROM+users`);
    const internal = await create();
    expect(internal.body.response.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(canary.hits).toEqual([]);
  });
});

describe('a stored key only goes where its owner sent it', () => {
  async function keyed(p: string) {
    const res = await admin('/weft/providers', {
      json: { project_id: p, name: 'k', base_url: fake.baseUrl, api_key: KEY, headers: { 'x-org': 'org-secret' } },
    });
    return res.body.provider.id as string;
  }

  for (const [what, change] of [
    ['base_url', () => ({ base_url: `${catcher.url}/v1`, headers: {} })],
    ['headers', () => ({ headers: { 'x-other': '1' } })],
    ['auth_style', () => ({ auth_style: 'api-key' })],
  ] as const) {
    it(`refuses a change of ${what} without the key (400), and the key never reaches another host`, async () => {
      const p = project();
      const id = await keyed(p);
      for (const send of [alice, admin]) {
        const res = await send(`/weft/providers/${id}`, { method: 'PUT', json: { project_id: p, ...change() } });
        expect(res.status).toBe(400);
        expect(res.body.reason).toMatch(new RegExp(`Changing ${what}.* give api_key again`));
      }
      await alice(`/weft/providers/${id}/test`, { json: { project_id: p } });
      await chat(p, 'k/llama3.2');
      expect(JSON.stringify(catcher.hits)).not.toContain(KEY);
      expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    });
  }

  it('a change of base_url keeps no stored header values unless given again', async () => {
    const p = project();
    const id = await keyed(p);
    const res = await admin(`/weft/providers/${id}`, {
      method: 'PUT',
      json: { project_id: p, base_url: `${catcher.url}/v1`, api_key: 'sk-new-1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(/give headers again/);
    const moved = await admin(`/weft/providers/${id}`, {
      method: 'PUT',
      json: { project_id: p, base_url: `${catcher.url}/v1`, api_key: 'sk-new-1', headers: {} },
    });
    expect(moved.status).toBe(200);
    await alice(`/weft/providers/${id}/test`, { json: { project_id: p } });
    expect(catcher.hits.at(-1)!.headers.authorization).toBe('Bearer sk-new-1');
    expect(JSON.stringify(catcher.hits)).not.toContain(KEY);
    expect(JSON.stringify(catcher.hits)).not.toContain('org-secret');
  });

  it('refuses headers that would redirect the request (Host) or break its framing', async () => {
    for (const headers of [{ host: 'evil.example' }, { 'transfer-encoding': 'chunked' }, { 'x-a': 'b\r\nx-injected: 1' }]) {
      const res = await admin('/weft/providers', { json: { project_id: project(), name: 'h', base_url: fake.baseUrl, headers } });
      expect(res.status).toBe(400);
    }
  });
});

describe('instance providers', () => {
  it("show their base URL to admins only (it names the operator's network)", async () => {
    const withEnv = await startTestServer({
      env: { OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: KEY, WEFT_OUTBOUND_ALLOW: new URL(fake.baseUrl).host },
    });
    try {
      const asAlice = await sendAsAlice(withEnv)('/weft/providers?project_id=alice-co/x');
      expect(asAlice.body.providers[0]).toMatchObject({ name: 'openai', source: 'instance', base_url: null });
      expect(JSON.stringify(asAlice.body)).not.toContain(fake.baseUrl);
      const res = await withEnv.fetch('/weft/providers?project_id=alice-co/x', { headers: { authorization: ADMIN } });
      expect((await res.json()).providers[0].base_url).toBe(fake.baseUrl);
      // The operator's own provider reaches the address WEFT_OUTBOUND_ALLOW opens.
      const models = await sendAsAlice(withEnv)('/weft/models?project_id=alice-co/x');
      expect(models.body.models.map((m: any) => m.id)).toEqual(['openai/llama3.2']);
    } finally {
      await withEnv.close();
    }
  });

  it('reach nothing non-public that WEFT_OUTBOUND_ALLOW does not open', async () => {
    const bare = await startTestServer({ env: { OPENAI_BASE_URL: `${canary.url}/v1`, WEFT_OUTBOUND_ALLOW: '' } });
    try {
      const models = await sendAsAlice(bare)('/weft/models?project_id=alice-co/x');
      expect(models.body.errors[0].message).toMatch(/loopback address, which this server does not connect to: an operator can allow/);
      expect(canary.hits).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
