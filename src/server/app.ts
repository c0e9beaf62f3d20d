/**
 * Builds the HTTP app: every route group, OpenAPI and docs, the dashboard, one error mapper,
 * behind the same middleware (client address, security headers, same-origin writes). With
 * request threads (`options.threads`) it is the same app: the middleware runs here, on the main
 * thread, and each endpoint is either served here (`/health`, the model-backed endpoints) or
 * handed to a request thread, which runs this very function's app over its own connection
 * (threads/requestWorker.ts). So a request gets the same answer with threads on or off.
 */
import { Hono } from 'hono';
import { accessLog } from './http/accessLog.js';
import { mountRoutes, type MountOptions } from './http/defineRoutes.js';
import { resolveClientAddress, TrustedProxies } from './http/clientAddress.js';
import { toErrorResponse } from './http/respond.js';
import { requestFields } from './http/requestId.js';
import { readyHandler } from './http/ready.js';
import { NotFoundError } from './errors.js';
import { sameOriginWrites } from './http/sameOrigin.js';
import { contentSecurityPolicy, inlineScriptHashes, securityHeaders } from './http/securityHeaders.js';
import { buildOpenApi, docsPage } from './openapi.js';
import { allRoutes } from './routes/allRoutes.js';
import type { Services } from './services.js';
import type { RequestThreads } from './threads/requestThreads.js';
import { mountThreaded } from './threads/threadedApp.js';
import { mountMetricsEndpoint, mountRequestMetrics, type MetricsAccess } from './metrics/http.js';
import { mountDashboard } from './process/dashboard.js';

export interface AppOptions extends MountOptions {
  /** The built dashboard to serve last, after every API route (process/dashboard.ts); none when absent. */
  dashboardDir?: string;
  /** Peers whose X-Forwarded-For is believed (WEFT_TRUSTED_PROXIES); default none. */
  trustedProxies?: TrustedProxies;
  /** Request threads to hand API requests to; absent, every request is served in this thread. */
  threads?: RequestThreads | null;
  /** Who may read `/metrics` (WEFT_METRICS); absent (a request thread's app): no metrics here. */
  metrics?: MetricsAccess;
}

export function createApp(services: Services, options: AppOptions): Hono {
  const app = new Hono();
  app.use('*', accessLog(services.log));
  if (options.metrics) mountRequestMetrics(app, options.metrics);
  app.use('*', resolveClientAddress(options.trustedProxies ?? new TrustedProxies([])));
  app.use('*', securityHeaders());
  app.use('*', sameOriginWrites(services.log));
  if (options.metrics) mountMetricsEndpoint(app, services, options.metrics);
  const { threads } = options;
  // Readiness for load balancers and orchestrators, on this thread (http/ready.ts).
  app.get('/ready', readyHandler(services.store));
  if (threads) {
    app.get('/openapi.json', (c) => threads.handle(c, 'read'));
    app.get('/docs', (c) => threads.handle(c, 'read'));
    mountThreaded(app, [allRoutes], services, options, threads);
  } else {
    app.get('/openapi.json', (c) => c.json(buildOpenApi()));
    const docs = docsPage();
    const docsCsp = contentSecurityPolicy(inlineScriptHashes(docs));
    app.get('/docs', (c) => c.html(docs, 200, { 'content-security-policy': docsCsp }));
    mountRoutes(app, [allRoutes], services, options);
  }
  if (options.dashboardDir) mountDashboard(app, options.dashboardDir, threads ?? null);
  app.notFound((c) =>
    toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), services.log, c.req.path, requestFields(c)),
  );
  app.onError((err, c) => toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`, requestFields(c)));
  return app;
}
