/**
 * The main thread's HTTP app when requests run in threads: `/health` is answered here (it
 * must never wait behind anyone's work), the dashboard's static files are sent from here, and
 * every API endpoint, the OpenAPI document and the docs page are handed to a request thread —
 * except the model-backed endpoints, which need the providers and the one job runner that live
 * on the main thread (their own work is network-bound, not SQLite-bound).
 */
import { Hono } from 'hono';
import { endpoints, type EndpointName } from '../../contract/endpoints.js';
import { isTraceServerEndpoint, mountRoutes, TRACE_PREFIX } from '../http/defineRoutes.js';
import { NotFoundError } from '../errors.js';
import { toErrorResponse } from '../http/respond.js';
import { completionRoutes } from '../routes/completions.js';
import { evaluationRoutes } from '../routes/evaluations.js';
import { inferenceRoutes } from '../routes/inference.js';
import { providerRoutes } from '../routes/providers.js';
import { serviceRoutes } from '../routes/service.js';
import type { AppOptions } from '../app.js';
import type { Services } from '../services.js';
import { READ_ENDPOINTS } from './readEndpoints.js';
import type { RequestThreads } from './requestThreads.js';

/** Route tables served on the main thread, beside `/health`. */
const MAIN_THREAD_ROUTES = [
  { health: serviceRoutes.health, geolocate: serviceRoutes.geolocate },
  completionRoutes,
  inferenceRoutes,
  providerRoutes,
  evaluationRoutes,
];
const ON_MAIN = new Set(MAIN_THREAD_ROUTES.flatMap((t) => Object.keys(t)));

export function createThreadedApp(services: Services, options: AppOptions & { threads: RequestThreads }): Hono {
  const app = new Hono();
  const { threads } = options;
  mountRoutes(app, MAIN_THREAD_ROUTES, services, options);
  app.get('/openapi.json', (c) => threads.handle(c, 'read'));
  app.get('/docs', (c) => threads.handle(c, 'read'));
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    if (ON_MAIN.has(name)) continue;
    const endpoint = endpoints[name];
    const kind = READ_ENDPOINTS.has(name) ? 'read' : 'write';
    app.on(endpoint.method, endpoint.path, (c) => threads.handle(c, kind));
    if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, (c) => threads.handle(c, kind));
  }
  options.mountDashboard?.(app);
  app.notFound((c) => toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), services.log, c.req.path));
  app.onError((err, c) => toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`));
  return app;
}
