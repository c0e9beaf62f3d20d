/**
 * The one typed client the dashboard uses. Same origin, authenticated by the session cookie the
 * browser sends by itself (fetch's default `credentials: 'same-origin'`): the page never holds a
 * password, key or token (the cookie is HttpOnly), so a script injected into it has none to steal.
 */
import { createClient, type WeftClient } from '../../client/index.js';

/** Same-origin client for every endpoint in src/contract/endpoints.ts. */
export const api: WeftClient = createClient({ baseUrl: '' });

/** Drains a streaming endpoint into an array (pages are small; the stream is still parsed as it arrives). */
export async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}
