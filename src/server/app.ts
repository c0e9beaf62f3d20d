/**
 * Builds the HTTP app: every route group, OpenAPI and docs, the dashboard, one error mapper,
 * behind the same middleware (client address, security headers, same-origin writes). With
 * request threads (`deps.threads`) it is the same app: the middleware runs here, on the main
 * thread, and each endpoint is either served here (`/health`, the model-backed endpoints) or
 * handed to a request thread, which runs this very function's app over its own connection
 * (threads/requestWorker.ts). So a request gets the same answer with threads on or off.
 */
import { Hono } from 'hono';
import type { Authenticator } from './auth/authenticate.js';
import { mountRoutes, type RouteTable } from './http/defineRoutes.js';
import { resolveClientAddress, TrustedProxies } from './http/clientAddress.js';
import type { Logger } from './logger.js';
import { toErrorResponse } from './http/respond.js';
import { NotFoundError } from './errors.js';
import { sameOriginWrites } from './http/sameOrigin.js';
import { contentSecurityPolicy, inlineScriptHashes, securityHeaders } from './http/securityHeaders.js';
import { buildOpenApi, docsPage } from './openapi.js';
import { accountRoutes } from './routes/accounts.js';
import { annotationQueueRoutes } from './routes/annotationQueues.js';
import { callRoutes } from './routes/calls.js';
import { completionRoutes } from './routes/completions.js';
import { costRoutes } from './routes/costs.js';
import { evaluationRunRoutes } from './routes/evaluationRuns.js';
import { evaluationRoutes } from './routes/evaluations.js';
import { exportRoutes } from './routes/export.js';
import { feedbackRoutes } from './routes/feedback.js';
import { otelRoutes } from './routes/otel.js';
import { fileRoutes } from './routes/files.js';
import { inferenceRoutes } from './routes/inference.js';
import { graphqlRoutes } from './routes/graphql.js';
import { objectRoutes } from './routes/objects.js';
import { providerRoutes } from './routes/providers.js';
import { refRoutes } from './routes/refs.js';
import { serviceRoutes } from './routes/service.js';
import { sessionRoutes } from './routes/sessions.js';
import { statsRoutes } from './routes/stats.js';
import { tableRoutes } from './routes/tables.js';
import { threadRoutes } from './routes/threads.js';
import { v2ObjectRoutes } from './routes/v2Objects.js';
import type { InferenceServices } from './providers/InferenceServices.js';
import type { Store } from './store/Store.js';
import type { Limits } from './limits.js';
import type { RequestThreads } from './threads/requestThreads.js';
import { mountThreaded } from './threads/threadedApp.js';

export interface AppDeps {
  store: Store;
  authenticator: Authenticator;
  log: Logger;
  maxBodyBytes: number;
  /** Request limits (limits.ts); defaults when absent, with `maxBodyBytes` from above. */
  limits?: Limits;
  validateResponses: boolean;
  /** Model providers and background jobs. */
  inference: InferenceServices;
  /** Mounts the dashboard last, after every API route. */
  mountDashboard?: (app: Hono) => void;
  /** Peers whose X-Forwarded-For is believed (WEFT_TRUSTED_PROXIES); default none. */
  trustedProxies?: TrustedProxies;
  /** Request threads to hand API requests to; absent, every request is served in this thread. */
  threads?: RequestThreads | null;
}

/** Every route group, in mounting order. */
const ROUTE_TABLES: RouteTable[] = [
  serviceRoutes,
  callRoutes,
  statsRoutes,
  exportRoutes,
  threadRoutes,
  feedbackRoutes,
  costRoutes,
  otelRoutes,
  objectRoutes,
  tableRoutes,
  fileRoutes,
  refRoutes,
  annotationQueueRoutes,
  v2ObjectRoutes,
  evaluationRunRoutes,
  evaluationRoutes,
  accountRoutes,
  completionRoutes,
  inferenceRoutes,
  providerRoutes,
  sessionRoutes,
  graphqlRoutes,
];

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.use('*', resolveClientAddress(deps.trustedProxies ?? new TrustedProxies([])));
  app.use('*', securityHeaders());
  app.use('*', sameOriginWrites(deps.log));
  const { threads } = deps;
  if (threads) {
    app.get('/openapi.json', (c) => threads.handle(c, 'read'));
    app.get('/docs', (c) => threads.handle(c, 'read'));
    mountThreaded(app, ROUTE_TABLES, deps, threads);
  } else {
    app.get('/openapi.json', (c) => c.json(buildOpenApi()));
    const docs = docsPage();
    const docsCsp = contentSecurityPolicy(inlineScriptHashes(docs));
    app.get('/docs', (c) => c.html(docs, 200, { 'content-security-policy': docsCsp }));
    mountRoutes(app, ROUTE_TABLES, deps);
  }
  deps.mountDashboard?.(app);
  app.notFound((c) => toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), deps.log, c.req.path));
  app.onError((err, c) => toErrorResponse(err, deps.log, `${c.req.method} ${c.req.path}`));
  return app;
}
