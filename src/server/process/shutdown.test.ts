/**
 * Graceful shutdown (shutdown.ts, docs/operations/shutdown-and-readiness.md).
 *
 * Over raw sockets: a test server's drain refuses new connections, lets a request in flight
 * finish (answered with `Connection: close`) and cuts off what outlasts the grace period; the
 * gate answers a request that arrives on a kept-alive connection meanwhile with 503.
 *
 * The real `weft serve` process under a stream of writes from several clients: SIGTERM ends it
 * with status 0 within the grace period; every write acknowledged with a 2xx is there after a
 * restart on the same data directory; every client whose request did not succeed got a 503 or
 * a connection error, and none hung (each request is bounded by a timeout).
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainGate } from './shutdown.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { BIN, ROOT, spawnWeftServe, weftEnv } from '../testing/serveProcess.js';

/** Opens a socket to `url` and resolves once connected. */
async function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  return socket;
}

/** Everything the socket receives until the server closes it. */
function received(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

describe('the drain of a test server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('finishes the request in flight with Connection: close and refuses new connections', async () => {
    const body = JSON.stringify({
      start: {
        project_id: 'alice-co/drain',
        id: 'in-flight',
        op_name: 'op',
        started_at: '2024-01-01T00:00:00Z',
        attributes: {},
        inputs: {},
      },
    });
    // In flight: the headers and part of the body have arrived.
    const slow = await openSocket(t.url);
    const slowAnswer = received(slow);
    slow.write(
      `POST /call/start HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.alice.authHeader}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    let closed = false;
    const closing = t.server.close(10_000).then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(openSocket(t.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(closed).toBe(false);

    slow.write(body.slice(20));
    const slowText = await slowAnswer;
    expect(slowText).toMatch(/^HTTP\/1\.1 200 /);
    expect(slowText).toMatch(/\r\nconnection: close\r\n/i);
    await closing;
  });
});

describe('the drain gate', () => {
  it('answers a request arriving on a kept-alive connection during the drain with 503, Connection: close and Retry-After', async () => {
    // A response whose headers went out before the drain keeps its connection alive (Node goes
    // on serving such connections after server.close()): the next request on it meets the gate.
    const finish = new Map<string, () => void>();
    const server = createHttpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started ');
      finish.set(req.url!, () => res.end(`finished ${req.url}`));
    });
    const gate = drainGate(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const socket = await openSocket(url);
    const answer = received(socket);
    socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    // Another request in flight keeps the drain going.
    const other = await openSocket(url);
    const otherAnswer = received(other);
    other.write('GET /other HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gate.inFlight).toBe(2);

    const drained = gate.drain(10_000);
    finish.get('/first')!();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('GET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await answer;
    expect(text).toContain('finished /first');
    const second = text.slice(text.indexOf('HTTP/1.1', 10));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 2\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain('The server is shutting down');
    expect(gate.inFlight).toBe(1);
    finish.get('/other')!();
    expect(await otherAnswer).toContain('finished /other');
    expect(await drained).toEqual({ unfinished: 0 });
  });
});

describe('the drain past its grace period', () => {
  it('cuts off a request that outlasts it', async () => {
    const t = await startTestServer();
    try {
      const stuck = await openSocket(t.url);
      const answer = received(stuck);
      stuck.write(
        `POST /call/start HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.alice.authHeader}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const began = performance.now();
      await t.server.close(300);
      const took = performance.now() - began;
      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(5000);
      // Cut off without an answer.
      expect(await answer).toBe('');
    } finally {
      await t.close().catch(() => {});
    }
  });
});

const ENTITY = 'drain-co';
const GRACE_MS = 5000;

