/**
 * The request threads, seen from the main thread. Every API request is handed whole to a
 * worker thread (requestWorker.ts), so no request's SQLite work, JSON parsing, validation or
 * response encoding runs on the main thread, which only moves bytes, applies the writes
 * (groupCommit.ts) and answers `/health`; the exceptions are an evaluation logger's small writes,
 * whose work is bounded and smaller than a hand-off (`main-when-small` routes, threadedApp.ts). Two pools:
 *
 * - read threads serve one request at a time, so a read that exceeds its time budget, or
 *   whose client disconnected, can be stopped by terminating its thread (SQLite cannot be
 *   interrupted mid-statement from another thread) without touching anyone else's request;
 *   the thread is replaced at once. Reads wait in one FIFO queue when every thread is busy,
 *   and the pool grows on demand up to its size;
 * - write threads take any number of requests at once: a write request mostly waits for its
 *   group commit, and its parsing and validation are the CPU it takes off the writer. A request
 *   whose writes are its last act (Store.applyLast) does not even wait: the thread sends them as
 *   a gated unit with the answer right behind, and the answer is held here until they commit.
 *
 * The budget (WEFT_READ_BUDGET_MS) bounds a read's work: from the moment a thread takes it to its
 * answer; for a streamed answer, each wait for the next rows gets the budget again, while a slow
 * client never counts against it. The wait for a free thread is bounded by the same figure on its
 * own. (Counting the queue against the work would stop reads that waited long and then had only
 * moments to run; each stop costs a thread's restart, so a busy server would spiral: measured in
 * bench:load with 4 read threads, 97 of ~250 reads stopped.) A read past a bound is answered
 * according to where it was:
 *
 * - still waiting for a thread (every read thread busy): 503 with `Retry-After`. The query was
 *   never tried; the server is saturated, and the same request later may well succeed;
 * - running on a thread: 504, naming the budget and what to do (narrow the query, or raise the
 *   setting). 504 rather than 503 because the server did try, and retrying the same query will
 *   take as long again; 504 is also what a proxy in front would answer, so clients already
 *   treat it as "took too long", not "come back later".
 *
 * Writes have no budget: a write thread serves many requests at once (terminating it would fail
 * them all), and a write's own work is applied on the writer, where a statement cannot be
 * stopped without losing the atomicity of its group commit.
 */
import type { ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { Authenticator } from '../auth/authenticate.js';
import { clientAddressOf } from '../http/clientAddress.js';
import { readLimitedBody, type BodyLimitKey } from '../http/bodyLimit.js';
import { toErrorResponse } from '../http/respond.js';
import type { Logger } from '../logger.js';
import { toErrorData } from './errorData.js';
import { answerAuthCall } from './mainThreadAuth.js';
import type { GroupCommitter } from './groupCommit.js';
import { Outbox } from './outbox.js';
import type { FromWorker, ToWorker, WholeResponse, WorkerData, WorkerSetup, WriteResult, WriteUnit } from './messages.js';
import { requestHeader } from '../http/requestHeader.js';
import { requestEnv } from '../http/requestEnv.js';
import { noteUser, requestFields, requestIdFrom, requestInfoOf, type RequestInfo } from '../http/requestId.js';
import { readSessionCookie } from '../auth/sessions.js';
import { applyTally, metrics } from '../metrics/hooks.js';
import { threadEntry } from './threadEntry.js';

export type RequestKind = 'read' | 'write';

/** How an endpoint's requests are handed to a thread. */
export interface HandOff {
  /** The body limit the endpoint's body is held to (file uploads have their own). */
  bodyLimit?: BodyLimitKey;
  /** Check a credentials header before taking a thread (every endpoint that is not public). */
  authenticate?: boolean;
  /**
   * Give up unless a thread has taken the request within this many ms: it is then answered
   * NOT_STARTED, for the caller to serve another way (a page that can do without the read).
   */
  startWithinMs?: number;
}

/** The status of a request not started within its `startWithinMs`. */
export const NOT_STARTED = 503;

export interface RequestThreadsOptions {
  setup: WorkerSetup;
  readThreads: number;
  writeThreads: number;
  /** Milliseconds a read may take (see above); 0 disables the budget. */
  readBudgetMs: number;
  /**
   * Milliseconds a streamed answer may wait for its client to take more bytes before the
   * stream is cut and its thread freed (WEFT_READ_SEND_TIMEOUT_MS; docs/security/writer.md).
   */
  sendTimeoutMs: number;
  /** Read threads one user may hold at once (WEFT_READS_PER_USER): the others wait, then 429. */
  readsPerUser: number;
  committer: GroupCommitter;
  /** The process's authenticator: request threads ask it to check credentials (mainThreadAuth.ts). */
  authenticator: Authenticator;
  log: Logger;
  /** A thread revoked or changed credentials: other processes must forget theirs too. */
  onForget: () => void;
}

/** A request thread's code (threadEntry.ts). */
const WORKER_ENTRY = threadEntry(import.meta.url, 'requestWorker');
/** How long a read thread gets to stop by itself after its client left, before it is terminated. */
const ABORT_GRACE_MS = 1000;
/** Requests in flight on every write thread before another one is started (up to the pool size). */
const WRITE_GROW_AT = 2;
const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);
/**
 * A write thread's young generation, larger than V8's default: an SDK batch parses into
 * megabytes of objects that die with the request, and with more room for them fewer survive a
 * scavenge. bench:ingest at 200,000 calls, alternating: the write threads spent 12-14 µs per
 * call against 14-18 µs with the default (48 MB measured the same as the default), and ingest
 * ran 1-5% faster (docs/performance.md). The room is only taken as the thread allocates it: peak RSS over
 * 200,000 ingested calls rose 10 MB, to 536 MB.
 */
