/**
 * `weft serve --workers 2`: two processes on one port and one SQLite file. Concurrent writes
 * all land (each write transaction waits for SQLite's write lock), revoking an API key in
 * one process makes it fail in the other one too, and failed sign-ins are counted once for the
 * whole server, not per process. SIGTERM stops the workers gracefully and the primary exits 0.
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

const ADMIN = basicAuthHeader('admin', 'cluster-admin');
let dataDir: string;
let server: { child: ChildProcess; url: string; output: () => string };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-cluster-'));
  server = await spawnWeftServe(
    weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'cluster-admin', WEFT_LOGIN_MAX_FAILURES_PER_USER: '4' }),
    ['--workers', '2'],
  );
}, 90_000); // each process compiles the TypeScript sources at start: slow on a busy machine

afterAll(async () => {
  // Stopped by the last test unless it failed before.
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGKILL');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, auth = ADMIN, method = 'POST') =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('weft serve --workers 2', () => {
  it('stores every call of many concurrent batches', async () => {
    const batches = Array.from({ length: 40 }, (_, b) =>
      Array.from({ length: 25 }, (_, i) => ({
        mode: 'start',
        req: {
          start: {
            project_id: 'admin-co/cluster',
            id: `c-${b}-${i}`,
            op_name: 'step',
            started_at: '2026-01-01T00:00:00Z',
            inputs: { b, i },
          },
        },
      })),
    );
    const answers = await Promise.all(batches.map((batch) => post('/call/upsert_batch', { batch })));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const stats = await (await post('/calls/query_stats', { project_id: 'admin-co/cluster' })).json();
    expect(stats.count).toBe(1000);
  });

  it('revokes an API key in every process at once', async () => {
    const created = await (await post('/weft/api_keys', { name: 'cluster' })).json();
    const auth = basicAuthHeader('api', created.key);
    const whoami = () => fetch(`${server.url}/weft/whoami`, { headers: { authorization: auth } }).then((r) => r.status);
    // Enough requests that both processes have the key cached.
    expect(await Promise.all(Array.from({ length: 12 }, whoami))).toEqual(Array(12).fill(200));
    expect((await post(`/weft/api_keys/${created.api_key.key_id}`, undefined, ADMIN, 'DELETE')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the relay between processes is a message
    expect(await Promise.all(Array.from({ length: 12 }, whoami))).toEqual(Array(12).fill(401));
  });

  it('throttles wrong passwords spread over both processes as one server', async () => {
    // Each request on a connection of its own: the primary deals connections to the workers in
    // turn, so the failures fall on both. Counted per process, the 4 allowed failures would give
    // each worker 2 and the 5th attempt would still be checked (401); counted in the shared
    // database, it is 429.
    const attempt = () => rawRequest(`${server.url}/weft/whoami`, { headers: { authorization: basicAuthHeader('mallory', 'guess') } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual(Array(4).fill(401));
    const blocked = [await attempt(), await attempt()];
    expect(blocked.map((r) => r.status)).toEqual([429, 429]);
    expect(Number(blocked[0]!.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000); // each wrong password costs a scrypt hash

  it('stops on SIGTERM once every worker has drained, with status 0', async () => {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const status = await exited;
    // What the processes printed says which worker failed and why.
    expect(status, server.output()).toEqual([0, null]);
  });
});
