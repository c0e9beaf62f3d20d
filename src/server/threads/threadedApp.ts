/**
 * A threaded server's dispatch, derived from each route's `runs`. `/health` is answered on the
 * main thread (it must never wait behind anyone's work), and so are the model-backed endpoints,
 * which need the providers and the one job runner that live there. The rest go to a read or a
 * write thread. app.ts applies the middleware to both alike.
 *
 * An evaluation logger's small writes (`main-when-small`) stay on the main thread: each is less
 * work than its hand-off to a thread and back (figures in docs/performance.md). Their work is
 * bounded by the body limit and the main thread's read budget (mainThreadBudget.ts).
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
import type { Services } from '../services.js';
import type { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { budgetedStore, committedStore, OverMainThreadBudget } from './mainThreadBudget.js';
import type { HandOff, RequestKind, RequestThreads } from './requestThreads.js';
import { requestHeader } from '../http/requestHeader.js';
import { requestEnv } from '../http/requestEnv.js';
import { requestFields } from '../http/requestId.js';

/** A prediction's inputs and output or a score's value: the SDK's bodies are well under this. */
export const SMALL_BODY_BYTES = 16 * 1024;

/**
 * Mounts every route of `tables` where its `runs` says (http/defineRoutes.ts RunsOn): `main`
 * routes as themselves, the others as hand-offs to a read or write thread.
 */
export function mountThreaded(app: Hono, tables: RouteTable[], services: Services, options: MountOptions, threads: RequestThreads): void {
  const local = tables.map((table) => Object.fromEntries(Object.entries(table).filter(([, route]) => route.runs === 'main')) as RouteTable);
  mountRoutes(app, local, services, options);
  for (const table of tables) {
    for (const [name, route] of Object.entries(table) as [EndpointName, RouteDef<EndpointName>][]) {
      if (route.runs === 'main') continue;
      const endpoint: EndpointDef = endpoints[name];
      const kind: RequestKind = route.runs === 'read' ? 'read' : 'write';
      // File uploads are held to the file limit, everything else to the body limit, as in http/readInput.ts.
      const limit = endpoint.body === 'multipart' ? 'maxFileBytes' : 'maxBodyBytes';
      const authenticate = !endpoint.public && endpoint.auth !== 'handler';
      const handOff: HandOff = { bodyLimit: limit, authenticate };
      const serve =
        route.runs === 'main-when-small'
          ? serveSmallHere(routeHandler(name, route, services, options), services, threads, kind, handOff)
          : (c: Context) => threads.handle(c, kind, handOff);
      app.on(endpoint.method, endpoint.path, serve);
      if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, serve);
    }
  }
}

/**
 * Serves a request of a `main-when-small` route here when its body says it is small, over a
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
      return toErrorResponse(err, services.log, `${c.req.method} ${c.req.path}`, requestFields(c));
    }
    // The handler takes the body and the store from the request's env (http/bodyLimit.ts, defineRoutes.ts).
    Object.assign(requestEnv(c), { bodyBytes: body, store: budgetedStore(committed, measured) });
    try {
      return await here(c);
    } catch (err) {
      if (!(err instanceof OverMainThreadBudget)) throw err;
      services.log.debug(`${c.req.method} ${c.req.path}: ${err.message}`, requestFields(c));
      // The credentials were checked here; the thread checks them again from the process's cache.
      return threads.handle(c, kind, { ...handOff, authenticate: false }, body);
    }
  };
}
