/**
 * ClickHouse going away under a running server: the server reaches the test run's engine
 * through a TCP relay on 127.0.0.1, and the relay plays each kind of outage: stopped (its
 * connections dropped, its port refusing, as a killed engine), frozen (connections accepted and
 * held without an answer, as a SIGSTOPped or wedged engine) and resetting (each answer cut off
 * after its first bytes). Meanwhile a mixed load of reads and writes gets only 2xx or 503 with
 * `Retry-After` and a reason naming ClickHouse, within WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS or so;
 * `/ready` answers 503, `/health` 200; once the relay forwards again everything recovers by
 * itself, and every write that answered 2xx is readable (docs/operations/shutdown-and-readiness.md).
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import { rawRequest } from '../../testing/rawHttp.js';
import { StoreUnavailableError } from '../storeOutage.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';

/** A TCP relay to `target` that can be stopped, started again on the same port, frozen or made to cut answers. */
class Relay {
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();
  port = 0;
  /** 'reset': every answer is cut after `resetAfter`. */
  mode: 'forward' | 'reset' = 'forward';
  #frozen = false;
  /**
   * In 'reset' mode: how many bytes of each connection's answers pass before it is reset; 'body':
   * the first answer's headers and 3 bytes of its body (the status is sent, the rows are not).
   */
  resetAfter: number | 'body' = 64;
  constructor(readonly target: URL) {}

