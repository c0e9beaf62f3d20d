/**
 * Two `weft serve` replicas against one ClickHouse database (the test run's engine), started
 * at once the way a deployment starts them: the same WEFT_ADMIN_PASSWORD and WEFT_SECRET, data
 * directories of their own, nothing else shared. (`--workers N` on ClickHouse forks processes
 * that are replicas like these; starting it here too would double the start-up time, which on
 * a busy machine already nears serveProcess.ts's bound.)
 *
 * - The admin both bootstrapped has one password that works on both.
 * - Writes through either replica (a call started on one and ended on the other, an object,
 *   feedback) read back the same through the other.
 * - A key revoked, a password reset or a session ended on one replica stops working on the
 *   other (whose cache held it) within the epoch poll: the test polls, with a generous bound.
 * - A first start without WEFT_ADMIN_PASSWORD refuses, and says what to do.
 *
 * Two `weft migrate` runs at once are covered by store/clickhouse/migrate.clickhouse.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../client/index.js';
import { ADMIN_PASSWORD_REQUIRED } from './auth/bootstrap.js';
import { rawRequest } from './testing/rawHttp.js';
import { spawnWeftServe, weftEnv } from './testing/serveProcess.js';
import { createTempClickHouseDatabase, testBackends } from './testing/tempStore.js';

const ADMIN_PASSWORD = 'replicas-admin-password';
const ADMIN = basicAuthHeader('admin', ADMIN_PASSWORD);
const P = 'admin/replicas';

/** Generous: "about a second" on an idle machine, far more on one shared by a dozen test runs. */
const PROPAGATION_BOUND_MS = 20_000;

/**
 * Repeats `status` while it answers 200 (a credential still cached), up to the bound, and answers
 * the first other status. It stops there: every further refused check would count as a failed
 * sign-in and soon be throttled (429).
 */
