/**
 * @module
 * Reads a request body within a byte limit, counting while it streams: a body that passes
 * the limit is refused the moment it does, whether it announced its length or came chunked
 * without one, so a 200 MB upload costs the server at most the limit in memory, not 200 MB.
 *
 * The 413 stays readable by the client: the rest of the body is not buffered but left on
 * the wire, where @hono/node-server's listener discards it after the answer is written
 * (for up to 500 ms or 64 MiB) and then closes the connection. Destroying the socket at once
 * would reset it, and a client still uploading would see ECONNRESET instead of the answer.
 */
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { limitText, type Limits } from '../limits.js';
import { TooLargeError } from '../errors.js';
import { requestHeader } from './requestHeader.js';
import { requestEnv } from './requestEnv.js';

/** Which limit a body is held to: the JSON/binary body limit or the file-upload limit. */
export type BodyLimitKey = 'maxBodyBytes' | 'maxFileBytes';

/** The body bytes, or a TooLargeError as soon as they pass `limits[key]`. */
export async function readLimitedBody(c: Context, limits: Limits, key: BodyLimitKey): Promise<Uint8Array> {
  const max = limits[key];
  const declared = requestHeader(c, 'content-length');
  if (declared !== undefined && Number(declared) > max) throw tooLarge(declared, limits, key);
  // A request thread is handed the body whole (threads/requestWorker.ts): no stream to read it from again.
  const { bodyBytes: handed, incoming } = requestEnv(c);
  if (handed) {
    if (handed.byteLength > max) throw tooLarge(String(handed.byteLength), limits, key);
    return handed;
  }
  if (incoming && !incoming.readableEnded && incoming.readableFlowing === null) {
    return readIncoming(incoming, max, () => tooLarge(`over ${max}`, limits, key));
  }
  return readWebStream(c.req.raw.body, max, () => tooLarge(`over ${max}`, limits, key));
}

function tooLarge(size: string, limits: Limits, key: BodyLimitKey): TooLargeError {
  return new TooLargeError(`The request body is ${size} bytes; ${limitText(key, limits)}`);
}

/**
 * Reads the Node request directly (not through a web stream), so that when the limit is
 * passed nothing more is buffered: we stop listening and the listener's drain discards the rest.
 */
function readIncoming(incoming: IncomingMessage, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        done();
        // Paused, not destroyed: the answer goes out first, then the rest is drained.
        incoming.pause();
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(joined(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onAborted = () => onError(new Error('The client closed the connection before sending the whole body'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('aborted', onAborted);
  });
}

/** The same over a web stream (requests not from a Node socket, e.g. `app.request()`). */
async function readWebStream(body: ReadableStream<Uint8Array> | null, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return joined(chunks, size);
}

/**
 * The chunks as one Uint8Array over the joined buffer's memory (`new Uint8Array(buffer)` would
 * copy the whole body once more). A body past a few KiB has an ArrayBuffer of its own, which a
 * request hand-off transfers to its thread as it is.
 */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}