  async start(): Promise<void> {
    if (this.#server) return;
    const server = createServer((inbound) => {
      this.#track(inbound);
      const outbound = connect({ host: this.target.hostname, port: Number(this.target.port) });
      this.#track(outbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
      inbound.on('data', (chunk: Buffer) => outbound.write(chunk));
      let seen = Buffer.alloc(0);
      outbound.on('data', (chunk: Buffer) => {
        if (this.mode === 'forward') return void inbound.write(chunk);
        seen = Buffer.concat([seen, chunk]);
        const headersEnd = seen.indexOf('\r\n\r\n');
        const cutAt = this.resetAfter !== 'body' ? this.resetAfter : headersEnd < 0 ? Infinity : headersEnd + 4 + 3;
        const before = seen.length - chunk.length;
        if (cutAt > before) inbound.write(chunk.subarray(0, cutAt - before));
        if (seen.length >= cutAt) {
          inbound.resetAndDestroy();
          outbound.destroy();
        }
      });
      // Frozen: the connection is accepted (the kernel does that for a stopped process) and held.
      if (this.#frozen) inbound.pause();
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  #track(s: Socket): void {
    this.#sockets.add(s);
    s.on('close', () => this.#sockets.delete(s));
    s.on('error', () => {});
  }

  /** Like a SIGSTOPped engine: connections open, bytes held (in the kernel's buffers) both ways, nothing answered. */
  freeze(): void {
    this.#frozen = true;
    for (const s of this.#sockets) s.pause();
  }

  /** Everything held moves on, as when the engine gets SIGCONT. */
  thaw(): void {
    this.#frozen = false;
    for (const s of this.#sockets) s.resume();
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

const CONNECT_TIMEOUT_MS = 1000;
/**
 * What an outage may take to be answered: a connect timeout for each statement a request sends
 * before it answers 503 (a feedback write took 4.03 and 4.11 s in two loaded CI runs: four), and
 * the round trip. Still far from the minute a hung request took.
 */
const BOUND_MS = 5 * CONNECT_TIMEOUT_MS;
/** A request unanswered after this counts as hung. */
const HUNG_MS = 15_000;

interface Outcome {
  what: string;
  status: number | 'hung' | 'cut' | 'error';
  ms: number;
  reason?: string;
  retryAfter?: string | null;
}

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('ClickHouse unreachable', { timeout: 180_000 }, () => {
  let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
  let relay: Relay;
  let t: TestServer;
  const P = 'alice-co/ch';
  beforeAll(async () => {
    db = await createTempClickHouseDatabase();
    relay = new Relay(new URL(db.url));
    await relay.start();
    t = await startTestServer({
      env: {
        WEFT_STORE: 'clickhouse',
        WEFT_CLICKHOUSE_URL: `http://127.0.0.1:${relay.port}`,
        WEFT_CLICKHOUSE_DATABASE: db.database,
        WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      },
    });
  });
  // A failed case leaves the relay forwarding for the next one.
  afterEach(async () => {
    relay.thaw();
    relay.mode = 'forward';
    await relay.start();
  });
  afterAll(async () => {
    await t?.close();
    await relay.stop();
    await db.drop();
  });

  let n = 0;
  const startCall = (id = `c${++n}`) =>
    t.fetch('/call/start', {
      json: { start: { project_id: P, id, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} } },
    });

  /** Every write that answered 2xx, to be read back after the outage. */
  const acked = { started: new Set<string>(), ended: new Set<string>(), objects: new Set<string>(), feedback: new Set<string>() };
  /** Calls started (and acknowledged) before any outage, for call ends sent during one. */
  const toEnd: string[] = [];

  /** Sends `init` to `path`, reading the whole answer; a body cut short is 'cut'. */
  async function send(what: string, path: string, init: RequestInit & { json?: unknown }): Promise<Outcome> {
    const t0 = Date.now();
    try {
      const res = await t.fetch(path, { ...init, signal: AbortSignal.timeout(HUNG_MS) });
      let text: string;
      try {
        text = await res.text();
      } catch {
        return { what, status: 'cut', ms: Date.now() - t0 };
      }
      const out: Outcome = { what, status: res.status, ms: Date.now() - t0, retryAfter: res.headers.get('retry-after') };
      if (res.status >= 400) out.reason = (JSON.parse(text) as { reason?: string }).reason ?? text;
      return out;
    } catch (err) {
      return { what, status: (err as Error).name === 'TimeoutError' ? 'hung' : 'error', ms: Date.now() - t0, reason: String(err) };
    }
  }

  /** One round of the mixed load: every kind of read and write at once. */
  async function round(tag: string): Promise<Outcome[]> {
    const id = `${tag}-${++n}`;
    const ending = toEnd.shift();
    const now = new Date().toISOString();
    const sends: Promise<Outcome | null>[] = [
      send('call/start', '/call/start', {
        json: { start: { project_id: P, id: `${id}-s`, op_name: 'op', started_at: now, attributes: {}, inputs: { x: 1 } } },
      }).then((o) => (o.status === 200 && acked.started.add(`${id}-s`), o)),
      ending
        ? send('call/end', '/call/end', {
            json: { end: { project_id: P, id: ending, ended_at: now, output: 1, summary: {} } },
          }).then((o) => (o.status === 200 && acked.ended.add(ending), o))
        : Promise.resolve(null),
      send('call/upsert_batch', '/call/upsert_batch', {
        json: {
          batch: [
            {
              mode: 'start',
              req: { start: { project_id: P, id: `${id}-b`, op_name: 'op', started_at: now, attributes: {}, inputs: {}, thread_id: 'th' } },
            },
            { mode: 'end', req: { end: { project_id: P, id: `${id}-b`, ended_at: now, output: 2, summary: {} } } },
          ],
        },
      }).then((o) => (o.status === 200 && (acked.started.add(`${id}-b`), acked.ended.add(`${id}-b`)), o)),
      send('calls/stream_query', '/calls/stream_query', { json: { project_id: P, limit: 50 } }),
      send('threads/stream_query', '/threads/stream_query', { json: { project_id: P } }),
      send('calls/stats', '/calls/stats', {
        json: {
          project_id: P,
          start: '2024-01-01T00:00:00Z',
          end: '2024-01-02T00:00:00Z',
          call_metrics: [{ metric: 'latency_ms', aggregations: ['avg'], percentiles: [50] }, { metric: 'call_count' }],
        },
      }),
      send('obj/create', '/obj/create', { json: { obj: { project_id: P, object_id: `o-${id}`, val: { id } } } }).then(
        (o) => (o.status === 200 && acked.objects.add(`o-${id}`), o),
      ),
      send('objs/query', '/objs/query', { json: { project_id: P } }),
      send('feedback/create', '/feedback/create', {
        json: {
          project_id: P,
          weave_ref: `weave:///${P}/call/${id}-s`,
          feedback_type: 'wandb.note.1',
          payload: { note: id },
        },
      }).then((o) => (o.status === 200 && acked.feedback.add(id), o)),
    ];
    return (await Promise.all(sends)).filter((o): o is Outcome => o !== null);
  }

  /** Sign-in by password: the credentials are read from the store (no cache for passwords). */
  async function signIn(): Promise<Outcome> {
    const t0 = Date.now();
    const res = await rawRequest(`${t.url}/weft/session`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: t.alice.password }),
    });
    return {
      what: 'sign-in',
      status: res.status,
      ms: Date.now() - t0,
      reason: res.json?.reason,
      retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
    };
  }

  /** The statuses seen, as `what status` → count, for a readable failure. */
  const tally = (outcomes: Outcome[]) => {
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[`${o.what} ${o.status}`] = (counts[`${o.what} ${o.status}`] ?? 0) + 1;
    return counts;
  };

  /** Answers during an outage: only 503 with Retry-After and a reason naming ClickHouse, in bounded time. */
  function expectOutageAnswers(outcomes: Outcome[], allowed: Outcome['status'][] = [503]): void {
    const wrong = outcomes.filter((o) => !allowed.includes(o.status) && !(o.status === 200 && o.what !== 'sign-in'));
    expect(wrong, JSON.stringify(tally(outcomes))).toEqual([]);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(Number(o.retryAfter), o.what).toBeGreaterThan(0);
      expect(o.reason, o.what).toMatch(/^ClickHouse at http:\/\/127\.0\.0\.1:\d+ /);
    }
    const slow = outcomes.filter((o) => o.ms > BOUND_MS).map((o) => `${o.what} ${o.status} ${o.ms} ms`);
    expect(slow).toEqual([]);
  }

  async function expectReadyIs(status: number): Promise<void> {
    const ready = await fetch(`${t.url}/ready`, { signal: AbortSignal.timeout(HUNG_MS) });
    expect(ready.status).toBe(status);
    if (status === 503) {
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(await ready.json()).toMatchObject({ status: 'unavailable', store: 'clickhouse', reason: expect.stringMatching(/ClickHouse/) });
    }
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
  }

  /** Load before, during and after an outage `begin`…`end`, then checks that every acknowledged write is there. */
  async function outage(tag: string, begin: () => Promise<void> | void, end: () => Promise<void> | void, allowed?: Outcome['status'][]) {
    for (let i = 0; i < 3; i++) {
      const r = await startCall(`${tag}-pre-${i}`);
      expect(r.status).toBe(200);
      acked.started.add(`${tag}-pre-${i}`);
      toEnd.push(`${tag}-pre-${i}`);
    }
    const before = (await round(`${tag}-before`)).concat(await signIn());
    expect(before.filter((o) => o.status !== 200)).toEqual([]);

    await begin();
    const during: Outcome[] = [];
    for (let i = 0; i < 3; i++) during.push(...(await round(`${tag}-during`)));
    during.push(await signIn());
    expectOutageAnswers(during, allowed);
    expect(during.filter((o) => o.status === 503).length).toBeGreaterThan(during.length / 2);
    await expectReadyIs(503);

    await end();
    // Recovers by itself: no restart, the next requests succeed.
    await expectReadyIs(200);
    const after = (await round(`${tag}-after`)).concat(await signIn());
    expect(
      after.filter((o) => o.status !== 200),
      JSON.stringify(tally(after)),
    ).toEqual([]);
    await expectAckedReadable();
    return during;
  }

  async function expectAckedReadable(): Promise<void> {
    const res = await t.fetch('/calls/stream_query', { json: { project_id: P, filter: { call_ids: [...acked.started] } } });
    expect(res.status).toBe(200);
    const calls = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; ended_at: string | null });
    const found = new Map(calls.map((c) => [c.id, c]));
    expect([...acked.started].filter((id) => !found.has(id))).toEqual([]);
    expect([...acked.ended].filter((id) => found.has(id) && !found.get(id)!.ended_at)).toEqual([]);
    for (const object_id of acked.objects) {
      expect((await t.fetch('/obj/read', { json: { project_id: P, object_id, digest: 'latest' } })).status, object_id).toBe(200);
    }
    const fb = await t.fetch('/feedback/query', { json: { project_id: P, fields: ['payload'] } });
    const notes = new Set(((await fb.json()) as { result: { payload: { note: string } }[] }).result.map((r) => r.payload.note));
    expect([...acked.feedback].filter((id) => !notes.has(id))).toEqual([]);
  }

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
    const read = await t.fetch('/calls/stream_query', { json: { project_id: P } });
    expect(read.status).toBe(503);
    await expectReadyIs(503);

    await relay.start();
    await expectReadyIs(200);
    expect((await startCall()).status).toBe(200);
  });

  it('a stopped engine: a mixed load gets 2xx or 503, never 500, and loses nothing acknowledged', async () => {
    await outage(
      'stopped',
      () => relay.stop(),
      () => relay.start(),
    );
  });

  it('a frozen engine: requests answer 503 within the connect timeout, not after a minute', async () => {
    const during = await outage(
      'frozen',
      () => relay.freeze(),
      () => relay.thaw(),
    );
    const reasons = during.filter((o) => o.status === 503).map((o) => o.reason);
    expect(reasons.some((r) => /did not answer within 1000 ms \(WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS\)/.test(r!))).toBe(true);
  });

  it('an engine that drops connections mid-answer: 503, never 500', async () => {
    await outage(
      'reset',
      () => {
        relay.mode = 'reset';
        relay.resetAfter = 64;
      },
      () => {
        relay.mode = 'forward';
      },
    );
  });

  it('an engine that drops connections after the headers, mid-rows: 503, never 500', async () => {
    await outage(
      'reset-body',
      () => {
        relay.mode = 'reset';
        relay.resetAfter = 'body';
      },
      () => {
        relay.mode = 'forward';
      },
    );
  });

  it('a calls stream cut mid-way fails the transfer instead of ending as if complete, and the server carries on', async () => {
    // More calls than one page of the store's reads (1000), so the stream reads ClickHouse again after its 200.
    const project_id = `${P}-big`;
    for (let b = 0; b < 2; b++) {
      const batch = Array.from({ length: 600 }, (_, i) => ({
        mode: 'start',
        req: { start: { project_id, id: `big-${b}-${i}`, op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} } },
      }));
      expect((await t.fetch('/call/upsert_batch', { json: { batch } })).status).toBe(200);
    }
    const res = await t.fetch('/calls/stream_query', { json: { project_id } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = (await reader.read()).value!.length;
    // The first rows are on their way; the engine now drops every answer.
    relay.mode = 'reset';
    relay.resetAfter = 0;
    const ending = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        bytes += value.length;
      }
    })().catch(() => 'cut');
    expect(await ending).toBe('cut');
    relay.mode = 'forward';
    const whole = await t.fetch('/calls/stream_query', { json: { project_id } });
    const rows = (await whole.text()).split('\n').filter(Boolean);
    expect(rows).toHaveLength(1200);
    expect(bytes).toBeLessThan(rows.join('\n').length);
  });

  it('lets a slow query on a live engine run past the connect timeout, and gives up on one whose engine freezes', async () => {
    // 1 s, not less: a ping a loaded CI machine answers late gives up on a live engine.
    const chdb = new ClickHouseDatabase({ url: `http://127.0.0.1:${relay.port}`, database: db.database, connectTimeoutMs: 1000 });
    // 5 s of work, one row each 0.5 s: five connect timeouts, each answered by a ping.
    const slow = 'SELECT sleepEachRow(0.5) AS s FROM numbers(10) SETTINGS max_block_size = 1';
    try {
      expect(await chdb.all(slow)).toHaveLength(10);

      const t0 = Date.now();
      const frozen = chdb.all(slow).then(
        () => 'answered',
        (err: unknown) => err,
      );
      setTimeout(() => relay.freeze(), 500);
      const err = await frozen;
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(/did not answer within 1000 ms \(WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS\)/);
      // Frozen at 0.5 s; found out within two connect timeouts of a ping, long before the query's 5 s.
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      relay.thaw();
      await chdb.close();
    }
  });

  it('gives up on an answer whose rows stop coming when the engine freezes after its first row', async () => {
    const chdb = new ClickHouseDatabase({ url: `http://127.0.0.1:${relay.port}`, database: db.database, connectTimeoutMs: 1000 });
    const slow = 'SELECT sleepEachRow(0.5) AS s FROM numbers(10) SETTINGS max_block_size = 1';
    let rows = 0;
    let t0 = 0;
    try {
      const err = await (async () => {
        // The answer's headers and first row are in before the freeze, as a request streaming rows would have them.
        for await (const row of chdb.stream(slow)) {
          void row;
          if (rows++ === 0) {
            t0 = Date.now();
            relay.freeze();
          }
        }
      })().then(
        () => 'answered',
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(rows).toBe(1);
      // Two connect timeouts at most, long before the query's last row at 5 s.
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      relay.thaw();
      await chdb.close();
    }
  });

  it('answers ClickHouse\'s own "not now" errors (busy, out of memory, too slow) as 503s naming them', async () => {
    const chdb = new ClickHouseDatabase({ url: `http://127.0.0.1:${relay.port}`, database: db.database });
    const failure = (query: string) =>
      chdb.all(query).then(
        () => null,
        (err: unknown) => err as Error,
      );
    try {
      const busy = chdb.all("SELECT sleepEachRow(0.5), 'busy' FROM numbers(3) SETTINGS max_block_size = 1");
      // Once the engine runs it, a second query of the same user is one too many.
      const running = "SELECT count() AS n FROM system.processes WHERE query LIKE '%''busy''%' AND query NOT LIKE '%system.processes%'";
      while (Number((await chdb.get<{ n: string }>(running))!.n) === 0);
      const refused = await failure('SELECT 1 SETTINGS max_concurrent_queries_for_user = 1');
      await busy;
      const cases: [Error | null, string][] = [
        [refused, 'TOO_MANY_SIMULTANEOUS_QUERIES'],
        [await failure('SELECT groupArray(number) FROM numbers(1000000) SETTINGS max_memory_usage = 100000'), 'MEMORY_LIMIT_EXCEEDED'],
        [await failure('SELECT sleepEachRow(0.5) FROM numbers(4) SETTINGS max_block_size = 1, max_execution_time = 1'), 'TIMEOUT_EXCEEDED'],
      ];
      for (const [err, type] of cases) {
        expect(err, type).toBeInstanceOf(StoreUnavailableError);
        expect((err as StoreUnavailableError).status).toBe(503);
        expect(err!.message).toMatch(new RegExp(`^ClickHouse at http://127\\.0\\.0\\.1:\\d+ cannot serve the request now \\(${type}\\)`));
      }
    } finally {
      await chdb.close();
    }
  });
});