async function statusOnceRefused(status: () => Promise<number>, boundMs = PROPAGATION_BOUND_MS): Promise<number> {
  const until = Date.now() + boundMs;
  for (;;) {
    const answer = await status();
    if (answer !== 200 || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  // Password hashing (scrypt, 128 MB) takes seconds per check on a busy machine.
  describe('two replicas on one ClickHouse', { timeout: 180_000 }, () => {
    let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
    const dirs: string[] = [];
    const children: ChildProcess[] = [];
    let a: string;
    let b: string;

    const env = (extra: Record<string, string> = {}) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'weft-replica-'));
      dirs.push(dataDir);
      return weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_SECRET: 'replicas-shared-secret', WEFT_CLICKHOUSE_DATABASE: db.database, ...extra });
    };
    // The store chosen by flags on one replica and by the environment on the other: both must work.
    const start = async (settings: Record<string, string>, args: string[]) => {
      const replica = await spawnWeftServe(env(settings), args);
      children.push(replica.child);
      return replica.url;
    };

    beforeAll(async () => {
      db = await createTempClickHouseDatabase();
      [a, b] = await Promise.all([
        start({ WEFT_ADMIN_PASSWORD: ADMIN_PASSWORD }, ['--store', 'clickhouse', '--clickhouse-url', db.url]),
        start({ WEFT_ADMIN_PASSWORD: ADMIN_PASSWORD, WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: db.url }, []),
      ]);
    }, 180_000); // each process compiles the TypeScript sources at start: slow on a busy machine

    afterAll(async () => {
      await Promise.all(
        children.map(async (child) => {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        }),
      );
      await db?.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    const request = async (base: string, path: string, body?: unknown, init: { auth?: string; method?: string; cookie?: string } = {}) => {
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.cookie ? { cookie: init.cookie } : { authorization: init.auth ?? ADMIN }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    };
    const whoami = async (base: string, auth: string) => (await request(base, '/weft/whoami', undefined, { auth })).status;

    it('bootstraps one admin password that works on both', async () => {
      expect(await Promise.all([a, b].map((base) => whoami(base, ADMIN)))).toEqual([200, 200]);
    });

    it('reads through one replica what was written through the other', async () => {
      const started = await request(a, '/call/start', {
        start: {
          project_id: P,
          id: 'split-call',
          trace_id: 't-split',
          op_name: 'step',
          started_at: '2026-01-01T00:00:00Z',
          attributes: {},
          inputs: { q: 1 },
        },
      });
      expect(started.status).toBe(200);
      const ended = await request(b, '/call/end', {
        end: { project_id: P, id: 'split-call', ended_at: '2026-01-01T00:00:02Z', output: { answer: 42 }, summary: {} },
      });
      expect(ended.status).toBe(200);
      for (const base of [a, b]) {
        const read = await request(base, '/call/read', { project_id: P, id: 'split-call' });
        expect(read.json.call).toMatchObject({
          id: 'split-call',
          inputs: { q: 1 },
          output: { answer: 42 },
          ended_at: expect.stringMatching(/^2026-01-01T00:00:02/),
        });
      }

      const created = await request(b, '/obj/create', { obj: { project_id: P, object_id: 'shared-config', val: { temperature: 0.2 } } });
      expect(created.status).toBe(200);
      const obj = await request(a, '/obj/read', { project_id: P, object_id: 'shared-config', digest: 'latest' });
      expect(obj.json.obj).toMatchObject({ digest: created.json.digest, val: { temperature: 0.2 }, version_index: 0 });

      const feedback = await request(a, '/feedback/create', {
        project_id: P,
        weave_ref: `weave:///${P}/call/split-call`,
        feedback_type: 'wandb.note.1',
        payload: { note: 'seen on both' },
      });
      expect(feedback.status).toBe(200);
      const listed = await request(b, '/feedback/query', { project_id: P });
      expect(listed.json.result).toEqual([expect.objectContaining({ id: feedback.json.id, payload: { note: 'seen on both' } })]);

      const stats = await request(b, '/calls/query_stats', { project_id: P });
      expect(stats.json.count).toBe(1);
    });

    it('stops a key revoked on one replica on the other, whose cache held it', async () => {
      const created = await request(a, '/weft/api_keys', { name: 'replicas' });
      expect(created.status).toBe(200);
      const key = basicAuthHeader('api', created.json.key);
      expect(await whoami(b, key)).toBe(200); // now cached on B for a minute, unless B hears of the revocation
      expect((await request(a, `/weft/api_keys/${created.json.api_key.key_id}`, undefined, { method: 'DELETE' })).status).toBe(200);
      expect(await statusOnceRefused(() => whoami(b, key))).toBe(401);
      // And it stays refused, on both replicas.
      expect(await Promise.all([a, b, a, b].map((base) => whoami(base, key)))).toEqual([401, 401, 401, 401]);
    });

    it('stops an old password on the other replica once it was reset on one', async () => {
      const made = await request(a, '/weft/users', { username: 'carol', password: 'carol-first-password', entities: ['carol-co'] });
      expect(made.status).toBe(200);
      const old = basicAuthHeader('carol', 'carol-first-password');
      expect(await whoami(b, old)).toBe(200); // cached on B
      const reset = await request(a, '/weft/users/carol/password', { new_password: 'carol-second-password' }, { method: 'PUT' });
      expect(reset.status).toBe(200);
      expect(await statusOnceRefused(() => whoami(b, old))).toBe(401);
      expect(await whoami(b, basicAuthHeader('carol', 'carol-second-password'))).toBe(200);
    });

    it('ends on the other replica a session ended on one', async () => {
      const signIn = await rawRequest(`${b}/weft/session`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      const cookie = /weft_session=[^;]*/.exec(signIn.headers['set-cookie']?.[0] ?? '')![0];
      expect((await request(a, '/weft/whoami', undefined, { cookie })).status).toBe(200);
      const ended = await request(a, `/weft/sessions/${signIn.json.session.session_id}`, undefined, { method: 'DELETE' });
      expect(ended.status).toBe(200);
      expect(await statusOnceRefused(async () => (await request(b, '/weft/whoami', undefined, { cookie })).status)).toBe(401);
      expect((await request(a, '/weft/whoami', undefined, { cookie })).status).toBe(401);
    });

    it('refuses a first start without WEFT_ADMIN_PASSWORD, saying what to do', async () => {
      const fresh = await createTempClickHouseDatabase();
      try {
        const settings = { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: fresh.url, WEFT_CLICKHOUSE_DATABASE: fresh.database };
        const failure = await spawnWeftServe(env(settings)).then(
          ({ child }) => {
            child.kill('SIGTERM');
            return 'started';
          },
          (err: Error) => err.message,
        );
        expect(failure).toContain('exited early (code 1');
        expect(failure).toContain(ADMIN_PASSWORD_REQUIRED);
      } finally {
        await fresh.drop();
      }
    });
  });
});
