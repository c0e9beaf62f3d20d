/**
 * NDJSON streams that fail after their 200 has started: the error is reported (logged by the
 * pipeline) and the transfer is aborted, so the client sees a failed read, never a short
 * stream that looks complete. Served over a real socket by @hono/node-server.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { jsonLinesResponse } from './jsonLines.js';

const reported: unknown[] = [];
let server: ServerType;
let url: string;

beforeAll(async () => {
  const app = new Hono();
  // As defineRoutes does: report, then cut the connection.
  app.get('/fails', (c) =>
    jsonLinesResponse(
      (async function* () {
        yield { n: 1 };
        // Past the first chunk, so the 200 is already on the wire when this fails.
        for (let n = 2; n < 5_000; n++) yield { n, pad: 'x'.repeat(100) };
        throw new Error('disk went away');
      })(),
      undefined,
      (err) => {
        reported.push(err);
        (c.env as { outgoing: ServerResponse }).outgoing.destroy();
        return true;
      },
    ),
  );
  app.get('/fine', () =>
    jsonLinesResponse(
      (async function* () {
        yield { n: 1 };
        yield { n: 2 };
      })(),
    ),
  );
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('jsonLinesResponse', () => {
  it('aborts the transfer when the rows fail mid-stream, and reports the error', async () => {
    const res = await fetch(`${url}/fails`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('disk went away');
  });

  it('ends a stream that succeeds normally', async () => {
    const res = await fetch(`${url}/fine`);
    expect(await res.text()).toBe('{"n":1}\n{"n":2}\n');
  });
});
