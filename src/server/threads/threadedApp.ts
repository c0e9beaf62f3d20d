/**
 * Which endpoints a threaded server serves on its main thread, and the hand-off of every other
 * one to a request thread. `/health` is answered on the main thread (it must never wait behind
 * anyone's work), and so are the model-backed endpoints, which need the providers and the one
 * job runner that live there (their own work is network-bound, not SQLite-bound). The rest go to
 * a read or a write thread (readEndpoints.ts). app.ts applies the middleware to both alike.
 */
import type { Context, Hono } from 'hono';
import { endpoints, type EndpointDef, type EndpointName } from '../../contract/endpoints.js';
import { isTraceServerEndpoint, mountRoutes, TRACE_PREFIX, type MountOptions, type RouteTable } from '../http/defineRoutes.js';
import { completionRoutes } from '../routes/completions.js';
import { evaluationJobRoutes } from '../routes/evaluations.js';
import { inferenceRoutes } from '../routes/inference.js';
import { providerRoutes } from '../routes/providers.js';
import type { Services } from '../services.js';
import { READ_ENDPOINTS } from './readEndpoints.js';
import type { RequestThreads } from './requestThreads.js';

/**
 * Endpoints served on the main thread, beside the dashboard's static files. None of the reads
 * readEndpoints.ts lists may be here (threadedApp.test.ts).
 */
export const ON_MAIN: ReadonlySet<string> = new Set<string>([
  'health',
  'geolocate',
  ...[completionRoutes, inferenceRoutes, providerRoutes, evaluationJobRoutes].flatMap(Object.keys),
]);

/** Mounts every route of `tables`: main-thread ones as themselves, the others as hand-offs to a thread. */
export function mountThreaded(app: Hono, tables: RouteTable[], services: Services, options: MountOptions, threads: RequestThreads): void {
  const local = tables.map((table) => Object.fromEntries(Object.entries(table).filter(([name]) => ON_MAIN.has(name))) as RouteTable);
  mountRoutes(app, local, services, options);
  for (const table of tables) {
    for (const name of Object.keys(table) as EndpointName[]) {
      if (ON_MAIN.has(name)) continue;
      const endpoint: EndpointDef = endpoints[name];
      const kind = READ_ENDPOINTS.has(name) ? 'read' : 'write';
      // File uploads are held to the file limit, everything else to the body limit, as in http/readInput.ts.
      const limit = endpoint.body === 'multipart' ? 'maxFileBytes' : 'maxBodyBytes';
      const authenticate = !endpoint.public && endpoint.auth !== 'handler';
      const serve = (c: Context) => threads.handle(c, kind, { bodyLimit: limit, authenticate });
      app.on(endpoint.method, endpoint.path, serve);
      if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, serve);
    }
  }
}
