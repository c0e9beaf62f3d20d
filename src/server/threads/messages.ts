/**
 * The messages between the main thread (HTTP, the writer) and the request threads. Bodies
 * travel as transferred ArrayBuffers; errors as plain data rebuilt on the other side.
 */
import type { SessionLimits } from '../auth/sessions.js';
import type { Limits } from '../limits.js';
import type { LogFormat } from '../logger.js';
import type { Tally } from '../metrics/hooks.js';

import type { WriteBatch } from '../store/WriteBatch.js';

/**
 * A store write forwarded to the writer: one method call `store[group][method](...args)`, or a
 * whole write batch (`Store.apply`), which is plain data and travels as it is.
 */
export type WriteOp = { group: string; method: string; args: unknown[] } | { batch: WriteBatch };

/** An error as data, rebuilt with its class and HTTP status (see errorData.ts). */
export interface ErrorData {
  message: string;
  name?: string;
  code?: string;
  status?: number;
  extra?: Record<string, unknown>;
  issues?: unknown[];
  /** Response headers an ApiError carries (`Retry-After`). */
  headers?: Record<string, string>;
}

/** A response complete at once, for request `id`. */
export interface WholeResponse {
  id: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array | null;
  /** Who the request was from, when the thread authenticated it (for the access log). */
  user?: string;
}

/**
 * One request's writes, applied under one savepoint. A unit with a `gate` is that request's last
 * (Store.applyLast): the thread does not wait for it and gets no answer for it; instead the main
 * thread holds the request's answer until the unit commits, and answers the commit's error
 * instead when it does not (requestThreads.ts).
 */
export interface WriteUnit {
  wid: number;
  ops: WriteOp[];
  gate?: number;
}

/** One unit's outcome: the values its write ops answered, or why it did not commit. */
export type WriteResult = { wid: number; ok: true; values: unknown[] } | { wid: number; ok: false; error: ErrorData };

/** A credentials check a request thread asks of its main thread (threads/mainThreadAuth.ts). */
export type AuthCall =
  | { op: 'verifyHeader'; header: string; address: string }
  | { op: 'verifyLogin'; username: string; password: string; address: string }
  | { op: 'hashPassword'; password: string };

export type ToWorker =
  | {
      t: 'request';
      id: number;
      method: string;
      url: string;
      headers: [string, string][];
      body: ArrayBuffer | null;
      remoteIp: string;
      /** The id every log line about this request carries (http/requestId.ts). */
      requestId: string;
    }
  | { t: 'abort'; id: number }
  /** The main thread sent `bytes` more of the response to the client: the worker may send more. */
  | { t: 'credit'; id: number; bytes: number }
  /** How the writes of one group commit went, for the units this thread sent. */
  | { t: 'written'; results: WriteResult[] }
  | { t: 'authed'; aid: number; ok: true; value: unknown }
  | { t: 'authed'; aid: number; ok: false; error: ErrorData }
  | { t: 'forget' };

export type FromWorker =
  | { t: 'ready' }
  /**
   * Responses that were complete at once (most are): status, headers and body each, sent
   * together when the thread finished them in one turn of its event loop.
   */
  | { t: 'wholes'; responses: WholeResponse[] }
  | { t: 'head'; id: number; status: number; headers: [string, string][]; user?: string }
  | { t: 'chunk'; id: number; data: Uint8Array }
  | { t: 'end'; id: number }
  /** The response body failed after its head was sent: the main thread cuts the connection. */
  | { t: 'fail'; id: number; message: string }
  /**
   * Writes of requests, each unit one request's (one savepoint), sent together when the thread
   * made them in one turn of its event loop, so they reach the same group commit.
   */
  | { t: 'writes'; units: WriteUnit[] }
  | { t: 'auth'; aid: number; call: AuthCall }
  | { t: 'forget' }
  /** What the thread's requests ingested since its last tally, for `/metrics` (metrics/hooks.ts). */
  | { t: 'tally'; tally: Tally };

/** What a request thread is told when it starts (workerData). */
export interface WorkerSetup {
  file: string;
  logLevel: string;
  /** The main thread's WEFT_LOG_FORMAT, resolved: a thread cannot tell whether stderr is a terminal. */
  logFormat: LogFormat;
  /** The request limits (limits.ts), as the main thread loaded them from env and flags. */
  limits: Limits;
  validateResponses: boolean;
  /** Dashboard session lifetimes and cookie security (auth/sessions.ts). */
  sessions: SessionLimits;
  /** The URL the server is reached at (Services.publicUrl). */
  publicUrl: string;
  /** The built dashboard, for the trace pages handed to a read thread (process/traceFirstScreen.ts). */
  dashboardDir: string | null;
}

/** A request thread's workerData: the setup, and how far below the main thread it runs (workerBoot.mjs). */
export interface WorkerData extends WorkerSetup {
  niceness: number;
  /** The URL of the thread's code: built JavaScript, or TypeScript that workerBoot.mjs loads through tsx. */
  entry: string;
}
