/**
 * Headers every answer carries, API and dashboard alike:
 *
 * - `Content-Security-Policy`: scripts only from this origin, never inline but by hash (the
 *   built dashboard's index.html holds its boot script inline, named by its hash in the CSP the
 *   dashboard's file server sets: process/dashboard.ts), no plugins, no framing
 *   (`frame-ancestors 'none'`), forms and fetches only to this origin. Styles allow
 *   `'unsafe-inline'`: the charts (recharts) and the virtualised tables position elements with
 *   inline `style` attributes, and an injected style cannot run code (scripts stay locked);
 *   React escapes text, so injecting markup is already hard.
 *   A page with its own inline script (the /docs page) sets a CSP naming its script by hash,
 *   which this middleware then leaves alone.
 * - `X-Frame-Options: DENY`: the same anti-framing for browsers without CSP level 2.
 * - `X-Content-Type-Options: nosniff`: a JSON answer is never run as script or rendered as HTML.
 * - `Referrer-Policy: same-origin`: dashboard URLs carry project names and call ids; a link
 *   out to another site must not hand them over.
 */
import { createHash } from 'node:crypto';
import type { Context, Next } from 'hono';
import { requestEnv } from './requestEnv.js';

const BASE_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  // Audio in calls plays from blob: URLs made in the page (docs/media.md); never another site.
  'media-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The policy, optionally allowing some inline scripts by their hash. */
export function contentSecurityPolicy(scriptHashes: string[] = []): string {
  const policy = { ...BASE_POLICY, 'script-src': [...BASE_POLICY['script-src'], ...scriptHashes.map((h) => `'${h}'`)] };
  return Object.entries(policy)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

/** The `sha256-…` source of each inline `<script>` of a page, for `contentSecurityPolicy`. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `sha256-${createHash('sha256').update(m[1]!).digest('base64')}`);
}

const DEFAULT_CSP = contentSecurityPolicy();
/** The header @hono/node-server's RESPONSE_ALREADY_SENT carries. */
const ALREADY_SENT = 'x-hono-already-sent';

/** Middleware adding the headers to every response (keeping a CSP a route chose itself). */
export function securityHeaders() {
  return async function addSecurityHeaders(c: Context, next: Next) {
    const outgoing = requestEnv(c).outgoing;
    if (outgoing) {
      // Set on Node's response, where the answer's own headers (writeHead) take precedence: a
      // page's CSP naming its scripts replaces the default. Reading `c.res.headers` after the
      // handler instead made @hono/node-server build a fetch Response for every JSON answer
      // it otherwise writes straight from the handler's plain header object (with the request
      // headers' Headers, ~3% of the main thread's samples in a cpu-profile of bench:evaluations).
      for (const [name, value] of FIXED) outgoing.setHeader(name, value);
      outgoing.setHeader('content-security-policy', DEFAULT_CSP);
      return next();
    }
    // In-process requests (app.request, tests) have no Node response: set them on Hono's.
    await next();
    let headers = c.res.headers;
    // Written to the client already, by a request thread whose own app added these headers
    // (threads/requestThreads.ts): nothing here reaches the client.
    if (headers.has(ALREADY_SENT)) return;
    try {
      headers.set('x-frame-options', 'DENY');
    } catch {
      // A response with immutable headers (one passed through from fetch): copy it.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
    }
    if (!headers.has('content-security-policy')) headers.set('content-security-policy', DEFAULT_CSP);
    for (const [name, value] of FIXED) headers.set(name, value);
  };
}

/** The headers every answer carries whatever it is. */
const FIXED: [string, string][] = [
  ['x-frame-options', 'DENY'],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'same-origin'],
];
