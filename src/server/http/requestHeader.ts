/**
 * A request's header, from Node's own parsed headers when the request came over a socket.
 *
 * Hono's `c.req.header()` reads the fetch `Headers` of the request, which @hono/node-server
 * builds from the raw headers on first use (one validated `append` per header). On the main
 * thread, which serves an evaluation logger's small writes, undici's Headers were ~3% of its
 * samples in a cpu-profile of bench:evaluations (too little to tell apart in its rate); Node
 * has already parsed the same headers into `incoming.headers`. A request made
 * in-process (`app.request`, tests) or on a request thread (threads/requestWorker.ts) has no
 * Node request and reads Hono's.
 *
 * Node keeps the first of duplicated singleton headers (Authorization, Content-Type, Host...)
 * and joins the others with ", " (Cookie with "; "), as RFC 9110 allows a recipient to.
 */
import type { Context } from 'hono';
import { requestEnv } from './requestEnv.js';

/** The header `name` (lower case), or undefined. */
export function requestHeader(c: Context, name: string): string | undefined {
  const headers = requestEnv(c).incoming?.headers;
  if (!headers) return c.req.header(name);
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
