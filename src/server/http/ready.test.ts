/**
 * `GET /ready` and store outages, over HTTP to a real server on a real SQLite file, the store
 * made to fail for real in ways that also work as root (where permissions stop nothing):
 * - locked: another connection holds SQLite's write lock past the busy timeout (a backup tool
 *   or a `sqlite3` shell would): writes answer 503 with `Retry-After`, `/ready` says why at once;
 * - an old schema: another connection sets the file's schema version back;
 * - replaced: the data directory moved away and another put in its place.
 * Each recovers once the cause is gone. `/health` answers 200 throughout (liveness).
 */
import Database from 'better-sqlite3';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../store/sqlite/migrations/index.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const LATEST = migrations.at(-1)!.version;

interface ReadyBody {
  status: string;
  store: string;
  schema_version?: number;
  reason?: string;
}

// Once on the main thread (WEFT_THREADS=0), once with the writes parsed in a write thread and
// committed by the main thread's group commit, whose error crosses back to the thread. A locked
// write waits the busy timeout out: half a second here, not the default 5 s.
const BUSY = { WEFT_SQLITE_BUSY_TIMEOUT_MS: '500' };
for (const [name, env] of [
  ['requests on the main thread', BUSY],
  ['requests in threads', { ...BUSY, WEFT_WRITE_THREADS: '1', WEFT_READ_THREADS: '1' }],
] as const) {
  describe(`/ready and store outages (${name})`, () => {
    let t: TestServer;
    let file: string;
    beforeAll(async () => {
      t = await startTestServer({ env });
      file = (t.server.store as SqliteStore).file;
    });
    afterAll(async () => {
      await t.close();
    });

    const ready = async () => {
      const began = performance.now();
      const res = await fetch(`${t.url}/ready`);
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as ReadyBody,
        ms: performance.now() - began,
      };
    };
    const health = async () => (await fetch(`${t.url}/health`)).status;
    let n = 0;
    const startCall = () =>
      t.fetch('/call/start', {
        json: {
          start: {
            project_id: 'alice-co/ready',
            id: `c${++n}`,
            op_name: 'op',
            started_at: '2024-01-01T00:00:00Z',
            attributes: {},
            inputs: {},
          },
        },
      });

    it('answers 200 with the store and its schema version, without credentials', async () => {
      const r = await ready();
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: 'ready', store: 'sqlite', schema_version: LATEST });
    });

    it('answers 503 while another connection holds the write lock, and writes answer 503 with Retry-After', async () => {
      expect((await startCall()).status).toBe(200);
      const other = new Database(file);
      try {
        other.exec('BEGIN IMMEDIATE');
        // The write waits out SQLite's busy timeout, then is refused: not a bare 500.
        const res = await startCall();
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        const body = (await res.json()) as { reason: string };
        expect(body.reason).toMatch(/locked by another process.*SQLITE_BUSY/);
        // /ready says so, and does not wait for the lock itself.
        const r = await ready();
        expect(r.status).toBe(503);
        expect(r.retryAfter).toBe('5');
        expect(r.body).toMatchObject({ status: 'unavailable', store: 'sqlite', reason: expect.stringMatching(/SQLITE_BUSY/) });
        expect(r.ms).toBeLessThan(1000);
        expect(await health()).toBe(200);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      expect((await ready()).status).toBe(200);
      expect((await startCall()).status).toBe(200);
    }, 30_000);

    it('answers 503 when the schema is not the one this build expects', async () => {
      const other = new Database(file);
      try {
        other.pragma(`user_version = ${LATEST - 1}`);
        const r = await ready();
        expect(r.status).toBe(503);
        expect(r.body.reason).toBe(
          `The database has schema version ${LATEST - 1}; this Weft needs ${LATEST}. Restart the server to upgrade it.`,
        );
        other.pragma(`user_version = ${LATEST + 1}`);
        expect((await ready()).body.reason).toMatch(/newer than this Weft knows/);
        expect(await health()).toBe(200);
      } finally {
        other.pragma(`user_version = ${LATEST}`);
        other.close();
      }
      expect((await ready()).status).toBe(200);
    });

    it('answers 503 when the data directory was moved away and replaced', async () => {
      const dir = t.dataDir;
      renameSync(dir, `${dir}-moved`);
      try {
        mkdirSync(dir);
        // Where the database was, now a directory: what a botched restore or volume mount leaves.
        mkdirSync(file);
        const r = await ready();
        expect(r.status).toBe(503);
        expect(r.body.reason).toMatch(/no longer the file this server opened/);
        expect(await health()).toBe(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        renameSync(`${dir}-moved`, dir);
      }
      expect((await ready()).status).toBe(200);
    });
  });
}
