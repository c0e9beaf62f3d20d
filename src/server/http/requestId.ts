/**
 * Each request's id and who made it, for the logs (docs/operations/logs.md). The id is the
 * client's `X-Request-Id` when it is a plausible one (a proxy or SDK that already names its
 * requests keeps its name across both logs), else a new UUID; it is sent back in
 * `X-Request-Id`. A request thread is handed the id the main thread chose (threads/messages.ts),
 * so every line about one request carries the same `request_id`.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { LogFields } from '../logger.js';

/** What the logs say of a request; the access log (accessLog.ts) writes it when the response ends. */
export interface RequestInfo {
  id: string;
  /** The authenticated user's name, once known. */
  user?: string;
}

const KEY = 'weftRequestInfo';
export const REQUEST_ID_HEADER = 'x-request-id';
/** Bounded and plain: an id is copied into every log line, so it must not carry a line break, markup or a novel. */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's id when it is acceptable, else a new one. */
export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && VALID_ID.test(header) ? header : randomUUID();
}

export function setRequestInfo(c: Context, info: RequestInfo): void {
  c.set(KEY as never, info as never);
}

/** The request's id and user, when the request-id middleware ran. */
export function requestInfoOf(c: Context): RequestInfo | undefined {
  return c.get(KEY as never) as RequestInfo | undefined;
}

/** Records who the request is from, for its access-log line. */
export function noteUser(c: Context, username: string): void {
  const info = requestInfoOf(c);
  if (info) info.user = username;
}

/** The fields naming the request in a log line about it (an error, a refusal). */
export function requestFields(c: Context): LogFields | undefined {
  const info = requestInfoOf(c);
  return info ? { request_id: info.id } : undefined;
}
