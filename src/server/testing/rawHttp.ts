/**
 * Raw HTTP for tests that must control every byte and header (fetch adds a Content-Type to
 * string bodies and hides Set-Cookie details) or the client's address: `localAddress` sends
 * from another loopback address (127.0.0.2, ...), as a second client machine would.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or null. */
  json: any;
}

/** Sends one request with exactly these headers and body. */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string } = {},
): Promise<RawResponse> {
  const body = init.body ?? '';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers: { ...init.headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        localAddress: init.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `Basic base64(user:password)`. */
export const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/**
 * Sends one request on a socket of its own and never reads the answer (a client that stopped
 * reading): the server's writes back up once the socket's buffers are full. `started` resolves
 * once the first bytes of the answer arrived; destroy the socket when done.
 */
export function unreadRequest(
  url: string,
  init: { path: string; headers: Record<string, string>; body: string },
): { socket: Socket; started: Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  const head = [
    `POST ${init.path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    ...Object.entries(init.headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${Buffer.byteLength(init.body)}`,
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n${init.body}`);
  // No 'data' listener: the socket fills its own small buffer (highWaterMark), then stops reading.
  const started = new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (socket.readableLength > 0) resolve();
      if (socket.readableLength > 0 || socket.destroyed) clearInterval(poll);
    }, 20);
    socket.once('error', reject);
  });
  return { socket, started };
}
