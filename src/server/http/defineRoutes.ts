/**
 * Binds rows of the endpoint table to handlers and mounts them on the app. A route module
 * declares `{ endpointName: { handler, projects? } }`; everything else happens the same way
 * for every endpoint: authentication, reading and validating the input (readInput.ts), the
 * role check in every project the request touches (docs/security/roles.md), JSON or JSON-lines output (checked against the contract in tests), and error
 * mapping (respond.ts).
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  endpoints,
  NOT_TRACE_SERVER_GROUPS,
  type EndpointDef,
  type EndpointName,
  type Endpoints,
  type ResOf,
} from '../../contract/endpoints.js';
import type { AuthUser, RequestCredentials } from '../auth/authenticate.js';
import { requireRole } from '../auth/roles.js';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { OverMainThreadBudget } from '../threads/mainThreadBudget.js';
import { clientAddressOf } from './clientAddress.js';
import { jsonLinesResponse } from './jsonLines.js';
import { readInput, type FastInput } from './readInput.js';
import { toErrorResponse } from './respond.js';
import { requestHeader } from './requestHeader.js';
import { requestEnv } from './requestEnv.js';
import { noteUser, requestFields } from './requestId.js';

/** What every handler gets besides its input: the services, and what this request brought. */
export interface RequestContext extends Services {
  /** The authenticated caller; null only on public endpoints. */
  user: AuthUser | null;
  remoteIp: string;
  /** The raw request, for the few handlers that need headers. */
  request: Request;
  /** The request bytes (after Content-Encoding) of `body: 'binary'` endpoints; null otherwise. */
  body: Uint8Array | null;
  /**
   * The JSON body text as received, for the handlers that must re-read it losslessly (object
   * and row digests tell `1.0` from `1`); null for GET/DELETE, binary and multipart bodies.
   */
  rawBody: string | null;
  /** Headers to add to a JSON answer (a sign-in's `Set-Cookie`). */
  responseHeaders: Headers;
}

type Input<K extends EndpointName> = z.output<Endpoints[K]['req']>;
type Output<K extends EndpointName> = Endpoints[K] extends { stream: true }
  ? AsyncIterable<ResOf<K>>
  : Endpoints[K] extends { raw: true }
    ? Promise<Response>
    : Promise<ResOf<K>>;

/**
 * Where a threaded server runs a route's requests (docs/request-threads.md): `read` threads
 * (time budget, stopped when the client leaves), `write` threads, or the `main` thread (what needs
 * the providers and job runner). `main-when-small`: on the main thread when the body is small,
 * else a write thread. Every route must say, so a read-only POST cannot land on a writer unseen.
 */
export type RunsOn = 'read' | 'write' | 'main' | 'main-when-small';

export interface RouteDef<K extends EndpointName> {
  runs: RunsOn;
  handler: (input: Input<K>, ctx: RequestContext & { user: AuthUser }) => Output<K>;
  /**
   * Projects the request touches; default: its `project_id`. The caller needs the endpoint's
   * role in each; a `/v2/:entity/:project/...` path's project is always added.
   */
  projects?: (input: Input<K>) => Iterable<string>;
  /** A cheap parse for a hot endpoint, tried before the schema (readInput.ts FastInput). */
  fastInput?: FastInput<Input<K>>;
  /**
   * The request's reads must see every write acknowledged before it, on any replica (the v2
   * evaluation API): it gets `store.readYourWrites()` (docs/clickhouse.md "Read-your-writes on
   * a replicated cluster").
   */
  readYourWrites?: true;
}

export interface PublicRouteDef<K extends EndpointName> {
  runs: RunsOn;
  handler: (input: Input<K>, ctx: RequestContext) => Output<K>;
}

/** The handler an endpoint takes: public and self-authenticating endpoints get no checked user. */
export type RouteFor<K extends EndpointName> = Endpoints[K] extends { public: true } | { auth: 'handler' }
  ? PublicRouteDef<K>
  : RouteDef<K>;

/** A route module: handlers for some endpoints of the table. */
export type RouteTable = { [K in EndpointName]?: RouteFor<K> };

