/**
 * The access log: one line per request, written when its response ends (docs/operations/logs.md):
 * method, route template (`/call/:id`, not the path with its ids), status, duration, bytes sent
 * when known, user, request id and client address. It names no header, body or query string,
 * so no key, password or cookie can reach it (the logger's redact list is the second defence).
 *
 * It runs where the connection is: on the main thread, which also writes the answers of the
 * request threads (threads/requestThreads.ts), so a threaded request gets exactly one line too.
 * In a request thread this middleware only takes the id the main thread chose. Per request it
 * costs one plain object and a 'close' listener; the line is written by pino without blocking
 * (logger.ts).
 */
import type { Context, Next } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../logger.js';
import { clientAddressOf } from './clientAddress.js';
import { requestHeader } from './requestHeader.js';
import { requestEnv } from './requestEnv.js';
import { REQUEST_ID_HEADER, requestIdFrom, setRequestInfo, type RequestInfo } from './requestId.js';

export function accessLog(log: Logger) {
  return async function logAccess(c: Context, next: Next) {
    const env = requestEnv(c);
    // A request thread: the main thread chose the id and writes the line.
    if (env.requestInfo) {
      setRequestInfo(c, env.requestInfo);
      return next();
    }
    const start = performance.now();
    const info: RequestInfo = { id: requestIdFrom(requestHeader(c, REQUEST_ID_HEADER)) };
    setRequestInfo(c, info);
    const outgoing = env.outgoing;
    if (outgoing) {
      // Set on the Node response, so it is sent whether Hono or a request thread writes the head.
      outgoing.setHeader(REQUEST_ID_HEADER, info.id);
      // Listened to before the handler runs: a request thread's answer may be sent before next() resolves.
      outgoing.once('close', () => {
        const length = outgoing.getHeader('content-length');
        const bytes = length === undefined ? undefined : Number(length);
        write(log, c, info, outgoing.statusCode, start, bytes, !outgoing.writableFinished);
      });
      return next();
    }
    await next();
    // In-process (`app.request`): the response is complete here.
    c.header(REQUEST_ID_HEADER, info.id);
    const length = c.res.headers.get('content-length');
    write(log, c, info, c.res.status, start, length === null ? undefined : Number(length), false);
  };
}

function write(
  log: Logger,
  c: Context,
  info: RequestInfo,
  status: number,
  start: number,
  bytes: number | undefined,
  aborted: boolean,
): void {
  log.info('request', {
    request_id: info.id,
    method: c.req.method,
    // The pattern of the route that answered (`/call/:id`), known once a handler was dispatched.
    route: routePath(c),
    status,
    duration_ms: Math.round((performance.now() - start) * 10) / 10,
    bytes,
    user: info.user,
    client: clientAddressOf(c),
    // The connection closed before the whole response was sent (the client left, or a stream was cut).
    aborted: aborted || undefined,
  });
}
