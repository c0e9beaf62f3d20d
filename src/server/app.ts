/** Builds the HTTP app: every route group, OpenAPI and docs, the dashboard, one error mapper. */
import { Hono } from 'hono';
import { mountRoutes, type MountOptions } from './http/defineRoutes.js';
import { toErrorResponse } from './http/respond.js';
import { NotFoundError } from './errors.js';
import { sameOriginWrites } from './http/sameOrigin.js';
import { contentSecurityPolicy, inlineScriptHashes, securityHeaders } from './http/securityHeaders.js';
import { buildOpenApi, docsPage } from './openapi.js';
import { allRoutes } from './routes/allRoutes.js';
import type { Services } from './services.js';

export interface AppOptions extends MountOptions {
  /** Mounts the dashboard last, after every API route. */
  mountDashboard?: (app: Hono) => void;
}

export function createApp(services: Services, options: AppOptions): Hono {
  const app = new Hono();
  app.use('*', securityHeaders());
  app.use('*', sameOriginWrites(services.log));
  app.get('/openapi.json', (c) => c.json(buildOpenApi()));
  const docs = docsPage();
  const docsCsp = contentSecurityPolicy(inlineScriptHashes(docs));
  app.get('/docs', (c) => c.html(docs, 200, { 'content-security-policy': docsCsp }));
  mountRoutes(app, [allRoutes], services, options);
  options.mountDashboard?.(app);
  app.notFound((c) => toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), services.log, c.req.path));
  app.onError((err, c) => toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`));
  return app;
}
