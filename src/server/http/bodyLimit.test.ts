/**
 * Request bodies are counted while they stream: a body past the limit is refused the moment
 * it passes it (chunked ones without Content-Length too), the client reads a 413 JSON answer,
 * and the server does not buffer the body (before: a 200 MB upload took 937 MB of RSS).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/serverSuite.js';

const LIMIT = 1024 * 1024;
const t = useTestServer({ env: { WEFT_MAX_BODY_BYTES: String(LIMIT), WEFT_MAX_FILE_BYTES: String(2 * LIMIT) } });

/** A chunked upload of `total` bytes through node:http (no Content-Length), written as the socket takes it. */
function chunkedUpload(
  path: string,
  total: number,
  contentType = 'application/json',
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, t.url);
    const req = request(url, {
      method: 'POST',
      headers: { authorization: t.alice.authHeader, 'content-type': contentType, 'transfer-encoding': 'chunked' },
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let answered = false;
    const write = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sent });
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    // `{"project_id": "` then blanks: valid JSON up to the limit, so only size can refuse it.
    req.write('{"project_id":"');
    write();
  });
}

describe('request body limit', () => {
  it('answers a chunked JSON upload past the limit with a readable 413, without buffering it', async () => {
    const total = 96 * 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const res = await chunkedUpload('/calls/stream_query', total).finally(() => clearInterval(sampler));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).reason).toBe(`The request body is over ${LIMIT} bytes; the limit is ${LIMIT} (WEFT_MAX_BODY_BYTES)`);
    // Refused near the limit, not after the whole upload ...
    expect(res.sent).toBeLessThan(total / 2);
    // ... and the server (this process) did not take the body into memory.
    expect(peak - before).toBeLessThan(total / 3);
  });

  it('answers 413 at once for a declared Content-Length past the limit', async () => {
    const res = await t.fetch('/calls/stream_query', { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(res.status).toBe(413);
    expect((await res.json()).reason).toMatch(/is 1048577 bytes; the limit is 1048576 \(WEFT_MAX_BODY_BYTES\)/);
  });

  it('answers a streamed fetch body (no Content-Length) past the limit with 413 JSON', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulls > 256) return controller.close();
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const res = await t.fetch('/calls/stream_query', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).reason).toMatch(/WEFT_MAX_BODY_BYTES/);
  });

  it('holds multipart file uploads to their own limit', async () => {
    const upload = (bytes: number) => {
      const form = new FormData();
      form.set('project_id', `${t.alice.entity}/files`);
      form.set('file', new Blob([new Uint8Array(bytes).fill(0x61)]), 'a.bin');
      return t.fetch('/file/create', { method: 'POST', body: form });
    };
    // Over the JSON body limit but under the file limit: stored.
    expect((await upload(LIMIT + 1024)).status).toBe(200);
    const big = await upload(2 * LIMIT + 1);
    expect(big.status).toBe(413);
    expect((await big.json()).reason).toMatch(/the limit is 2097152 \(WEFT_MAX_FILE_BYTES\)/);
  });

  it('keeps serving after refusing an upload', async () => {
    await chunkedUpload('/calls/stream_query', 8 * LIMIT);
    const res = await t.fetch('/calls/stream_query', { json: { project_id: `${t.alice.entity}/after` } });
    expect(res.status).toBe(200);
  });

  it('reads a body sent with its head, one that trickles in after it, and an empty one alike', async () => {
    /** A POST whose body is written in `parts`, `gapMs` apart, with its Content-Length declared. */
    const post = (path: string, parts: string[], gapMs: number) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(new URL(path, t.url), {
          method: 'POST',
          headers: {
            authorization: t.alice.authHeader,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(parts.join(''))),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        const next = (i: number) => {
          if (i === parts.length) return void req.end();
          req.write(parts[i]);
          setTimeout(() => next(i + 1), gapMs);
        };
        next(0);
      });
    const project_id = `${t.alice.entity}/trickle`;
    await t.alice.client.callStart({
      start: { project_id, op_name: 'op', started_at: new Date().toISOString(), attributes: {}, inputs: {} },
    });
    const json = JSON.stringify({ project_id });
    const whole = await post('/calls/query_stats', [json], 0);
    const trickled = await post('/calls/query_stats', [json.slice(0, 5), json.slice(5, 12), json.slice(12)], 30);
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.body)).toMatchObject({ count: 1 });
    expect(trickled).toEqual(whole);
    // Served on the main thread (an evaluation logger's endpoint, small body): the same either way.
    const finish = `/v2/${project_id}/predictions/no-such-prediction/finish`;
    const [a, b] = [await post(finish, ['{}'], 0), await post(finish, ['{', '}'], 30)];
    expect(a.status).toBe(404);
    expect(b).toEqual(a);
    expect((await post('/calls/query_stats', [], 0)).status).toBe(422);
  });
});