/**
 * A handler for every endpoint of the table but the `Elsewhere` ones: what the app mounts, so a
 * forgotten handler is a type error instead of a silently missing route (routes/allRoutes.ts).
 */
export type TotalRouteTable<Elsewhere extends EndpointName = never> = { [K in Exclude<EndpointName, Elsewhere>]: RouteFor<K> };

/** Identity helper that type-checks a route module against the endpoint table. */
export const defineRoutes = <T extends RouteTable>(routes: T): T => routes;

/** Every route of a module marked `readYourWrites`. */
export function readingOwnWrites<T extends RouteTable>(routes: T): T {
  return Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, { ...route, readYourWrites: true }])) as unknown as T;
}

export interface MountOptions {
  /** Check every response against its contract schema (tests and development). */
  validateResponses: boolean;
}

/**
 * The prefix under which every trace-server route is served a second time. The Weave SDKs
 * derive the trace-server URL from the W&B base URL as `<base>/traces` (Python
 * `weave/trace/env.py` `weave_trace_server_url`, npm `dist/urls.js` `getUrls`), so with it
 * `WANDB_BASE_URL` alone points them at Weft.
 */
export const TRACE_PREFIX = '/traces';

/** True for the endpoints of the Weave trace-server interface (not Weft's own, not W&B's GraphQL). */
export const isTraceServerEndpoint = (e: EndpointDef): boolean => !NOT_TRACE_SERVER_GROUPS.has(e.group);

/**
 * Mounts every route of every table (trace-server ones also under `/traces`). The app gives it
 * `allRoutes`, whose type requires a handler for every endpoint; the threaded main thread gives
 * it the few it serves itself and hands the rest to request threads (threads/threadedApp.ts).
 */
export function mountRoutes(app: Hono, tables: RouteTable[], services: Services, options: MountOptions): void {
  for (const table of tables) {
    for (const [name, route] of Object.entries(table) as [EndpointName, RouteDef<EndpointName>][]) {
      const endpoint: EndpointDef = endpoints[name];
      const serve = routeHandler(name, route, services, options);
      app.on(endpoint.method, endpoint.path, serve);
      if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, serve);
    }
  }
}

/** What mountRoutes mounts for one endpoint (threads/threadedApp.ts mounts some itself). */
export function routeHandler(
  name: EndpointName,
  route: RouteDef<EndpointName>,
  services: Services,
  options: MountOptions,
): (c: Context) => Promise<Response> {
  return (c) => handle(c, name, route, services, options);
}

async function handle(
  c: Context,
  name: EndpointName,
  route: RouteDef<EndpointName>,
  services: Services,
  options: MountOptions,
): Promise<Response> {
  const endpoint: EndpointDef = endpoints[name];
  const { limits, log } = services;
  try {
    const user = endpoint.public || endpoint.auth === 'handler' ? null : await services.authenticator.authenticateRequest(credentialsOf(c));
    if (user) noteUser(c, user.username);
    const { input, bytes, text } = await readInput<Input<EndpointName>>(c, endpoint, limits, route.fastInput);
    if (user) checkRole(user, endpoint, route, input);
    // Every field named, not `...services` and then the request's: on Node 20, an object made
    // by a spread takes each further property through the runtime (~0.5 µs each, 3.4 µs for
    // this context against 0.02 µs so; measured in a loop), 2% of the main thread's time under
    // evaluation logging. The type still asks for every service.
    const ctx: RequestContext & { user: AuthUser } = {
      // A request thread hands each request a store of its own (threads/storeForwarding.ts requestStore).
      store: storeFor(requestEnv(c).store ?? services.store, route),
      authenticator: services.authenticator,
      log,
      clock: services.clock,
      inference: services.inference,
      limits,
      publicUrl: services.publicUrl,
      audit: services.audit,
      oidc: services.oidc ?? null,
      user: user!,
      remoteIp: remoteIp(c),
      request: c.req.raw,
      body: bytes,
      rawBody: text,
      responseHeaders: new Headers(),
    };
    const result = route.handler(input, ctx);
    if (endpoint.stream) {
      const rows = result as unknown as AsyncIterable<unknown>;
      const checked = options.validateResponses ? checkEach(rows, endpoint.res, name) : rows;
      return await jsonLinesResponse(checked, requestHeader(c, 'accept'), (err) => {
        log.error(`${endpoint.method} ${endpoint.path} failed mid-stream; the connection was cut`, err, requestFields(c));
        return abortResponse(c);
      });
    }
    if (endpoint.raw) return await (result as unknown as Promise<Response>);
    const body = await (result as Promise<unknown>);
    if (options.validateResponses) checkResponse(endpoint.res, body, name);
    const res = c.json(body as object);
    ctx.responseHeaders.forEach((value, key) => res.headers.append(key, value));
    return res;
  } catch (err) {
    // Not an answer: the main thread hands the request to a request thread (threadedApp.ts).
    if (err instanceof OverMainThreadBudget) throw err;
    return toErrorResponse(err, log, `${endpoint.method} ${endpoint.path}`, requestFields(c));
  }
}