const WRITE_YOUNG_GENERATION_MB = 96;
/**
 * How far each kind of thread runs below the main thread's scheduling priority (nice levels;
 * Linux only, workerBoot.mjs). Under load the cores go to the main thread (it answers /health,
 * moves every request's bytes and commits the writes) and to the reads (someone is waiting for a
 * page) before a write's parsing and validation: an SDK sends in the background and batches
 * while it waits. The reads stay at the main thread's level: below it, they would also yield to
 * every other process on the host.
 */
export const THREAD_NICENESS: Readonly<Record<RequestKind, number>> = { read: 0, write: 5 };
/**
 * Bytes written to the client before the thread is told it may send that many more: credit is
 * returned in steps (well below the thread's 1 MiB window), so a response under the step, which
 * is nearly every one, costs no credit message at all.
 */
const CREDIT_STEP = 256 * 1024;

interface Slot {
  worker: Worker;
  kind: RequestKind;
  ready: boolean;
  dead: boolean;
  requests: Map<number, Pending>;
  /** Answers to this thread's writes: a commit's go as one message (answersTo). */
  answers: Outbox<WriteResult>;
}

interface Pending {
  id: number;
  kind: RequestKind;
  message: Extract<ToWorker, { t: 'request' }>;
  transfer: ArrayBuffer[];
  slot: Slot | null;
  /** Settles the route handler: with a response made here, or with RESPONSE_ALREADY_SENT. */
  respond: (res: Response) => void;
  /** The client's response, written directly as the thread's messages arrive. */
  outgoing: ServerResponse;
  /** Answered: by the thread's head, or by a response made here (503, 504, 500). */
  headReceived: boolean;
  /** The thread's head went to the client: a failure from now on can only cut the connection. */
  streaming: boolean;
  finished: boolean;
  ended: boolean;
  /** Bytes the client has taken that the thread was not yet credited for. */
  uncredited: number;
  budgetTimer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  startTimer: NodeJS.Timeout | null;
  /** Runs while the client's socket is full: past WEFT_READ_SEND_TIMEOUT_MS the stream is cut. */
  sendTimer: NodeJS.Timeout | null;
  /** Whose read this is (readsPerUser): the user, session or address the request came with. */
  user: string;
  /** The request's gated write units not yet committed (messages.ts WriteUnit). */
  gates: number;
  /** While `gates` > 0: the thread's messages for this request, replayed in order once they committed. */
  held: (() => void)[] | null;
  /** The request's id and user, for the logs (http/requestId.ts); the thread may name the user. */
  info: RequestInfo;
  /** performance.now() when it was queued for a thread (the queue-wait metric). */
  queuedAt: number;
}

