/**
 * CSRF defence for the dashboard's cookie: a write (any method but GET/HEAD/OPTIONS) that would
 * be authenticated by the session cookie, and every sign-in, must come from a page of this very
 * origin. Requests with their own credentials header (Basic, Bearer, `wandb-api-key`) are not
 * checked: a browser never adds those to a cross-site request by itself (the server sends no
 * Basic challenge it could cache, see http/respond.ts), so they cannot be forged.
 *
 * The browser says where a request comes from in two headers it sets itself and a page cannot
 * change: `Sec-Fetch-Site` (Chrome 76+, Firefox 90+, Safari 16.4+) must be `same-origin`;
 * otherwise `Origin` (sent on every non-GET fetch and form post since 2020) must name this host.
 * A request with neither comes from no browser (curl, scripts, Playwright's API client): it
 * cannot be forged by a third-party page, so it passes.
 *
 * SameSite=Lax on the cookie already withholds it from cross-site POSTs in current browsers; this
 * check does not depend on that (older browsers, same-site-but-cross-origin pages).
 */
import type { Context, Next } from 'hono';
import { endpoints } from '../../contract/endpoints.js';
import { readSessionCookie } from '../auth/sessions.js';
import { ForbiddenError } from '../errors.js';
import { toErrorResponse } from './respond.js';
import type { Logger } from '../logger.js';
import { requestHeader } from './requestHeader.js';
import { requestFields } from './requestId.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Middleware refusing cross-origin cookie-authenticated writes and sign-ins with 403. */
export function sameOriginWrites(log: Logger) {
  return async function requireSameOrigin(c: Context, next: Next) {
    if (!SAFE_METHODS.has(c.req.method) && needsCheck(c)) {
      const refusal = crossOriginReason(c);
      if (refusal) return toErrorResponse(new ForbiddenError(refusal), log, `${c.req.method} ${c.req.path}`, requestFields(c));
    }
    return next();
  };
}

function needsCheck(c: Context): boolean {
  if (c.req.path === endpoints.sessionCreate.path) return true;
  if (requestHeader(c, 'authorization') || requestHeader(c, 'wandb-api-key')) return false;
  return readSessionCookie(requestHeader(c, 'cookie')) !== null;
}

/** Why the request is not same-origin, or null when it is (or comes from no browser). */
function crossOriginReason(c: Context): string | null {
  const site = requestHeader(c, 'sec-fetch-site');
  const why = 'Cross-site request refused: a signed-in dashboard session may only be used by pages of this server';
  if (site !== undefined) return site === 'same-origin' ? null : `${why} (Sec-Fetch-Site: ${site})`;
  const origin = requestHeader(c, 'origin');
  if (origin === undefined) return null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return `${why} (Origin: ${origin})`;
  }
  // Compare hosts, not schemes: behind a TLS-terminating proxy the browser says https and we see http.
  return host === (requestHeader(c, 'host') ?? new URL(c.req.url).host) ? null : `${why} (Origin: ${origin})`;
}