/** The store a route's handler gets: the read-your-writes one where the route asks for it. */
function storeFor(store: Services['store'], route: { readYourWrites?: true }): Services['store'] {
  return route.readYourWrites && store.readYourWrites ? store.readYourWrites() : store;
}

/** Destroys the Node response (and so the socket) under `c`; false when there is none (in-process requests). */
function abortResponse(c: Context): boolean {
  const outgoing = requestEnv(c).outgoing;
  if (!outgoing) return false;
  outgoing.destroy();
  return true;
}

/**
 * Throws 403 naming the role needed unless the caller has the endpoint's role in every project
 * the request touches. `signed-in` endpoints act on the caller's own account (or check an
 * entity role in the handler), so there is no project to check.
 */
function checkRole(user: AuthUser, endpoint: EndpointDef, route: RouteDef<EndpointName>, input: Input<EndpointName>): void {
  const need = endpoint.role;
  if (need === 'signed-in') return;
  // The contract requires a role on every non-public endpoint; none would be a bug, refused.
  if (!need) throw new ApiError(500, `${endpoint.method} ${endpoint.path} declares no role`);
  const projects = new Set(route.projects ? route.projects(input) : defaultProjects(input));
  const path = pathProject(endpoint, input);
  if (path) projects.add(path);
  for (const projectId of projects) requireRole(user, projectId, need, `use ${endpoint.method} ${endpoint.path}`);
}

/** `<entity>/<project>` of a `/v2/:entity/:project/...` path, whatever the route declares. */
function pathProject(endpoint: EndpointDef, input: unknown): string | null {
  if (!endpoint.path.includes('/:entity/:project/')) return null;
  const { entity, project } = input as { entity?: unknown; project?: unknown };
  return typeof entity === 'string' && typeof project === 'string' ? `${entity}/${project}` : null;
}

function defaultProjects(input: unknown): string[] {
  const projectId = (input as { project_id?: unknown }).project_id;
  return typeof projectId === 'string' ? [projectId] : [];
}

/**
 * The credentials a request offers: the `Authorization` header (Basic or Bearer), a
 * `wandb-api-key` header (what OTel exporters configured for Weave send), or the dashboard's
 * session cookie, and the client address for throttling.
 */
function credentialsOf(c: Context): RequestCredentials {
  return {
    authorization: requestHeader(c, 'authorization'),
    apiKey: requestHeader(c, 'wandb-api-key'),
    cookie: requestHeader(c, 'cookie'),
    address: remoteIp(c),
  };
}

/** The client's address: the socket's peer, or the forwarded one behind a trusted proxy (http/clientAddress.ts). */
export function remoteIp(c: Context): string {
  return clientAddressOf(c);
}

function checkResponse(schema: z.ZodType, body: unknown, name: string): void {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ApiError(500, `Response of ${name} breaks its contract: ${result.error.message}`);
  }
}

async function* checkEach(rows: AsyncIterable<unknown>, schema: z.ZodType, name: string): AsyncIterable<unknown> {
  for await (const row of rows) {
    checkResponse(schema, row, name);
    yield row;
  }
}
