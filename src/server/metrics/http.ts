/**
 * `GET /metrics` and the middleware that counts and times every request, mounted first by app.ts
 * on the main thread (where every request arrives, whichever thread then serves it), so request
 * figures need nothing from the request threads. Who may read it: WEFT_METRICS
 * (docs/operations/metrics.md).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { isClusterWorker } from '../process/cluster.js';
import { ForbiddenError, ServiceUnavailableError } from '../errors.js';
import { clientAddressOf } from '../http/clientAddress.js';
import { requestEnv } from '../http/requestEnv.js';
import { requestHeader } from '../http/requestHeader.js';
import { toErrorResponse } from '../http/respond.js';
import type { Services } from '../services.js';
import { clusterMetricsText } from './clusterMetrics.js';
import { weftMetrics, type WeftMetrics } from './registry.js';

/** Who may read `/metrics`: an instance admin's credentials, anyone, or nobody (no endpoint, no counting). */
export type MetricsAccess = 'admin' | 'public' | 'off';

/** The route label of a request no route matched: a fixed value, never the path (which may hold ids). */
export const UNMATCHED = '(unmatched)';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts and times every request: mounted before every other middleware, so it sees requests they refuse. */
export function mountRequestMetrics(app: Hono, access: MetricsAccess): void {
  if (access !== 'off') app.use('*', requestMetrics(weftMetrics()));
}

/** `GET /metrics`: mounted after the middleware (client address, security headers), before the other routes. */
export function mountMetricsEndpoint(app: Hono, services: Services, access: MetricsAccess): void {
  if (access === 'off') return;
  const metrics = weftMetrics();
  app.get('/metrics', async (c) => {
    if (access === 'admin') {
      const refused = await refuseUnlessAdmin(c, services);
      if (refused) return refused;
    }
    let text: string;
    try {
      text = isClusterWorker() ? await clusterMetricsText() : await metrics.registry.metrics();
    } catch (err) {
      services.log.warn(`GET /metrics: ${String(err)}`);
      return toErrorResponse(
        new ServiceUnavailableError(`The metrics could not be gathered: ${(err as Error).message}`, 5),
        services.log,
        'GET /metrics',
      );
    }
    return c.body(text, 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
  });
}

/**
 * Counts each request when its answer is done: at the Node response's `close` (which comes
 * after the last byte, and also when the client left), because a request served by a thread
 * answers through that response directly, after the handler here has returned.
 */
function requestMetrics(metrics: WeftMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    const route = routeLabel(c);
    metrics.httpInFlight.inc();
    const done = (status: string) => {
      const labels = { method, route, status };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
      metrics.httpInFlight.dec();
    };
    const { outgoing } = requestEnv(c);
    if (outgoing) {
      outgoing.once('close', () => done(outgoing.headersSent ? String(outgoing.statusCode) : 'aborted'));
      await next();
      return;
    }
    // In-process requests (app.request in tests) have no Node response.
    try {
      await next();
    } finally {
      done(String(c.res.status));
    }
  };
}

/**
 * The template of the route that matched (`/calls/:id`), never the path itself: the last
 * matched handler that is a route rather than middleware (`app.use`, method ALL). The dashboard
 * answers every other GET under its `*` route.
 */
function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== 'ALL') return routes[i]!.path;
  return UNMATCHED;
}

/** 401 without credentials (or wrong ones), 403 for someone who is not an instance admin. */
async function refuseUnlessAdmin(c: Context, services: Services): Promise<Response | null> {
  try {
    const user = await services.authenticator.authenticateRequest({
      authorization: requestHeader(c, 'authorization'),
      apiKey: requestHeader(c, 'wandb-api-key'),
      cookie: requestHeader(c, 'cookie'),
      address: clientAddressOf(c),
    });
    if (!user.isAdmin)
      throw new ForbiddenError('Only an instance admin may read /metrics (or set WEFT_METRICS=public for a scraper on a private network)');
    return null;
  } catch (err) {
    return toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`);
  }
}
