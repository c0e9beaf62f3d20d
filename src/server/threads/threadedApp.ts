/**
 * Which endpoints a threaded server serves on its main thread, and the hand-off of every other
 * one to a request thread. `/health` is answered on the main thread (it must never wait behind
 * anyone's work), and so are the model-backed endpoints, which need the providers and the one
 * job runner that live there (their own work is network-bound, not SQLite-bound). The rest go to
 * a read or a write thread (readEndpoints.ts). app.ts applies the middleware to both alike.
 *
 * An evaluation logger's own requests (ON_MAIN_WHEN_SMALL) are served on the main thread when
 * their body is small: each is a few point reads and one small write, ~50-75 µs of work, less
 * than its hand-off to a thread and back costs (two messages, two thread wake-ups, the answer's
 * own message), and the SDK sends five per prediction, one at a time. bench:evaluations, three
 * rounds alternating with the hand-off: 1 in flight 221-243 → 333-359 predictions/s, 8 in flight
 * 607-687 → 851-878, 20 in flight 794-887 → 1,038-1,110; server CPU per prediction at 8 in flight
 * 1.47-1.68 → 1.16-1.20 ms; a /health probe's p99 meanwhile 3-13 → 7-16 ms. What bounds their
 * work here is the body limit below (what they parse and write) and the budget of their reads,
 * rows and bytes measured before anything is loaded (mainThreadBudget.ts); a request past either
 * goes to a write thread instead.
 */
import type { Context, Hono } from 'hono';
import { endpoints, type EndpointDef, type EndpointName } from '../../contract/endpoints.js';
import { readLimitedBody } from '../http/bodyLimit.js';
import {
  isTraceServerEndpoint,
  mountRoutes,
  routeHandler,
  TRACE_PREFIX,
  type MountOptions,
  type RouteDef,
  type RouteTable,
} from '../http/defineRoutes.js';
import { toErrorResponse } from '../http/respond.js';
import { completionRoutes } from '../routes/completions.js';
import { evaluationJobRoutes } from '../routes/evaluations.js';
import { inferenceRoutes } from '../routes/inference.js';
import { providerRoutes } from '../routes/providers.js';
import type { Services } from '../services.js';
import type { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { budgetedStore, committedStore, OverMainThreadBudget } from './mainThreadBudget.js';
import { READ_ENDPOINTS } from './readEndpoints.js';
import type { HandOff, RequestKind, RequestThreads } from './requestThreads.js';
import { requestHeader } from '../http/requestHeader.js';

/**
 * Endpoints served on the main thread, beside the dashboard's static files. None of the reads
 * readEndpoints.ts lists may be here (threadedApp.test.ts).
 */
export const ON_MAIN: ReadonlySet<string> = new Set<string>([
  'health',
  'geolocate',
  ...[completionRoutes, inferenceRoutes, providerRoutes, evaluationJobRoutes].flatMap(Object.keys),
]);

/**
 * Write endpoints served on the main thread when their body is at most SMALL_BODY_BYTES (see
 * above). Each must write only as its last act (Store.applyLast), so a request stopped by the read
 * budget has changed nothing when a thread serves it again, and answer JSON, not a stream.
 */
export const ON_MAIN_WHEN_SMALL: ReadonlySet<EndpointName> = new Set<EndpointName>(['predictionCreate', 'scoreCreate', 'predictionFinish']);
/** A prediction's inputs and output or a score's value: the SDK's bodies are well under this. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** Mounts every route of `tables`: main-thread ones as themselves, the others as hand-offs to a thread. */
export function mountThreaded(app: Hono, tables: RouteTable[], services: Services, options: MountOptions, threads: RequestThreads): void {
  const local = tables.map((table) => Object.fromEntries(Object.entries(table).filter(([name]) => ON_MAIN.has(name))) as RouteTable);
  mountRoutes(app, local, services, options);
  for (const table of tables) {
    for (const [name, route] of Object.entries(table) as [EndpointName, RouteDef<EndpointName>][]) {
      if (ON_MAIN.has(name)) continue;
      const endpoint: EndpointDef = endpoints[name];
      const kind = READ_ENDPOINTS.has(name) ? 'read' : 'write';
      // File uploads are held to the file limit, everything else to the body limit, as in http/readInput.ts.
      const limit = endpoint.body === 'multipart' ? 'maxFileBytes' : 'maxBodyBytes';
      const authenticate = !endpoint.public && endpoint.auth !== 'handler';
      const handOff: HandOff = { bodyLimit: limit, authenticate };
      const serve = ON_MAIN_WHEN_SMALL.has(name)
        ? serveSmallHere(routeHandler(name, route, services, options), services, threads, kind, handOff)
        : (c: Context) => threads.handle(c, kind, handOff);
      app.on(endpoint.method, endpoint.path, serve);
      if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, serve);
    }
  }
}

/**
 * Serves a request of an ON_MAIN_WHEN_SMALL endpoint here when its body says it is small, over a
 * store held to the main thread's read budget; hands it to a thread otherwise, or once a read
 * would pass the budget (mainThreadBudget.ts).
 */
function serveSmallHere(
  here: (c: Context) => Promise<Response>,
  services: Services,
  threads: RequestThreads,
  kind: RequestKind,
  handOff: HandOff,
): (c: Context) => Promise<Response> {
  const committed = committedStore(services.store, threads.committer);
  // Request threads exist only over a SQLite file (main.ts).
  const measured = (services.store as SqliteStore).calls;
  return async (c) => {
    // Only a body that says it is small: one sent in chunks could be any size. (JSON bodies are
    // never decompressed: http/readInput.ts decodes binary ones only.)
    if (!(Number(requestHeader(c, 'content-length') ?? Infinity) <= SMALL_BODY_BYTES)) return threads.handle(c, kind, handOff);
    let body: Uint8Array;
    try {
      body = await readLimitedBody(c, services.limits, handOff.bodyLimit ?? 'maxBodyBytes');
    } catch (err) {
      return toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`);
    }
    // The handler takes the body and the store from the request's env (http/bodyLimit.ts, defineRoutes.ts).
    Object.assign(c.env as object, { bodyBytes: body, store: budgetedStore(committed, measured) });
    try {
      return await here(c);
    } catch (err) {
      if (!(err instanceof OverMainThreadBudget)) throw err;
      services.log.debug(`${c.req.method} ${c.req.path}: ${err.message}`);
      // The credentials were checked here; the thread checks them again from the process's cache.
      return threads.handle(c, kind, { ...handOff, authenticate: false }, body);
    }
  };
}
