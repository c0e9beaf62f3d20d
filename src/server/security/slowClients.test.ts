/**
 * Slow clients cost only themselves (docs/security/writer.md): a stream whose client stops
 * reading is cut after WEFT_READ_SEND_TIMEOUT_MS, freeing its read thread, and one user may hold
 * at most WEFT_READS_PER_USER read threads, so another user's read still runs. Real servers with
 * two read threads; clients are raw sockets that never read their answers.
 */
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { rawRequest, unreadRequest } from '../testing/rawHttp.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

/** Calls of ~20 KB each: a stream of them (~40 MB) fills any socket buffer long before it ends. */
const BIG_CALLS = 2_000;

function seed(t: TestServer, projectId: string): void {
  const store = t.server.store as SqliteStore;
  store.db.transaction(() => {
    store.db.run('INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, 0)', [projectId, projectId.split('/')[0]]);
    store.db.run(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at, attributes, inputs)
       SELECT ?, 'c' || i, 't' || i, NULL, 'op', 'op', 1000 + i, '{}',
         json_object('text', replace(hex(zeroblob(10000)), '00', 'ab')) FROM n`,
      [BIG_CALLS, projectId],
    );
  });
}

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** A calls/stream_query of the whole project whose client never reads; resolves once it holds a read thread. */
async function unreadStream(t: TestServer, authHeader: string, projectId: string): Promise<void> {
  const { socket, started } = unreadRequest(t.url, {
    path: '/calls/stream_query',
    headers: { authorization: authHeader, 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: projectId }),
  });
  sockets.push(socket);
  await started;
}

/** Both read threads started (the pool grows on demand), so a thread's boot is not part of any wait measured. */
async function warm(t: TestServer): Promise<void> {
  await Promise.all([t.alice, t.bob].map((u) => countAs(t, u.authHeader, `${u.entity}/warm`)));
  expect(t.server.threads!.size.read).toBe(2);
}

const countAs = (t: TestServer, authHeader: string, projectId: string) =>
  rawRequest(`${t.url}/calls/query_stats`, {
    headers: { authorization: authHeader, 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: projectId }),
  });

describe('a stream whose client stops reading', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The budget bounds the wait for a thread: before, the third read waited it out and got 503.
    // 30 s, as a loaded machine took over 10 s to cut the streams and free the threads.
    t = await startTestServer({ env: { WEFT_READ_SEND_TIMEOUT_MS: '1000', WEFT_READ_BUDGET_MS: '30000' } });
    seed(t, `${t.alice.entity}/big`);
    seed(t, `${t.bob.entity}/big`);
    await warm(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is cut after WEFT_READ_SEND_TIMEOUT_MS, and the read threads serve others again', { timeout: 60_000 }, async () => {
    // Two users, one stream each: both read threads are taken by clients that do not read.
    await unreadStream(t, t.alice.authHeader, `${t.alice.entity}/big`);
    await unreadStream(t, t.bob.authHeader, `${t.bob.entity}/big`);
    // Served once the streams were cut (after ~1 s): a wait for a thread past the budget is a 503.
    const res = await countAs(t, t.alice.authHeader, `${t.alice.entity}/big`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ count: BIG_CALLS });
    // The first cut freed the thread it ran on; the other stream is cut too.
    await vi.waitFor(() => expect(t.server.threads!.sendTimeouts).toBe(2), { timeout: 5_000 });
  });
});

describe('reads per user', () => {
  let t: TestServer;
  beforeAll(async () => {
    // Streams are not cut here (a minute), so only the per-user cap can leave a thread for bob.
    t = await startTestServer({ env: { WEFT_READ_SEND_TIMEOUT_MS: '60000', WEFT_READ_BUDGET_MS: '5000' } });
    seed(t, `${t.alice.entity}/big`);
    await warm(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('one user holds at most WEFT_READS_PER_USER read threads; another user is served', { timeout: 30_000 }, async () => {
    await unreadStream(t, t.alice.authHeader, `${t.alice.entity}/big`);
    // A second unread stream of alice's waits for her first instead of taking the last thread.
    const second = unreadRequest(t.url, {
      path: '/calls/stream_query',
      headers: { authorization: t.alice.authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: `${t.alice.entity}/big` }),
    });
    sockets.push(second.socket);

    const bobs = await countAs(t, t.bob.authHeader, `${t.bob.entity}/empty`);
    expect(bobs.status).toBe(200);

    // Alice's next read waits its turn (the budget, 5 s) and is refused with a reason, not run.
    const alices = await countAs(t, t.alice.authHeader, `${t.alice.entity}/big`);
    expect(alices.status).toBe(429);
    expect(alices.headers['retry-after']).toBe('5');
    expect(alices.json).toMatchObject({ reads_per_user: 1, reason: expect.stringContaining('WEFT_READS_PER_USER') });
  });
});
