/**
 * The typed client: one method per row of the endpoint table, for the browser and Node. It
 * needs only the table's routes (routeTable.ts) and its types, never the zod schemas.
 *
 * @example
 * const weft = createClient({ baseUrl: 'http://127.0.0.1:8420', auth: { username: 'api', password: key } });
 * for await (const call of weft.callsStreamQuery({ project_id: 'acme/bot', limit: 10 })) console.log(call.op_name);
 */
import type { EndpointName, Endpoints, ReqOf, ResOf } from '../contract/endpoints.js';
import { HttpError } from './HttpError.js';
import { readJsonLines } from './readJsonLines.js';
import { routes, type RouteInfo } from './routeTable.js';

export interface ClientOptions {
  /** Service root, e.g. `http://127.0.0.1:8420`; `''` means same origin (the dashboard). */
  baseUrl: string;
  auth?: { username: string; password: string } | null;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** Per-request options. */
export interface CallOptions {
  signal?: AbortSignal;
}

type Method<K extends EndpointName> = Endpoints[K] extends { stream: true }
  ? (req: ReqOf<K>, opts?: CallOptions) => AsyncIterable<ResOf<K>>
  : Endpoints[K] extends { raw: true }
    ? (req: ReqOf<K>, opts?: CallOptions) => Promise<Response>
    : (req: ReqOf<K>, opts?: CallOptions) => Promise<ResOf<K>>;

export type WeftClient = { [K in EndpointName]: Method<K> };

/** Builds the client from the endpoint table. */
export function createClient(options: ClientOptions): WeftClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseHeaders: Record<string, string> = { ...options.headers };
  if (options.auth) baseHeaders.authorization = basicAuthHeader(options.auth.username, options.auth.password);

  async function send(name: EndpointName, req: Record<string, unknown>, opts?: CallOptions) {
    const { method, path, body: bodyKind }: RouteInfo = routes[name];
    const { url, body } = buildRequest(options.baseUrl, method, path, req ?? {});
    const headers: Record<string, string> = { ...baseHeaders };
    // Multipart endpoints (file uploads) send their fields as form data; fetch sets the boundary.
    const payload = bodyKind === 'multipart' ? toFormData(req ?? {}) : body;
    if (typeof payload === 'string') headers['content-type'] = 'application/json';
    const res = await doFetch(url, { method, headers, body: payload, signal: opts?.signal });
    if (!res.ok) throw await HttpError.fromResponse(res);
    return res;
  }

  const client: Record<string, unknown> = {};
  for (const name of Object.keys(routes) as EndpointName[]) {
    const e: RouteInfo = routes[name];
    client[name] = e.stream
      ? (req: Record<string, unknown>, opts?: CallOptions) => streamLines(() => send(name, req, opts))
      : e.raw
        ? (req: Record<string, unknown>, opts?: CallOptions) => send(name, req, opts)
        : async (req: Record<string, unknown>, opts?: CallOptions) => (await send(name, req, opts)).json();
  }
  return client as WeftClient;
}

async function* streamLines(open: () => Promise<Response>): AsyncIterable<unknown> {
  const res = await open();
  if (!res.body) return;
  yield* readJsonLines(res.body);
}

/** Form fields of a multipart request: Blobs as file parts, other non-null values as text. */
function toFormData(req: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(req)) {
    if (value instanceof Blob) form.append(key, value);
    else if (value !== undefined && value !== null) form.append(key, String(value));
  }
  return form;
}

/** `Basic base64(user:password)`, UTF-8 safe in browsers and Node. */
export function basicAuthHeader(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** Fills `:params` from the request; GET/DELETE put the rest in the query string. */
export function buildRequest(
  baseUrl: string,
  method: string,
  path: string,
  req: Record<string, unknown>,
): { url: string; body: string | undefined } {
  const rest: Record<string, unknown> = { ...req };
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, key: string) => {
    const value = rest[key];
    delete rest[key];
    return encodeURIComponent(String(value ?? ''));
  });
  if (method === 'GET' || method === 'DELETE') {
    const qs = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) qs.append(key, String(v));
    }
    const q = qs.toString();
    return { url: `${baseUrl}${filled}${q ? `?${q}` : ''}`, body: undefined };
  }
  return { url: `${baseUrl}${filled}`, body: JSON.stringify(rest) };
}
