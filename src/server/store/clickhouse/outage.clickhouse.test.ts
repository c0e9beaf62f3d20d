/**
 * ClickHouse going away under a running server: the server reaches the test run's engine
 * through a TCP relay on 127.0.0.1, and the relay is stopped (its connections dropped, its port
 * refusing) and started again. Meanwhile API requests answer 503 with `Retry-After` and a reason
 * naming ClickHouse, `/ready` answers 503, `/health` 200; once the relay is back, both recover.
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';

/** A TCP relay to `target` that can be stopped and started again on the same port. */
class Relay {
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();
  port = 0;
  constructor(readonly target: URL) {}

  async start(): Promise<void> {
    const server = createServer((inbound) => {
      const outbound = connect({ host: this.target.hostname, port: Number(this.target.port) });
      for (const s of [inbound, outbound]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {});
      }
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('ClickHouse unreachable', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
  let relay: Relay;
  let t: TestServer;
  beforeAll(async () => {
    db = await createTempClickHouseDatabase();
    relay = new Relay(new URL(db.url));
    await relay.start();
    t = await startTestServer({
      env: { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: `http://127.0.0.1:${relay.port}`, WEFT_CLICKHOUSE_DATABASE: db.database },
    });
  });
  afterAll(async () => {
    await relay.start().catch(() => {});
    await t?.close();
    await relay.stop();
    await db.drop();
  });

  let n = 0;
  const startCall = () =>
    t.fetch('/call/start', {
      json: {
        start: { project_id: 'alice-co/ch', id: `c${++n}`, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
      },
    });

  it('answers 503 with Retry-After and says so in /ready, then recovers', async () => {
    expect((await fetch(`${t.url}/ready`)).status).toBe(200);
    expect((await startCall()).status).toBe(200);

    await relay.stop();
    const write = await startCall();
    expect(write.status).toBe(503);
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    const reason = ((await write.json()) as { reason: string }).reason;
    expect(reason).toMatch(
      new RegExp(`^ClickHouse at http://127\\.0\\.0\\.1:${relay.port} cannot be reached \\((ECONNREFUSED|ECONNRESET)\\)`),
    );
    expect(reason).toContain('WEFT_CLICKHOUSE_URL');
    const read = await t.fetch('/calls/stream_query', { json: { project_id: 'alice-co/ch' } });
    expect(read.status).toBe(503);
    const ready = await fetch(`${t.url}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      store: 'clickhouse',
      reason: expect.stringMatching(/cannot be reached/),
    });
    expect((await fetch(`${t.url}/health`)).status).toBe(200);

    await relay.start();
    expect((await fetch(`${t.url}/ready`)).status).toBe(200);
    expect((await startCall()).status).toBe(200);
  });
});
