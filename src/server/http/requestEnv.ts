/**
 * What a request carries in Hono's `c.env`: the one seam between the HTTP server, the request
 * threads and the handlers (docs/request-threads.md). Under Node's HTTP server it holds Node's
 * request and response; a request thread gives the client's address, the body it was handed and
 * a store of its own instead. In-process requests (`app.request` in tests) carry nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { Store } from '../store/Store.js';
import type { RequestInfo } from './requestId.js';

export interface RequestEnv {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
  /** The client's address, given by a request thread, which has no socket. */
  peerAddress?: string;
  /** The request body, read whole before the handler ran (a request thread, or the main thread's small writes). */
  bodyBytes?: Uint8Array | null;
  /** The store this request must use instead of the services' one (threads/storeForwarding.ts). */
  store?: Store;
  /** The request's id, chosen by the main thread, and the user, filled in here (a request thread; http/requestId.ts). */
  requestInfo?: RequestInfo;
}

/** The request's environment; `c.env` is typed by whoever serves the app, so it is read here only. */
export function requestEnv(c: Context): RequestEnv {
  return (c.env as RequestEnv | undefined) ?? {};
}
