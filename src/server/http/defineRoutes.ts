/**
 * Binds rows of the endpoint table to handlers and mounts them on the app. A route module
 * declares `{ endpointName: { handler, projects? } }`; everything else — reading and
 * validating input, authentication, the project check, JSON or JSON-lines output, error
 * mapping — happens here, the same way for every endpoint.
 */
import type { Context, Hono } from 'hono';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import type { z } from 'zod';
import {
  endpoints,
  NOT_TRACE_SERVER_GROUPS,
  type EndpointDef,
  type EndpointName,
  type Endpoints,
  type ResOf,
} from '../../contract/endpoints.js';
import { assertProjectAccess, type AuthUser, type Authenticator, type RequestCredentials } from '../auth/authenticate.js';
import type { InferenceServices } from '../providers/InferenceServices.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Store } from '../store/Store.js';
import { ApiError, BadRequestError, TooLargeError, ValidationError } from '../errors.js';
import { readLimitedBody, type BodyLimitKey } from './bodyLimit.js';
import { clientAddressOf } from './clientAddress.js';
import { assertJsonDepth } from './jsonDepth.js';
import { assertRequestLimits } from './requestLimits.js';
import { assertJsonContentType } from './contentType.js';
import { jsonLinesResponse } from './jsonLines.js';
import { toErrorResponse } from './respond.js';
import { coerceStrings, validate, type InputSource } from './validate.js';
import type { Logger } from '../logger.js';

/** What every handler gets besides its input. */
export interface RequestContext {
  store: Store;
  /** The authenticated caller; null only on public endpoints. */
  user: AuthUser | null;
  authenticator: Authenticator;
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
  log: Logger;
  /** Model providers and background jobs. */
  inference: InferenceServices;
  /** Headers to add to a JSON answer (a sign-in's `Set-Cookie`). */
  responseHeaders: Headers;
  /** What one request may ask (limits.ts), for handlers that check values the pipeline cannot see. */
  limits: Limits;
}

type Input<K extends EndpointName> = z.output<Endpoints[K]['req']>;
type Output<K extends EndpointName> = Endpoints[K] extends { stream: true }
  ? AsyncIterable<ResOf<K>>
  : Endpoints[K] extends { raw: true }
    ? Promise<Response>
    : Promise<ResOf<K>>;

export interface RouteDef<K extends EndpointName> {
  handler: (input: Input<K>, ctx: RequestContext & { user: AuthUser }) => Output<K>;
  /** Projects the request touches; default: its `project_id`. Each is access-checked. */
  projects?: (input: Input<K>) => Iterable<string>;
}

export interface PublicRouteDef<K extends EndpointName> {
  handler: (input: Input<K>, ctx: RequestContext) => Output<K>;
}

export type RouteTable = {
  [K in EndpointName]?: Endpoints[K] extends { public: true } | { auth: 'handler' } ? PublicRouteDef<K> : RouteDef<K>;
};

/** Identity helper that type-checks a route module against the endpoint table. */
export const defineRoutes = <T extends RouteTable>(routes: T): T => routes;

export interface MountDeps {
  store: Store;
  authenticator: Authenticator;
  log: Logger;
  maxBodyBytes: number;
  /** Request limits (limits.ts); the defaults with `maxBodyBytes` when absent. */
  limits?: Limits;
  /** Check every response against its contract schema (tests and development). */
  validateResponses: boolean;
  inference: InferenceServices;
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

/** Mounts every route of every table (trace-server ones also under `/traces`); an endpoint with no handler is not mounted. */
export function mountRoutes(app: Hono, tables: RouteTable[], deps: MountDeps): void {
  for (const table of tables) {
    for (const [name, route] of Object.entries(table) as [EndpointName, RouteDef<EndpointName>][]) {
      const endpoint: EndpointDef = endpoints[name];
      const serve = (c: Context) => handle(c, name, route, deps);
      app.on(endpoint.method, endpoint.path, serve);
      if (isTraceServerEndpoint(endpoint)) app.on(endpoint.method, TRACE_PREFIX + endpoint.path, serve);
    }
  }
}

async function handle(c: Context, name: EndpointName, route: RouteDef<EndpointName>, deps: MountDeps): Promise<Response> {
  const endpoint: EndpointDef = endpoints[name];
  const limits = deps.limits ?? { ...DEFAULT_LIMITS, maxBodyBytes: deps.maxBodyBytes };
  try {
    const user = endpoint.public || endpoint.auth === 'handler' ? null : await deps.authenticator.authenticateRequest(credentialsOf(c));
    const binary = endpoint.body === 'binary';
    const requestBody = binary ? await readBinaryBody(c, limits, 'maxBodyBytes') : null;
    const fieldsFrom =
      binary || endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'query' : endpoint.body === 'multipart' ? 'form' : 'json';
    if (fieldsFrom === 'json') assertJsonContentType(c.req.header('content-type'));
    const { raw, sourceOf, text, body: parsedBody } = await readInput(c, fieldsFrom, limits);
    // Query sizes first: they are checked in time linear in the list lengths, before walking the whole body.
    assertRequestLimits(raw, limits);
    // The whole body, not just the fields taken from it: handlers may re-read the raw text.
    assertJsonDepth(parsedBody, limits);
    coerceStrings(endpoint.req, raw, (k) => sourceOf(k) !== 'body');
    const input = validate(endpoint.req, raw, sourceOf) as Input<EndpointName>;
    if (user) assertProjectAccess(user, route.projects ? route.projects(input) : defaultProjects(input));
    const ctx: RequestContext & { user: AuthUser } = {
      store: deps.store,
      user: user!,
      authenticator: deps.authenticator,
      remoteIp: remoteIp(c),
      request: c.req.raw,
      body: requestBody,
      rawBody: text,
      log: deps.log,
      inference: deps.inference,
      responseHeaders: new Headers(),
      limits,
    };
    const result = route.handler(input, ctx);
    if (endpoint.stream) {
      const rows = result as unknown as AsyncIterable<unknown>;
      const checked = deps.validateResponses ? checkEach(rows, endpoint.res, name) : rows;
      return await jsonLinesResponse(checked, c.req.header('accept'), (err) => {
        deps.log.error(`${endpoint.method} ${endpoint.path} failed mid-stream; the connection was cut`, err);
        return abortResponse(c);
      });
    }
    if (endpoint.raw) return await (result as unknown as Promise<Response>);
    const body = await (result as Promise<unknown>);
    if (deps.validateResponses) checkResponse(endpoint.res, body, name);
    const res = c.json(body as object);
    ctx.responseHeaders.forEach((value, key) => res.headers.append(key, value));
    return res;
  } catch (err) {
    return toErrorResponse(err, deps.log, `${endpoint.method} ${endpoint.path}`);
  }
}

/** Destroys the Node response (and so the socket) under `c`; false when there is none (in-process requests). */
function abortResponse(c: Context): boolean {
  const outgoing = (c.env as { outgoing?: { destroy(): void; destroyed?: boolean } } | undefined)?.outgoing;
  if (!outgoing) return false;
  outgoing.destroy();
  return true;
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
    authorization: c.req.header('authorization'),
    apiKey: c.req.header('wandb-api-key'),
    cookie: c.req.header('cookie'),
    address: remoteIp(c),
  };
}

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/**
 * The raw body of a `body: 'binary'` endpoint, gzip/deflate decoded per Content-Encoding.
 * The size limit holds before and after decoding, so a small compressed bomb is refused too.
 */
