/**
 * The one typed client the dashboard uses. It reads the session's credentials on every request,
 * so logging in or out never needs a new client.
 */
import { basicAuthHeader, createClient, type WeftClient } from '../../client/index.js';
import { readCredentials } from './session.js';

/**
 * `credentials: 'omit'`: we send Authorization ourselves, and without browser-managed
 * credentials a 401 with `WWW-Authenticate: Basic` does not pop the browser's own login dialog
 * (Fetch spec, "HTTP-network-or-cache fetch", step on 401 responses).
 */
function sessionFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const credentials = readCredentials();
  if (credentials) headers.set('authorization', basicAuthHeader(credentials.username, credentials.password));
  return fetch(input, { ...init, headers, credentials: 'omit' });
}

/** Same-origin client for every endpoint in src/contract/endpoints.ts. */
export const api: WeftClient = createClient({ baseUrl: '', fetch: sessionFetch });

/** Drains a streaming endpoint into an array (pages are small; the stream is still parsed as it arrives). */
export async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}