describe('SIGTERM to weft serve during a stream of writes', { timeout: 180_000 }, () => {
  let dataDir: string;
  let apiKey: string;
  const running = new Set<ChildProcess>();
  const env = () =>
    weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_STORE: 'sqlite', WEFT_ADMIN_PASSWORD: 'drain-admin', WEFT_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  const cli = async (...args: string[]) => (await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env: env() })).stdout;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'weft-drain-'));
    await cli('user', 'add', 'dana', '--entity', ENTITY);
    apiKey = (await cli('key', 'create', '--user', 'dana')).trim();
  });
  afterEach(async () => {
    for (const child of running) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function serve(): Promise<{ child: ChildProcess; url: string }> {
    const s = await spawnWeftServe(env());
    running.add(s.child);
    s.child.once('exit', () => running.delete(s.child));
    return s;
  }

  it('exits 0 within the grace period, keeps every acknowledged write, and answers every other request with an error', async () => {
    const project_id = `${ENTITY}/stream`;
    const auth = `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`;
    const first = await serve();
    const exited = once(first.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    type Outcome =
      { kind: 'ok'; ids: string[] } | { kind: 'refused'; status: number } | { kind: 'connection'; message: string } | { kind: 'hung' };
    const outcomes: Outcome[] = [];
    let acknowledgedBeforeSignal = 0;
    let signalled = false;
    /** One client: batches of starts and ends (or single starts) until a request does not succeed. */
    const client = async (c: number) => {
      for (let b = 0; ; b++) {
        const ids = Array.from({ length: c % 2 ? 1 : 40 }, (_, i) => `c${c}-b${b}-${i}`);
        const [path, body] =
          ids.length === 1
            ? [
                '/call/start',
                { start: { project_id, id: ids[0], op_name: 'op', started_at: '2024-06-01T10:00:00Z', attributes: {}, inputs: {} } },
              ]
            : [
                '/call/upsert_batch',
                {
                  batch: ids.flatMap((id) => [
                    {
                      mode: 'start',
                      req: { start: { project_id, id, op_name: 'op', started_at: '2024-06-01T10:00:00Z', attributes: {}, inputs: { id } } },
                    },
                    { mode: 'end', req: { end: { project_id, id, ended_at: '2024-06-01T10:00:01Z', summary: {}, output: id } } },
                  ]),
                },
              ];
        let res: Response;
        try {
          res = await fetch(`${first.url}${path}`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify(body),
            // Far above a write's time, far below the test's: a request that hangs shows as "hung".
            signal: AbortSignal.timeout(GRACE_MS + 20_000),
          });
          await res.arrayBuffer();
        } catch (err) {
          const e = err as Error & { cause?: { code?: string } };
          outcomes.push(
            e.name === 'TimeoutError' ? { kind: 'hung' } : { kind: 'connection', message: `${e.message} ${e.cause?.code ?? ''}` },
          );
          return;
        }
        if (res.ok) {
          outcomes.push({ kind: 'ok', ids });
          if (!signalled) acknowledgedBeforeSignal++;
          continue;
        }
        outcomes.push({ kind: 'refused', status: res.status });
        return;
      }
    };
    const clients = Array.from({ length: 6 }, (_, c) => client(c));
    // Mid-stream: once some writes were acknowledged.
    while (acknowledgedBeforeSignal < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const began = performance.now();
    signalled = true;
    first.child.kill('SIGTERM');
    const [code, signal] = await exited;
    const took = performance.now() - began;
    await Promise.all(clients);

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(GRACE_MS + 5000);
    expect(outcomes.filter((o) => o.kind === 'hung')).toEqual([]);
    // Each client's last request failed (the server went away), with a 503 or a connection error.
    const failures = outcomes.filter((o) => o.kind !== 'ok');
    expect(failures).toHaveLength(6);
    for (const f of failures) {
      if (f.kind === 'refused') expect(f.status).toBe(503);
      else expect(f.kind).toBe('connection');
    }

    const acknowledged = outcomes.flatMap((o) => (o.kind === 'ok' ? o.ids : []));
    expect(acknowledged.length).toBeGreaterThan(20);
    const second = await serve();
    const found = new Set<string>();
    const res = await fetch(`${second.url}/calls/stream_query`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/jsonl' },
      body: JSON.stringify({ project_id, columns: ['id'] }),
    });
    expect(res.status).toBe(200);
    for (const line of (await res.text()).split('\n')) if (line) found.add((JSON.parse(line) as { id: string }).id);
    expect(acknowledged.filter((id) => !found.has(id))).toEqual([]);
    // The restart found the database closed cleanly: nothing to recover, and it answers at once.
    expect((await fetch(`${second.url}/ready`)).status).toBe(200);
  });
});
