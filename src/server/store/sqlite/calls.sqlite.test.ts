/**
 * The trace outline's read on SQLite (calls.ts traceSpans) seeks the trace index, in a
 * project whose other traces far outnumber it, with the planner's statistics gathered, and reads
 * nothing but that index (migration 29): the table's rows, payloads first, are never walked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import { DELETE_SQL, TRACE_SPANS_SQL } from './calls.js';
import { SqliteStore } from './SqliteStore.js';

const P = 'acme/outline-plan';

describe('the trace outline query on SQLite', () => {
  let dir: string;
  let store: SqliteStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-plan-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
    // 200 traces of 20 calls: the index on trace_id picks 20 rows of 4,000.
    const writes = [];
    for (let t = 0; t < 200; t++) {
      for (let c = 0; c < 20; c++) {
        const id = `t${t}-c${c}`;
        writes.push(startWrite(P, id, { traceId: `t${t}`, parentId: c ? `t${t}-c0` : null }), endWrite(P, id));
      }
    }
    await store.applyLast([{ kind: 'calls.write', calls: writes }]);
    store.db.run('ANALYZE');
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("walks a delete's descendants by calls_by_parent, never by the trace index over the project", async () => {
    // A fresh file, never analyzed: the planner has only the schema to go by.
    const fresh = new SqliteStore(join(dir, 'fresh.sqlite'));
    try {
      const plan = fresh.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${DELETE_SQL}`, [P, '["c0"]', P, 1, P]).map((r) => r.detail);
      expect(plan).toContain('SEARCH c USING INDEX calls_by_parent (project_id=? AND parent_id=?)');
      expect(plan.some((d) => d.includes('calls_trace_tree'))).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('reads one trace from the covering calls_trace_tree index, never the table or the project', async () => {
    const params = [P, 't7', 100_001];
    const plan = store.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${TRACE_SPANS_SQL}`, params).map((r) => r.detail);
    expect(plan.find((d) => d.includes('SEARCH calls'))).toMatch(/USING COVERING INDEX calls_trace_tree \(trace_id=\? AND project_id=\?\)/);
    expect(plan.some((d) => /SCAN calls\b/.test(d))).toBe(false);
    expect((await store.calls.traceSpans({ projectId: P, traceId: 't7', limit: 100 })).map((s) => s.id)).toEqual(
      Array.from({ length: 20 }, (_, c) => `t7-c${c}`).sort(),
    );
  });
});
