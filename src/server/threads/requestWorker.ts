/**
 * A request thread: the whole Weft app (authentication, validation, domain logic, response
 * encoding) over a store whose reads use this thread's read-only SQLite connection and whose
 * writes go to the main thread's writer (storeForwarding.ts). The main thread hands it
 * requests and relays its responses (requestThreads.ts); response bodies flow under credit,
 * so a slow client holds the rows back here instead of in memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { InferenceServices } from '../providers/InferenceServices.js';
import type { WriteBatch } from '../store/WriteBatch.js';
import { createApp } from '../app.js';
import { Authenticator } from '../auth/authenticate.js';
import { createLogger, parseLogLevel } from '../logger.js';
import { systemClock, type Services } from '../services.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { fromErrorData, toErrorData } from './errorData.js';
import type { FromWorker, ToWorker, WholeResponse, WorkerSetup, WriteOp, WriteUnit } from './messages.js';
import { mainThreadChecker } from './mainThreadAuth.js';
import { forwardingStore, requestStore } from './storeForwarding.js';
import { weightOf } from './groupCommit.js';
import { Outbox } from './outbox.js';
import { installLightResponse, threadRequest, wholeBody } from './lightFetch.js';
import type { RequestEnv } from '../http/requestEnv.js';
import type { RequestInfo } from '../http/requestId.js';
import { forwardingHooks, installMetricHooks } from '../metrics/hooks.js';
import { StoredAuditTrail } from '../audit/auditTrail.js';

/** Bytes a response may send ahead of what the client has taken. */
const WINDOW_BYTES = 1 << 20;

installLightResponse();
const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
// Counts only this thread sees (what its requests ingested) go to the main thread's `/metrics`.
installMetricHooks(forwardingHooks((tally) => post({ t: 'tally', tally })));

const local = new SqliteStore(setup.file, { readOnly: true });
const writes = new Map<number, { resolve: (v: unknown[]) => void; reject: (e: unknown) => void }>();
let nextWriteId = 1;
/**
 * A write thread's writes and whole responses wait for the end of the turn (outbox.ts), so the
 * writes of every request it ran up to its write in one turn share a group commit. That wait is
 * only worth it for small writes behind small requests: a write of HEAVY_WRITE rows or more goes
 * at once, and so does everything waiting when a request of BIG_BODY_BYTES comes in (the writer
 * would otherwise sit idle while this thread parses it: bench:ingest, whose requests are 500
 * calls, fell from 0.66-0.71 of the raw insert to 0.62-0.63 when they waited).
 */
const HEAVY_WRITE = 100;
const BIG_BODY_BYTES = 32 * 1024;
/** Requests whose last writes (a gated unit) could not be sent: each is answered with that error instead. */
const ungated = new Map<number, unknown>();
const unsentWrites = new Outbox<WriteUnit>((units) => post({ t: 'writes', units }), {
  // A write that cannot cross threads (should not happen) fails its own request, not the others.
  failed: (unit, err) => {
    if (unit.gate !== undefined) ungated.set(unit.gate, err);
    const w = writes.get(unit.wid);
    writes.delete(unit.wid);
    w?.reject(err);
  },
});
/**
 * Responses complete at once; their bodies move to the main thread. The writes made so far go
 * first: the main thread must know of a request's gated unit before its answer arrives.
 */
const unsentResponses = new Outbox<WholeResponse>((ready) => {
  unsentWrites.flush();
  const responses = ready.map((r) => (ungated.has(r.id) ? internalError(r.id, ungated.get(r.id)) : r));
  for (const r of ready) ungated.delete(r.id);
  post(
    { t: 'wholes', responses },
    responses.flatMap((r) => (r.body ? [r.body.buffer as ArrayBuffer] : [])),
  );
});
const sendUnit = (unit: WriteUnit) => {
  unsentWrites.add(unit);
  if (unit.ops.reduce((n, op) => n + weightOf(op), 0) >= HEAVY_WRITE) unsentWrites.flush();
};
const store = forwardingStore(
  local,
  (ops: WriteOp[]) =>
    new Promise((resolve, reject) => {
      const wid = nextWriteId++;
      writes.set(wid, { resolve, reject });
      sendUnit({ wid, ops });
    }),
);
/** The store of request `id`: its last writes go as a unit the main thread gates its answer on. */
const storeOfRequest = (id: number) =>
  requestStore(store, (batch: WriteBatch) => sendUnit({ wid: nextWriteId++, ops: [{ batch }], gate: id }));
const log = createLogger(parseLogLevel(setup.logLevel), { format: setup.logFormat });
// Credentials not in this thread's cache are checked by the main thread (mainThreadAuth.ts).
const auth = mainThreadChecker(post);
const authenticator = new Authenticator(store, {
  onForget: () => post({ t: 'forget' }),
  checker: auth.checker,
  sessions: setup.sessions,
});
// The model-backed endpoints are served on the main thread (threadedApp.ts), never here.
const inference = new Proxy({} as InferenceServices, {
  get: () => {
    throw new Error('model providers and jobs live on the main thread; threadedApp.ts must serve this endpoint there');
  },
});
// The same app as a single-threaded server's (app.ts), with the same limits. The client
// address arrives resolved (the main thread applied WEFT_TRUSTED_PROXIES), so none are trusted here.
const services: Services = {
  store,
  authenticator,
  log,
  clock: systemClock,
  inference,
  limits: setup.limits,
  publicUrl: setup.publicUrl,
  // Appends go to the writer through `store`, as its other writes do (storeForwarding.ts).
  audit: new StoredAuditTrail(store, systemClock, log),
};
const app = createApp(services, {
  validateResponses: setup.validateResponses,
  ...(setup.dashboardDir ? { dashboardDir: setup.dashboardDir } : {}),
});

