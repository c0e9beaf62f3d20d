/**
 * A `fetch` for the benchmarks' load generators, over node:http with keep-alive connections.
 *
 * Why not Node's own fetch: on the 2-core test machine, Node 20's fetch (undici) spent ~230 µs of
 * CPU per small request, against ~17 µs for node:http (40 connections to a bare node:http server
 * answering a small JSON body, alternating). A load generator on fetch sending 2,000 requests a
 * second took half a core of the two from the server it measured, and its own busy event loop
 * added to every latency it recorded. The server sees the same requests either way.
 *
 * The answer is read whole and handed over as a web `Response` (status, headers, body), which is
 * all the typed client (src/client) reads. No abort signal, no redirects, no compression: the
 * benchmarks need none.
 */
import { Agent, request } from 'node:http';

/** A fetch over at most `connections` keep-alive connections per host. */
export function leanFetch(connections: number): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const body = init?.body;
      if (body !== undefined && body !== null && typeof body !== 'string') {
        reject(new TypeError('leanFetch sends string bodies only'));
        return;
      }
      const headers: Record<string, string> = { ...(init?.headers as Record<string, string> | undefined) };
      if (body) headers['content-length'] = String(Buffer.byteLength(body));
      const req = request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: init?.method ?? 'GET', headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const answer = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answer.set(k, Array.isArray(v) ? v.join(', ') : v);
            // A Response may not carry a body with these statuses.
            const empty = status === 204 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }));
          });
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
}
