/** Builds the HTTP app: every route group, OpenAPI and docs, the dashboard, one error mapper. */
import { Hono } from 'hono';
import { mountRoutes, type MountOptions } from './http/defineRoutes.js';
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
  mountRoutes(
    app,
    [
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
    ],
    services,
    options,
  );
  options.mountDashboard?.(app);
  app.notFound((c) => toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), services.log, c.req.path));
  app.onError((err, c) => toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`));
  return app;
}
