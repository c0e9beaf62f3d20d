/**
 * The spool of small writes (WEFT_CLICKHOUSE_SMALL_WRITES=spool, docs/clickhouse.md "The
 * spool") in a real `weft serve` over a real engine, reached through a TCP relay that can be
 * stopped. The flush interval is ten minutes, so nothing leaves the spool by its timer: what
 * reaches the engine is what a restart replays or what a statement's barrier sends first.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader, createClient, type WeftClient } from '../../../client/index.js';
import { BIN, ROOT, spawnWeftServe, weftEnv } from '../../testing/serveProcess.js';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { rawRequest } from '../../testing/rawHttp.js';
import { startClickHouseFaultProxy, type FaultProxy } from '../../testing/clickhouseFaultProxy.js';
import { startWrite } from '../conformance/callWrites.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const ENTITY = 'spool-co';

/** A TCP relay to the engine that can be stopped (an engine down: connections refused) and started again on its port. */
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
    const server = this.#server!;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
}

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('the spool when the engine refuses a flush', () => {
    let store: ClickHouseStore;
    let proxy: FaultProxy;
    let dir: string;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      dir = mkdtempSync(join(tmpdir(), 'weft-spool-store-'));
      proxy = await startClickHouseFaultProxy(db.url);
      store = await ClickHouseStore.open({
        ...db,
        url: proxy.url,
        smallWrites: 'spool',
        spool: { path: join(dir, 'spool.sqlite'), flushMs: 600_000 },
      });
    });
    afterAll(async () => {
      await store.close();
      await proxy.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const ids = async (p: string) => {
      const out: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: p, sortBy: [{ field: 'id', direction: 'asc' }] })) out.push(c.id);
      return out;
    };
    const spoolCalls = () => proxy.inserts().calls ?? 0;

    it('sends many requests as one INSERT, and after a refused one sends each alone', async () => {
      const p = 'acme/spool-once';
      // The project's row is written with its first flush: the INSERT failed below is then the calls one.
      await store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, 'seed')] }]);
      expect(await ids(p)).toEqual(['seed']);
      const before = spoolCalls();
      await Promise.all(['a', 'b', 'c'].map((id) => store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, id)] }])));
      expect(spoolCalls()).toBe(before);
      proxy.failInsert(1, 'refused');
      // The read's barrier flushes: the merged INSERT is refused, then each entry lands alone.
      expect(await ids(p)).toEqual(['a', 'b', 'c', 'seed']);
      expect(proxy.failed()).toBe('calls');
      expect(spoolCalls() - before).toBe(4);
      expect(store.spool!.backlog).toBe(0);
    });

    it('sets aside an entry the engine refuses alone, so the ones behind it land', async () => {
      const p = 'acme/spool-refused';
      await store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, 'x')] }]);
      proxy.failEvery('calls', 'refused');
      try {
        expect(await ids(p)).toEqual([]);
      } finally {
        proxy.failEvery(null, 'refused');
      }
      expect(store.spool!.counts.refused).toBe(1);
      await store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, 'y')] }]);
      expect(await ids(p)).toEqual(['y']);
      expect(store.spool!.backlog).toBe(0);
    });
  });

  describe('the spool of small writes in weft serve', () => {
    let dataDir: string;
    let relay: Relay;
    let database: { url: string; database: string; drop(): Promise<void> };
    /** Straight to the engine, past the server and its spool. */
    let engine: ClickHouseDatabase;
    let apiKey = '';
    let server: { child: ChildProcess; url: string; client: WeftClient } | null = null;

    const env = () =>
      weftEnv({
        WEFT_DATA_DIR: dataDir,
        WEFT_STORE: 'clickhouse',
        WEFT_CLICKHOUSE_URL: `http://127.0.0.1:${relay.port}`,
        WEFT_CLICKHOUSE_DATABASE: database.database,
        WEFT_CLICKHOUSE_SMALL_WRITES: 'spool',
        WEFT_CLICKHOUSE_SPOOL_FLUSH_MS: '600000',
        WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS: '1000',
        WEFT_ADMIN_PASSWORD: 'spool-admin',
      });
    const cli = async (...args: string[]) =>
      (await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env: env() })).stdout;
    const serve = async () => {
      const { child, url } = await spawnWeftServe(env());
      server = { child, url, client: createClient({ baseUrl: url, auth: { username: 'api', password: apiKey } }) };
      return server;
    };
    /** The spool's backlog as the server's /metrics reports it. */
    const spooled = async (url: string) => {
      const res = await fetch(`${url}/metrics`, { headers: { authorization: basicAuthHeader('admin', 'spool-admin') } });
      return Number(/^weft_clickhouse_spool_batches (\d+)$/m.exec(await res.text())?.[1]);
    };
    /** Calls of the project the engine holds, started or not. */
    const inEngine = async (project: string) =>
      Number((await engine.get<{ n: string }>('SELECT count() AS n FROM calls WHERE project_id = {p:String}', { p: project }))!.n);
    const start = (project_id: string, id: string) => ({
      project_id,
      id,
      op_name: 'step',
      started_at: '2024-06-01T10:00:00Z',
      attributes: {},
      inputs: { id },
    });
    const end = (project_id: string, id: string) => ({
      project_id,
      id,
      ended_at: '2024-06-01T10:00:01Z',
      summary: {},
      output: `out-${id}`,
    });

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'weft-spool-'));
      database = await createTempClickHouseDatabase();
      engine = new ClickHouseDatabase(database);
      relay = new Relay(new URL(database.url));
      await relay.start();
      await cli('user', 'add', 'carol', '--entity', ENTITY, '--password', 'carol-pw');
      apiKey = (await cli('key', 'create', '--user', 'carol')).trim();
      await serve();
    });
    afterAll(async () => {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        const exited = once(server.child, 'exit');
        server.child.kill('SIGKILL');
        await exited;
      }
      await relay.stop().catch(() => {});
      await engine.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps acknowledged writes over a kill -9 before their flush, and sends them after the restart', async () => {
      const p = `${ENTITY}/killed`;
      const first = server!;
      const ids = ['a', 'b', 'c', 'd'];
      await Promise.all(ids.map((id) => first.client.callStart({ start: start(p, id) })));
      await Promise.all(ids.slice(0, 2).map((id) => first.client.callEnd({ end: end(p, id) })));
      // Acknowledged, and not yet in the engine: only the spool file holds them, as /metrics says.
      expect(await inEngine(p)).toBe(0);
      expect(await spooled(first.url)).toBeGreaterThan(0);

      const exited = once(first.child, 'exit');
      first.child.kill('SIGKILL');
      expect(await exited).toEqual([null, 'SIGKILL']);

      const second = await serve();
      const calls = (await second.client.callsQuery({ project_id: p, sort_by: [{ field: 'id', direction: 'asc' }] })).calls;
      expect(calls.map((c) => [c.id, c.output ?? null])).toEqual([
        ['a', 'out-a'],
        ['b', 'out-b'],
        ['c', null],
        ['d', null],
      ]);
      expect(await inEngine(p)).toBeGreaterThan(0);
      expect(await spooled(second.url)).toBe(0);
    });

    it('reads its own writes at once: a statement first sends what the spool holds', async () => {
      const p = `${ENTITY}/read-after-write`;
      const { client } = server!;
      await client.callStart({ start: start(p, 'x') });
      expect(await inEngine(p)).toBe(0);
      expect((await client.callRead({ project_id: p, id: 'x' })).call).toMatchObject({ id: 'x', inputs: { id: 'x' } });
      await client.callEnd({ end: end(p, 'x') });
      expect((await client.callsQueryStats({ project_id: p })).count).toBe(1);
      expect((await client.callRead({ project_id: p, id: 'x' })).call?.output).toBe('out-x');
    });

    it('with the engine down, answers 503 with Retry-After to what needs it, and loses nothing it acknowledged', async () => {
      const p = `${ENTITY}/outage`;
      const { client, url } = server!;
      const authorization = `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`;
      const post = (path: string, body: unknown) =>
        rawRequest(`${url}/${path}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      await relay.stop();
      // A small write goes to the spool (200) while the credentials and the project's redaction
      // rules are cached (about a second); one that needs the engine to check them answers 503.
      const acked: string[] = [];
      for (const id of ['o1', 'o2', 'o3']) {
        const res = await post('call/start', { start: start(p, id) });
        expect([200, 503]).toContain(res.status);
        if (res.status === 200) acked.push(id);
        else expect(res.headers['retry-after']).toBe('5');
      }
      const read = await post('calls/query_stats', { project_id: p });
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toBe('5');
      expect(read.text).toMatch(/ClickHouse/);

      await relay.start();
      const ids = (await client.callsQuery({ project_id: p, sort_by: [{ field: 'id', direction: 'asc' }] })).calls.map((c) => c.id);
      expect(ids).toEqual(expect.arrayContaining(acked));
    });
  });
});