interface Active {
  abort: AbortController;
  credit: number;
  wake: (() => void) | null;
}
const active = new Map<number, Active>();

port.on('message', (msg: ToWorker) => {
  switch (msg.t) {
    case 'request':
      void serve(msg);
      return;
    case 'abort':
    case 'credit': {
      const a = active.get(msg.id);
      if (!a) return;
      if (msg.t === 'abort') a.abort.abort();
      else a.credit += msg.bytes;
      a.wake?.();
      return;
    }
    case 'written':
      for (const result of msg.results) {
        const w = writes.get(result.wid);
        writes.delete(result.wid);
        if (result.ok) w?.resolve(result.values);
        else w?.reject(fromErrorData(result.error));
      }
      return;
    case 'authed':
      auth.settle(msg);
      return;
    case 'forget':
      authenticator.forgetLocally();
  }
});

async function serve(msg: Extract<ToWorker, { t: 'request' }>): Promise<void> {
  // What is waiting goes before a large body is parsed, not after (see HEAVY_WRITE).
  if (msg.body && msg.body.byteLength >= BIG_BODY_BYTES) {
    unsentWrites.flush();
    unsentResponses.flush();
  }
  const state: Active = { abort: new AbortController(), credit: WINDOW_BYTES, wake: null };
  // The id the main thread chose; the app fills in the user, which goes back for the access log.
  const info: RequestInfo = { id: msg.requestId };
  active.set(msg.id, state);
  let headSent = false;
  try {
    const hasBody = msg.body !== null && msg.method !== 'GET' && msg.method !== 'HEAD';
    // The Request carries no body: every body is read from `bodyBytes` (http/bodyLimit.ts), and
    // wrapping a large one in the Request's stream cost ~4 µs per ingested call (bench:ingest cpu-prof).
    const request = threadRequest(msg.url, msg.method, msg.headers, state.abort.signal);
    const env: RequestEnv = {
      peerAddress: msg.remoteIp,
      bodyBytes: hasBody ? new Uint8Array(msg.body!) : null,
      store: storeOfRequest(msg.id),
      requestInfo: info,
    };
    const res = await app.fetch(request, env);
    // Most answers are JSON text, sent whole without a stream (lightFetch.ts).
    const whole = wholeBody(res);
    if (whole) {
      unsentResponses.add({ id: msg.id, ...whole, user: info.user });
      headSent = true;
      return;
    }
    const headers = [...res.headers];
    const reader = res.body?.getReader();
    // Other answers may still be one chunk: read up to the second, and if the body ended by
    // then, send status, headers and body as one message. A streamed answer is sent as its
    // head and its chunks, at most one chunk later than it could have been.
    const first = reader ? await reader.read() : { done: true as const, value: undefined };
    let second: ReadableStreamReadResult<Uint8Array>;
    try {
      second = first.done ? first : await reader!.read();
    } catch (err) {
      // Rows had been read when the stream failed: as without threads, the 200 starts and is cut.
      postHead(msg.id, res.status, headers, info.user);
      headSent = true;
      const data = owned(first.value!);
      post({ t: 'chunk', id: msg.id, data }, [data.buffer as ArrayBuffer]);
      throw err;
    }
    if (second.done) {
      const body = first.value ? owned(first.value) : null;
      unsentResponses.add({ id: msg.id, status: res.status, headers, body, user: info.user });
      headSent = true;
      return;
    }
    postHead(msg.id, res.status, headers, info.user);
    headSent = true;
    const send = (value: Uint8Array) => {
      state.credit -= value.byteLength;
      const data = owned(value);
      post({ t: 'chunk', id: msg.id, data }, [data.buffer as ArrayBuffer]);
    };
    send(first.value!);
    send(second.value);
    for (;;) {
      while (state.credit <= 0 && !state.abort.signal.aborted) await new Promise<void>((r) => (state.wake = r));
      state.wake = null;
      if (state.abort.signal.aborted) {
        await reader!.cancel().catch(() => {});
        break;
      }
      const { done, value } = await reader!.read();
      if (done) break;
      send(value);
    }
    post({ t: 'end', id: msg.id });
  } catch (err) {
    if (headSent) {
      log.error(`${msg.method} ${new URL(msg.url).pathname}: response failed mid-stream`, err, { request_id: msg.requestId });
      post({ t: 'fail', id: msg.id, message: toErrorData(err).message });
    } else {
      log.error(`${msg.method} ${new URL(msg.url).pathname} 500`, err, { request_id: msg.requestId });
      unsentResponses.add(internalError(msg.id));
    }
  } finally {
    active.delete(msg.id);
  }
}

/** The head of a streamed response; like a whole one, it follows the writes made so far (see unsentResponses). */
function postHead(id: number, status: number, headers: [string, string][], user: string | undefined): void {
  unsentWrites.flush();
  const err = ungated.get(id);
  ungated.delete(id);
  if (err !== undefined) throw err;
  post({ t: 'head', id, status, headers, user });
}

function internalError(id: number, err?: unknown): WholeResponse {
  if (err !== undefined) log.error(`Request ${id}: its writes could not be handed to the writer`, err);
  return {
    id,
    status: 500,
    headers: [['content-type', 'application/json']],
    body: new TextEncoder().encode(JSON.stringify({ reason: 'Internal server error' })),
  };
}

/** The bytes in a buffer of their own, to transfer: the chunk's own when it has one, else a copy. */
function owned(value: Uint8Array): Uint8Array {
  const own = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && !(value.buffer instanceof SharedArrayBuffer);
  return own ? value : value.slice();
}

post({ t: 'ready' });
