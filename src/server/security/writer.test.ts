/**
 * No statement holds the writer (docs/security/writer.md): deleting a trace of 100,000
 * descendants, wide and deep at once, finishes, deletes exactly that trace, and answers /health
 * meanwhile. Before, the descendant walk scanned the project once per descendant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallWrite } from '../store/CallsStore.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const DESCENDANTS = 100_000;
/** Half of them a chain below the root (depth 50,000), half its direct children. */
const CHAIN = DESCENDANTS / 2;
const OTHERS = 1_000;

/** Parent of descendant `i`: the chain c0 → c1 → …, then the root's direct children. */
const parentOf = (i: number) => (i === 0 || i >= CHAIN ? 'root' : `c${i - 1}`);

/** The trace, and OTHERS single-call traces beside it, written straight into the store (seconds, not minutes over HTTP). */
async function writeTrace(t: TestServer, projectId: string): Promise<void> {
  const store = t.server.store;
  if (store instanceof SqliteStore) {
    // Through the store's own writer connection, so its stats journal sees the rows too.
    store.db.transaction(() => {
      store.db.run('INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, 0)', [
        projectId,
        projectId.split('/')[0],
      ]);
      store.db.run(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at, attributes, inputs)
         SELECT ?, 'c' || i, 'T', CASE WHEN i = 0 OR i >= ? THEN 'root' ELSE 'c' || (i - 1) END, 'op', 'op', 1000 + i, '{}', '{}' FROM n`,
        [DESCENDANTS, projectId, CHAIN],
      );
      store.db.run(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at, attributes, inputs)
         SELECT ?, 'o' || i, 'O' || i, NULL, 'op', 'op', 500 + i, '{}', '{}' FROM n`,
        [OTHERS, projectId],
      );
      store.db.run(
        `INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, op_base_name, started_at, attributes, inputs)
         VALUES (?, 'root', 'T', NULL, 'op', 'op', 999, '{}', '{}')`,
        [projectId],
      );
    });
    return;
  }
  const start = (id: string, traceId: string, parentId: string | null, startedAt: number): CallWrite => ({
    kind: 'start',
    projectId,
    id,
    traceId,
    parentId,
    threadId: null,
    turnId: null,
    opName: 'op',
    displayName: null,
    startedAt,
    attributesJson: '{}',
    inputsJson: '{}',
    otelDumpJson: null,
    inputRefs: [],
    wbUserId: null,
    wbRunId: null,
    wbRunStep: null,
  });
  const writes = [start('root', 'T', null, 999)];
  for (let i = 0; i < DESCENDANTS; i++) writes.push(start(`c${i}`, 'T', parentOf(i), 1000 + i));
  for (let i = 0; i < OTHERS; i++) writes.push(start(`o${i}`, `O${i}`, null, 500 + i));
  for (let i = 0; i < writes.length; i += 20_000) await store.calls.writeCalls(writes.slice(i, i + 20_000));
}

for (const backend of testBackends()) {
  describe(`deleting a wide and deep trace (${backend.name})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
    });
    afterAll(async () => {
      await t.close();
    });

    const count = async (project_id: string, filter: Record<string, unknown> = {}) => {
      const res = await t.fetch('/calls/query_stats', { json: { project_id, filter } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { count: number }).count;
    };

    if (backend.name === 'sqlite')
      it('keeps savepoint journals out of memory on the writer (temp_store FILE)', () => {
        // Under MEMORY, a 5,000-call batch into a 125,000-call project took 67 s in its group
        // commit's savepoint, against 3.3 s (bench:bigwrites measures it over HTTP).
        const store = t.server.store as SqliteStore;
        expect(store.db.writer.pragma('temp_store', { simple: true })).toBe(1);
      });

    it(`deletes a root with ${DESCENDANTS.toLocaleString('en')} descendants, and only them`, { timeout: 120_000 }, async () => {
      const projectId = `${t.alice.entity}/wide-trace`;
      const neighbour = `${t.alice.entity}/neighbour`;
      await writeTrace(t, projectId);
      await writeTrace(t, neighbour);
      expect(await count(projectId)).toBe(DESCENDANTS + 1 + OTHERS);

      const began = performance.now();
      const deleting = t.fetch('/calls/delete', { json: { project_id: projectId, call_ids: ['root'] } });
      // Another tenant's request is answered while it runs (the delete runs on the write thread).
      const health = await t.fetch('/health', { headers: { authorization: '' } });
      expect(health.status).toBe(200);
      const res = await deleting;
      const ms = performance.now() - began;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ num_deleted: DESCENDANTS + 1 });
      console.log(`[writer.test] ${backend.name}: deleted ${DESCENDANTS + 1} calls in ${Math.round(ms)} ms`);

      expect(await count(projectId)).toBe(OTHERS);
      expect(await count(projectId, { trace_ids: ['T'] })).toBe(0);
      expect(await count(neighbour)).toBe(DESCENDANTS + 1 + OTHERS);
      // The same ids in the neighbouring project are untouched.
      const read = await t.fetch('/call/read', { json: { project_id: neighbour, id: `c${CHAIN - 1}` } });
      expect(((await read.json()) as { call: { parent_id: string } }).call.parent_id).toBe(`c${CHAIN - 2}`);
    });
  });
}
