/**
 * `/metrics` of `weft serve --workers 2`: whichever worker a scrape reaches, it answers the
 * figures of both processes (the primary gathers them), so the calls ingested through either
 * worker all count, and each worker's request threads are in the total.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../client/index.js';
import { rawRequest } from '../testing/rawHttp.js';
import { spawnWeftServe, weftEnv } from '../testing/serveProcess.js';

let dataDir: string;
let server: { child: ChildProcess; url: string };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-cluster-metrics-'));
  server = await spawnWeftServe(weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'cluster-admin', WEFT_METRICS: 'public' }), [
    '--workers',
    '2',
  ]);
}, 90_000); // each process compiles the TypeScript sources at start: slow on a busy machine

afterAll(async () => {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('weft serve --workers 2: /metrics', () => {
  it('sums both processes, whichever worker answers the scrape', async () => {
    const auth = basicAuthHeader('admin', 'cluster-admin');
    // Each request on a connection of its own: the primary deals connections to the workers in turn.
    for (let b = 0; b < 10; b++) {
      const batch = Array.from({ length: 5 }, (_, i) => ({
        mode: 'start',
        req: {
          start: { project_id: 'admin-co/metrics', id: `c-${b}-${i}`, op_name: 'step', started_at: '2026-01-01T00:00:00Z', inputs: {} },
        },
      }));
      const res = await rawRequest(`${server.url}/call/upsert_batch`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ batch }),
      });
      expect(res.status).toBe(200);
    }
    // Several scrapes, on connections of their own, so both workers answer some.
    for (let i = 0; i < 4; i++) {
      const res = await rawRequest(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      const { text } = res;
      expect(sample(text, 'weft_calls_ingested_total{source="sdk",event="start"}')).toBe(50);
      expect(sample(text, 'weft_http_requests_total{method="POST",route="/call/upsert_batch",status="200"}')).toBe(10);
      // Each process warms a read and a write thread at start: both are in the sum.
      expect(sample(text, 'weft_request_threads{kind="write"}')).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'weft_request_threads{kind="read"}')).toBeGreaterThanOrEqual(2);
      // The database file is the same for both: its size is not doubled.
      expect(sample(text, 'weft_sqlite_database_bytes')).toBeGreaterThan(0);
    }
  }, 60_000);
});
