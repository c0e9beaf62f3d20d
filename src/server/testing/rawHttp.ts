/**
 * Raw HTTP for tests that must control every byte and header (fetch adds a Content-Type to
 * string bodies and hides Set-Cookie details) or the client's address: `localAddress` sends
 * from another loopback address (127.0.0.2, ...), as a second client machine would.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

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