export class RequestThreads {
  readonly #options: RequestThreadsOptions;
  readonly #slots: Record<RequestKind, Slot[]> = { read: [], write: [] };
  readonly #waiting: Record<RequestKind, Pending[]> = { read: [], write: [] };
  #nextId = 1;
  #closed = false;
  /** Read threads terminated for a budget or a disconnect (tests and benchmarks read it). */
  terminated = 0;
  /** Requests handed to a thread, by kind (tests read it: which requests the main thread served itself). */
  readonly handed: Record<RequestKind, number> = { read: 0, write: 0 };
  /** Streams cut because their client stopped reading (tests read it). */
  sendTimeouts = 0;
  /** Read threads each user holds now (readsPerUser). */
  readonly #readsByUser = new Map<string, number>();

  constructor(options: RequestThreadsOptions) {
    this.#options = options;
  }

  /**
   * Hands the request to a thread of its kind and resolves with the thread's answer. The body
   * is read here, counted against the endpoint's limit as it streams in (the same 413 as
   * without threads), and moved to the thread without a copy; or it was read already (`read`).
   */
  async handle(c: Context, kind: RequestKind, options: HandOff = {}, read?: Uint8Array): Promise<Response> {
    // The Node request and response, used directly: `c.req.raw.signal` or `.body` would make
    // @hono/node-server build a whole web Request (with a web stream over the socket), and a web
    // Response would be pulled through a web stream again; per request both cost the main thread
    // more than the hand-off itself (measured in bench:load with --cpu-prof).
    const { incoming, outgoing } = requestEnv(c);
    if (!incoming || !outgoing) throw new Error('request threads serve through the Node HTTP server (startServer), not app.fetch');
    const method = c.req.method;
    let user = `address ${clientAddressOf(c)}`;
    if (options.authenticate) {
      const checked = await this.#checkCredentialsHeader(c);
      // Not `instanceof Response`: @hono/node-server swaps the global Response class, so a
      // refusal made by another module may not be an instance of the one seen here.
      if (checked !== null && typeof checked !== 'string') return checked;
      user = checked ?? sessionKey(c) ?? user;
    }
    let body: ArrayBuffer | null = null;
    // readLimitedBody reads the Node request directly (no web stream over the socket).
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        const bytes = read ?? (await readLimitedBody(c, this.#options.setup.limits, options.bodyLimit ?? 'maxBodyBytes'));
        if (bytes.byteLength > 0)
          body =
            bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
      } catch (err) {
        return toErrorResponse(err, this.#options.log, `${method} ${c.req.path}`, requestFields(c));
      }
    }
    if (outgoing.destroyed) return RESPONSE_ALREADY_SENT;
    this.handed[kind]++;
    // Without the access-log middleware (tests that mount handlers alone) the request still gets an id.
    const info = requestInfoOf(c) ?? { id: requestIdFrom(undefined) };
    return new Promise<Response>((respond) => {
      const id = this.#nextId++;
      const p: Pending = {
        id,
        kind,
        message: {
          t: 'request',
          id,
          method,
          url: c.req.url,
          headers: headerPairs(incoming.rawHeaders),
          body,
          remoteIp: clientAddressOf(c),
          requestId: info.id,
        },
        transfer: body ? [body] : [],
        slot: null,
        respond,
        outgoing,
        headReceived: false,
        streaming: false,
        finished: false,
        ended: false,
        uncredited: 0,
        budgetTimer: null,
        killTimer: null,
        startTimer: null,
        sendTimer: null,
        user,
        gates: 0,
        held: null,
        info,
        queuedAt: performance.now(),
      };
      if (kind === 'read' && this.#options.readBudgetMs > 0) p.budgetTimer = setTimeout(() => this.#expire(p), this.#options.readBudgetMs);
      // 'close' comes after a complete response too (then the request is finished already).
      outgoing.once('close', () => this.#abort(p));
      this.#waiting[kind].push(p);
      this.#drain(kind);
      if (options.startWithinMs !== undefined && !p.slot) {
        p.startTimer = setTimeout(() => {
          if (p.slot || p.finished) return;
          p.headReceived = true;
          p.respond(new Response(null, { status: NOT_STARTED }));
          this.#finish(p);
        }, options.startWithinMs);
      }
    });
  }

  /**
   * A credentials header is checked here before the request takes a thread: checking a new
   * password takes a scrypt hash (~0.6 s, bounded by the hash limiter), and a read thread serves
   * one request at a time, so a flood of wrong passwords would otherwise hold every read thread
   * while each waits for its hash. Refused requests are answered here (401/429/503); accepted
   * ones are in the process's credentials cache, where the thread finds them at once. A session
   * cookie is left to the thread (a quick lookup, no hash).
   */
  async #checkCredentialsHeader(c: Context): Promise<Response | string | null> {
    const authorization = requestHeader(c, 'authorization');
    const apiKey = requestHeader(c, 'wandb-api-key');
    if (!authorization && !apiKey) return null;
    try {
      const user = await this.#options.authenticator.authenticateRequest({ authorization, apiKey, address: clientAddressOf(c) });
      noteUser(c, user.username);
      return `user ${user.username}`;
    } catch (err) {
      return toErrorResponse(err, this.#options.log, `${c.req.method} ${c.req.path}`, requestFields(c));
    }
  }

  /** Starts one thread of each kind now, so the first requests do not wait for a thread to boot. */
  warm(): void {
    for (const kind of ['read', 'write'] as const) if (this.#slots[kind].length === 0) this.#spawn(kind);
  }

  /** Resolves once a thread of each kind is ready (tests and benchmarks wait for it). */
  async whenReady(): Promise<void> {
    this.warm();
    while (!(['read', 'write'] as const).every((kind) => this.#slots[kind].some((s) => s.ready))) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  get committer(): GroupCommitter {
    return this.#options.committer;
  }

  /** Every thread drops its cached credentials (another process changed some). */
  forgetAll(except?: Slot): void {
    for (const slot of [...this.#slots.read, ...this.#slots.write]) if (slot !== except && !slot.dead) this.#post(slot, { t: 'forget' });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#slots.read, ...this.#slots.write];
    this.#slots.read = [];
    this.#slots.write = [];
    for (const slot of all) slot.dead = true;
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  /** Thread counts by kind (tests). */
  get size(): Record<RequestKind, number> {
    return { read: this.#slots.read.length, write: this.#slots.write.length };
  }

  /** Per kind: threads, threads serving at least one request, requests waiting for one (`/metrics`). */
  occupancy(): Record<RequestKind, { total: number; busy: number; queued: number }> {
    const of = (kind: RequestKind) => ({
      total: this.#slots[kind].length,
      busy: this.#slots[kind].filter((s) => s.requests.size > 0).length,
      queued: this.#waiting[kind].length,
    });
    return { read: of('read'), write: of('write') };
  }

  #drain(kind: RequestKind): void {
    const queue = this.#waiting[kind];
    let eligible = 0;
    while (eligible < queue.length) {
      // A read of a user who holds readsPerUser threads already waits; the next one in line goes first.
      if (kind === 'read' && this.#atUserLimit(queue[eligible]!)) {
        eligible++;
        continue;
      }
      const slot = this.#pick(kind);
      if (!slot) break;
      const p = queue.splice(eligible, 1)[0]!;
      p.slot = slot;
      metrics.queueWaited(kind, (performance.now() - p.queuedAt) / 1000);
      if (kind === 'read') this.#readsByUser.set(p.user, (this.#readsByUser.get(p.user) ?? 0) + 1);
      // The wait is over: the budget now times the work.
      if (p.budgetTimer) {
        clearTimeout(p.budgetTimer);
        p.budgetTimer = setTimeout(() => this.#expire(p), this.#options.readBudgetMs);
      }
      slot.requests.set(p.id, p);
      this.#post(slot, p.message, p.transfer);
    }
    const slots = this.#slots[kind];
    const max = kind === 'read' ? this.#options.readThreads : this.#options.writeThreads;
    const starting = slots.filter((s) => !s.ready).length;
    const wanted =
      kind === 'read'
        ? queue.length - eligible > starting
        : slots.length === 0 || (queue.length === 0 && slots.every((s) => s.requests.size >= WRITE_GROW_AT));
    if (wanted && slots.length < max && !this.#closed) this.#spawn(kind);
  }

  #atUserLimit(p: Pending): boolean {
    return (this.#readsByUser.get(p.user) ?? 0) >= this.#options.readsPerUser;
  }

  #pick(kind: RequestKind): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.#slots[kind]) {
      if (!slot.ready || slot.dead) continue;
      if (kind === 'read' && slot.requests.size > 0) continue;
      if (!best || slot.requests.size < best.requests.size) best = slot;
    }
    return best;
  }

  #spawn(kind: RequestKind): void {
    const worker = new Worker(new URL('./workerBoot.mjs', import.meta.url), {
      workerData: { ...this.#options.setup, niceness: THREAD_NICENESS[kind], entry: WORKER_ENTRY } satisfies WorkerData,
      // The boot file registers tsx itself when it loads TypeScript; the parent's flags (--import
      // tsx, vitest's) are not wanted. WEFT_THREAD_NODE_ARGS passes flags to the threads (e.g.
      // --cpu-prof to profile them).
      execArgv: process.env.WEFT_THREAD_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
      resourceLimits: kind === 'write' ? { maxYoungGenerationSizeMb: WRITE_YOUNG_GENERATION_MB } : undefined,
    });
    const slot: Slot = { worker, kind, ready: false, dead: false, requests: new Map(), answers: answersTo(worker, () => slot.dead) };
    this.#slots[kind].push(slot);
    worker.on('message', (msg: FromWorker) => this.#onMessage(slot, msg));
    worker.on('error', (err) => {
      this.#options.log.error(`A ${kind} thread failed`, err);
      this.#kill(slot, 'the request thread failed');
    });
    worker.on('exit', () => {
      if (!slot.dead) this.#kill(slot, 'the request thread stopped');
    });
  }

  #onMessage(slot: Slot, msg: FromWorker): void {
    switch (msg.t) {
      case 'ready':
        slot.ready = true;
        this.#drain(slot.kind);
        return;
      case 'writes':
        this.#submit(slot, msg.units);
        return;
      case 'auth':
        void answerAuthCall(this.#options.authenticator, msg.aid, msg.call).then((answer) => this.#post(slot, answer));
        return;
      case 'forget':
        this.forgetAll(slot);
        this.#options.onForget();
        return;
      case 'tally':
        applyTally(msg.tally);
        return;
      case 'wholes':
        for (const response of msg.responses) {
          const p = slot.requests.get(response.id);
          if (p?.held) p.held.push(() => this.#answerWhole(slot, response));
          else this.#answerWhole(slot, response);
        }
        return;
    }
    const p = slot.requests.get(msg.id);
    if (!p || p.finished) return;
    if (p.held) {
      p.held.push(() => this.#onMessage(slot, msg));
      return;
    }
    switch (msg.t) {
      case 'head':
        if (msg.user) p.info.user = msg.user;
        this.#writeHead(p, msg.status, msg.headers, null);
        this.#awaitRows(p);
        return;
      case 'chunk': {
        this.#clearBudget(p);
        const bytes = msg.data.byteLength;
        const more = p.outgoing.write(msg.data, () => this.#credit(p, bytes));
        // A client that does not read holds the rows back in the thread; that wait is not the
        // read's, but it is bounded: past the send timeout the stream is cut and the thread freed.
        if (more) this.#awaitRows(p);
        else if (!p.sendTimer) {
          p.sendTimer = setTimeout(() => this.#sendTimedOut(p), this.#options.sendTimeoutMs);
          p.outgoing.once('drain', () => {
            if (p.sendTimer) clearTimeout(p.sendTimer);
            p.sendTimer = null;
            this.#awaitRows(p);
          });
        }
        return;
      }
      case 'end':
        p.ended = true;
        p.outgoing.end();
        this.#finish(p);
        return;
      case 'fail':
        this.#cut(p, new Error(msg.message));
        this.#finish(p);
        return;
    }
  }

  /**
   * Hands a thread's units of writes to the group commit. An ungated unit's outcome goes back to
   * the thread; a gated one holds its request's answer until it committed (messages.ts WriteUnit).
   */
  #submit(slot: Slot, units: WriteUnit[]): void {
    for (const { wid, ops, gate } of units) {
      const committed = this.#options.committer.submit(ops);
      if (gate === undefined) {
        committed.then(
          (values) => slot.answers.add({ wid, ok: true, values }),
          (err: unknown) => slot.answers.add({ wid, ok: false, error: toErrorData(err) }),
        );
        continue;
      }
      const p = slot.requests.get(gate);
      if (p) {
        p.gates++;
        p.held ??= [];
      }
      committed.then(
        () => p && this.#ungate(p),
        (err: unknown) => (p ? this.#gateFailed(p, err) : this.#options.log.error('A write of a finished request failed', err)),
      );
    }
  }

  /** One of the request's gated units committed: once all did, its answer goes on to the client. */
  #ungate(p: Pending): void {
    if (--p.gates > 0 || !p.held) return;
    const held = p.held;
    p.held = null;
    for (const replay of held) replay();
  }

  /**
   * A gated unit did not commit: the request answers that error (as the thread would have, had it
   * waited), and what the thread sent for it is dropped.
   */
  #gateFailed(p: Pending, err: unknown): void {
    p.held = null;
    p.gates = 0;
    if (p.finished) return;
    if (!p.headReceived) {
      p.headReceived = true;
      p.respond(toErrorResponse(err, this.#options.log, `${p.message.method} ${new URL(p.message.url).pathname}`, idOf(p)));
    } else {
      this.#cut(p, err instanceof Error ? err : new Error(String(err)));
    }
    if (p.slot) this.#post(p.slot, { t: 'abort', id: p.id });
    this.#finish(p);
  }

  /** A response the thread finished at once: head and body to the client together. */
  #answerWhole(slot: Slot, response: WholeResponse): void {
    const p = slot.requests.get(response.id);
    if (!p || p.finished) return;
    if (response.user) p.info.user = response.user;
    this.#writeHead(p, response.status, response.headers, response.body?.byteLength ?? 0);
    p.ended = true;
    if (response.body && !NO_BODY_STATUSES.has(response.status)) p.outgoing.end(response.body);
    else p.outgoing.end();
    this.#finish(p);
  }

  /** Sends the thread's status and headers to the client; a response that came whole gets its length. */
  #writeHead(p: Pending, status: number, headers: [string, string][], length: number | null): void {
    if (p.headReceived) return;
    p.headReceived = true;
    p.streaming = true;
    this.#clearBudget(p);
    const raw = headers.flat();
    if (length !== null && !NO_BODY_STATUSES.has(status) && !headers.some(([name]) => name === 'content-length'))
      raw.push('content-length', String(length));
    p.outgoing.writeHead(status, raw);
    p.respond(RESPONSE_ALREADY_SENT);
  }

  /** Waiting on the thread for the next rows of a streamed read: the budget applies again to that wait. */
  #awaitRows(p: Pending): void {
    if (p.finished || p.kind !== 'read' || this.#options.readBudgetMs <= 0) return;
    this.#clearBudget(p);
    p.budgetTimer = setTimeout(() => this.#expire(p), this.#options.readBudgetMs);
  }

  #clearBudget(p: Pending): void {
    if (p.budgetTimer) clearTimeout(p.budgetTimer);
    p.budgetTimer = null;
  }

  /** The client took `bytes` more: the thread may send as much again (in CREDIT_STEP steps). */
  #credit(p: Pending, bytes: number): void {
    p.uncredited += bytes;
    if (p.uncredited < CREDIT_STEP || p.finished || !p.slot) return;
    this.#post(p.slot, { t: 'credit', id: p.id, bytes: p.uncredited });
    p.uncredited = 0;
  }

  /** A response whose head was sent fails: the connection is cut, so the client sees a failed transfer, not a short answer. */
  #cut(p: Pending, err: Error): void {
    if (p.streaming && !p.outgoing.destroyed) p.outgoing.destroy(err);
  }

  /**
   * The read used up its budget: 503 if it never got a thread, else 504 (or a cut stream when
   * rows were already sent), and its thread is freed. See the head comment for the choice.
   */
  #expire(p: Pending): void {
    if (p.finished) return;
    const budget = this.#options.readBudgetMs;
    const where = `${p.message.method} ${new URL(p.message.url).pathname}`;
    if (!p.slot && p.kind === 'read' && this.#atUserLimit(p) && this.#options.readsPerUser < this.#options.readThreads) {
      // Threads were there (or will be) for others: this user holds as many as one user may.
      const retryAfter = Math.max(1, Math.ceil(budget / 1000));
      const limit = this.#options.readsPerUser;
      const reason = `Too many reads at once: you already have ${limit} running (WEFT_READS_PER_USER, the read threads one user may hold), and this one waited ${budget} ms (WEFT_READ_BUDGET_MS) for one of them to finish; read the answers of the running ones (a stream whose client stops reading is cut after WEFT_READ_SEND_TIMEOUT_MS) and try again.`;
      p.headReceived = true;
      p.respond(
        Response.json(
          { reason, reads_per_user: limit, retry_after: retryAfter },
          { status: 429, headers: { 'retry-after': String(retryAfter) } },
        ),
      );
      this.#options.log.warn(`${where} 429 waited ${budget} ms: ${limit} reads of this user running (WEFT_READS_PER_USER)`, idOf(p));
      metrics.budgetStopped('reads_per_user');
      this.#finish(p);
      return;
    }
    if (!p.slot) {
      const retryAfter = Math.max(1, Math.ceil(budget / 1000));
      const reason = `The server is busy: every read thread stayed occupied for ${budget} ms (WEFT_READ_BUDGET_MS) while this request waited, so it was not started; try again in a few seconds, or give the server more read threads (WEFT_READ_THREADS).`;
      p.headReceived = true;
      p.respond(
        Response.json(
          { reason, budget_ms: budget, retry_after: retryAfter },
          { status: 503, headers: { 'retry-after': String(retryAfter) } },
        ),
      );
      this.#options.log.warn(`${where} 503 waited ${budget} ms for a read thread`, idOf(p));
      metrics.budgetStopped('read_queue');
      this.#finish(p);
      return;
    }
    const reason = `The request exceeded its time budget of ${budget} ms and was stopped (WEFT_READ_BUDGET_MS); narrow the query (add a filter, a smaller limit or a shorter time range) or raise the budget.`;
    if (!p.headReceived) {
      p.headReceived = true;
      p.respond(Response.json({ reason, budget_ms: budget }, { status: 504 }));
    } else {
      this.#cut(p, new Error(reason));
    }
    this.#options.log.warn(`${where} 504 time budget of ${budget} ms exceeded`, idOf(p));
    metrics.budgetStopped('read_budget');
    this.#stop(p);
  }

  /**
   * The client took nothing for WEFT_READ_SEND_TIMEOUT_MS: the connection is cut (the client sees
   * a failed transfer) and a read's thread is stopped, so a client that does not read holds no
   * thread for longer than that (docs/security/writer.md).
   */
  #sendTimedOut(p: Pending): void {
    p.sendTimer = null;
    if (p.finished) return;
    this.sendTimeouts++;
    metrics.budgetStopped('send_timeout');
    const timeout = this.#options.sendTimeoutMs;
    this.#options.log.warn(
      `${p.message.method} ${new URL(p.message.url).pathname} cut: the client took nothing for ${timeout} ms (WEFT_READ_SEND_TIMEOUT_MS)`,
      idOf(p),
    );
    this.#cut(p, new Error(`The client took nothing for ${timeout} ms (WEFT_READ_SEND_TIMEOUT_MS)`));
    if (p.kind === 'read') this.#stop(p);
    else {
      if (p.slot) this.#post(p.slot, { t: 'abort', id: p.id });
      this.#finish(p);
    }
  }

  /** The client went away: a queued request is dropped, a running read is stopped. */
  #abort(p: Pending): void {
    if (p.finished) return;
    if (!p.slot) {
      this.#finish(p);
      return;
    }
    this.#post(p.slot, { t: 'abort', id: p.id });
    if (p.kind !== 'read') return;
    // A thread inside a long SQLite statement cannot hear the abort: terminate it if it does not stop.
    p.killTimer = setTimeout(() => {
      if (!p.finished) this.#stop(p);
    }, ABORT_GRACE_MS);
  }

  /** Ends a read's work now: dequeued if waiting, else its thread is terminated and replaced. */
  #stop(p: Pending): void {
    const slot = p.slot;
    if (slot && !slot.dead) {
      this.terminated++;
      this.#kill(slot, 'the request thread was stopped');
    }
    this.#finish(p);
  }

  #finish(p: Pending): void {
    if (p.finished) return;
    p.finished = true;
    this.#clearBudget(p);
    if (p.killTimer) clearTimeout(p.killTimer);
    if (p.startTimer) clearTimeout(p.startTimer);
    if (p.sendTimer) clearTimeout(p.sendTimer);
    const queue = this.#waiting[p.kind];
    const queued = queue.indexOf(p);
    if (queued >= 0) queue.splice(queued, 1);
    if (p.slot) {
      p.slot.requests.delete(p.id);
      if (p.kind === 'read') {
        const held = (this.#readsByUser.get(p.user) ?? 1) - 1;
        if (held > 0) this.#readsByUser.set(p.user, held);
        else this.#readsByUser.delete(p.user);
        this.#drain('read');
      }
    }
  }

  /** Terminates a thread, fails what it still had, and starts a replacement if work waits. */
  #kill(slot: Slot, why: string): void {
    if (slot.dead) return;
    slot.dead = true;
    const list = this.#slots[slot.kind];
    const at = list.indexOf(slot);
    if (at >= 0) list.splice(at, 1);
    void slot.worker.terminate();
    for (const p of [...slot.requests.values()]) {
      if (!p.headReceived) {
        p.headReceived = true;
        if (!this.#closed)
          this.#options.log.error(`${p.message.method} ${new URL(p.message.url).pathname} 500: ${why}`, undefined, idOf(p));
        p.respond(Response.json({ reason: `Internal server error: ${why}` }, { status: 500 }));
      } else if (!p.ended) {
        this.#cut(p, new Error(why));
      }
      this.#finish(p);
    }
    if (this.#closed) return;
    // Replace it at once, so the next request finds a warm thread.
    if (slot.kind === 'read' || this.#slots.write.length === 0) this.#spawn(slot.kind);
    this.#drain(slot.kind);
  }

  #post(slot: Slot, msg: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (slot.dead) return;
    slot.worker.postMessage(msg, transfer);
  }
}

/**
 * Whose read a request without a credentials header is, for readsPerUser: its session cookie
 * (the thread checks it; a login per session is throttled), or null.
 */
function sessionKey(c: Context): string | null {
  const token = readSessionCookie(requestHeader(c, 'cookie'));
  return token ? `session ${token}` : null;
}

/** The log fields naming a handed-off request. */
const idOf = (p: Pending) => ({ request_id: p.message.requestId });

/** The request's headers as name/value pairs from Node's raw list (HTTP/2 pseudo-headers left out). */
function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/**
 * The outbox of a thread's write answers. The units of one group commit settle in the same round
 * of microtasks (each through the same chain of promises), so their answers go as one message
 * once that round is over.
 */
function answersTo(worker: Worker, dead: () => boolean): Outbox<WriteResult> {
  const post = (results: WriteResult[]) => {
    if (!dead()) worker.postMessage({ t: 'written', results } satisfies ToWorker);
  };
  return new Outbox<WriteResult>(post, {
    schedule: queueMicrotask,
    // A result that cannot cross threads (should not happen): that request gets the error.
    failed: (r, err) => post([{ wid: r.wid, ok: false, error: toErrorData(err) }]),
  });
}
