/**
 * The main thread's HTTP app when requests run in threads: `/health` is answered here (it
 * must never wait behind anyone's work), the dashboard's static files are sent from here, and
 * every API endpoint, the OpenAPI document and the docs page are handed to a request thread.
 */
import { Hono } from 'hono';
import { endpoints, type EndpointName } from '../../contract/endpoints.js';
import { mountRoutes, type MountDeps } from '../http/defineRoutes.js';
import { NotFoundError } from '../errors.js';
import { toErrorResponse } from '../http/respond.js';
import { serviceRoutes } from '../routes/service.js';
import { READ_ENDPOINTS } from './readEndpoints.js';
import type { RequestThreads } from './requestThreads.js';

export function createThreadedApp(deps: MountDeps & { threads: RequestThreads; mountDashboard?: (app: Hono) => void }): Hono {
  const app = new Hono();
  const { threads } = deps;
  mountRoutes(app, [{ health: serviceRoutes.health }], deps);
  app.get('/openapi.json', (c) => threads.handle(c, 'read'));
  app.get('/docs', (c) => threads.handle(c, 'read'));
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    if (name === 'health') continue;
    const endpoint = endpoints[name];
    const kind = READ_ENDPOINTS.has(name) ? 'read' : 'write';
    app.on(endpoint.method, endpoint.path, (c) => threads.handle(c, kind));
  }
  deps.mountDashboard?.(app);
  app.notFound((c) => toErrorResponse(new NotFoundError(`No endpoint ${c.req.method} ${c.req.path}; see /docs`), deps.log, c.req.path));
  app.onError((err, c) => toErrorResponse(err, deps.log, `${c.req.method} ${c.req.path}`));
  return app;
}