async function readBinaryBody(c: Context, limits: Limits, key: BodyLimitKey): Promise<Uint8Array> {
  const maxBytes = limits[key];
  const bytes = await readLimitedBody(c, limits, key);
  const encoding = (c.req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return bytes;
  const decode = encoding === 'gzip' || encoding === 'x-gzip' ? gunzipAsync : encoding === 'deflate' ? inflateAsync : null;
  if (!decode) throw new ApiError(415, `Unsupported Content-Encoding "${encoding}"; send gzip, deflate or none`);
  try {
    return new Uint8Array(await decode(bytes, { maxOutputLength: maxBytes }));
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TooLargeError(
        `The ${encoding} body decodes to more than ${maxBytes} bytes; the limit is ${maxBytes} (${key === 'maxFileBytes' ? 'WEFT_MAX_FILE_BYTES' : 'WEFT_MAX_BODY_BYTES'})`,
      );
    }
    throw new BadRequestError(`Cannot decode the ${encoding} body: ${(err as Error).message}`);
  }
}

/**
 * Path params, then the query string (GET/DELETE, binary bodies), the form fields (multipart)
 * or the JSON body, as one object; `text` is the JSON body text.
 */
async function readInput(c: Context, fieldsFrom: 'query' | 'json' | 'form', limits: Limits) {
  const sources = new Map<string, InputSource>();
  const raw: Record<string, unknown> = {};
  let text: string | null = null;
  let body: unknown = null;
  for (const [k, v] of Object.entries(c.req.param() as Record<string, string>)) {
    raw[k] = v;
    sources.set(k, 'path');
  }
  if (fieldsFrom === 'query') {
    for (const [k, values] of Object.entries(c.req.queries())) {
      if (sources.has(k)) continue;
      raw[k] = values.length === 1 ? values[0] : values;
      sources.set(k, 'query');
    }
  } else if (fieldsFrom === 'form') {
    for (const [k, v] of await readFormFields(c, limits)) if (!sources.has(k)) raw[k] = v;
  } else {
    text = await readBodyText(c, limits);
    body = text === null ? null : parseJson(text);
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const [k, v] of Object.entries(body)) if (!sources.has(k)) raw[k] = v;
    } else if (body !== null) {
      throw new ValidationError([{ loc: ['body'], msg: 'Input should be a JSON object', type: 'model_attributes_type' }]);
    }
  }
  return { raw, text, body, sourceOf: (key: string | number | undefined) => sources.get(String(key)) ?? 'body' };
}

/**
 * The fields of a multipart/form-data body (`body: 'multipart'` endpoints): text fields as
 * strings, file parts as `File`s, the last value winning. The size limit holds for the whole
 * body, read before parsing, so a body without Content-Length is bounded too.
 */
async function readFormFields(c: Context, limits: Limits): Promise<Map<string, FormDataEntryValue>> {
  const bytes = await readBinaryBody(c, limits, 'maxFileBytes');
  const contentType = c.req.header('content-type') ?? '';
  try {
    return new Map(await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData());
  } catch (err) {
    const msg = `Expected a multipart/form-data body: ${(err as Error).message}`;
    throw new ValidationError([{ loc: ['body'], msg, type: 'value_error' }]);
  }
}

/**
 * The body as UTF-8 text within the size limit, null when empty. It is read as JSON with no
 * Content-Type (the Python SDK sends none) or a JSON one; form types were refused before
 * (http/contentType.ts).
 */
async function readBodyText(c: Context, limits: Limits): Promise<string | null> {
  const bytes = await readLimitedBody(c, limits, 'maxBodyBytes');
  return bytes.byteLength === 0 ? null : new TextDecoder().decode(bytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ValidationError([{ loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' }]);
  }
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
