/**
 * Calls queries that list ids (one thread's turns, a call's children) on SQLite are found by the
 * ids' index, whatever start-time bound or order they carry: on a file never analyzed, a plain
 * `started_at` term lured the planner onto (project_id, started_at) and a walk of the project
 * (1.5–2 s for one thread at 2M calls; docs/performance.md "SQLite at 10M calls").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endWrite, SECOND, startWrite, T0 } from '../conformance/callWrites.js';
import type { CallsQuery } from '../Store.js';
import { compileSelect } from './callsQuery.js';
import { SqliteStore } from './SqliteStore.js';

const P = 'acme/ids-plan';
const MINUTE = 60 * SECOND;
/** 60 threads of 5 turns, each turn with 2 nested calls; thread t's turn k starts at minute t + k. */
const turnStart = (t: number, k: number) => T0 + (t * 10 + k) * MINUTE;

describe('calls queries by ids on SQLite', () => {
  let dir: string;
  let store: SqliteStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-ids-plan-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
    const writes = [];
    for (let t = 0; t < 60; t++) {
      for (let k = 0; k < 5; k++) {
        const turn = `t${t}-${k}`;
        const at = turnStart(t, k);
        const shared = { threadId: `thread-${t}`, turnId: turn, traceId: turn };
        writes.push(startWrite(P, turn, { ...shared, startedAt: at }), endWrite(P, turn, { endedAt: at + SECOND }));
        for (let n = 0; n < 2; n++) {
          const id = `${turn}-${n}`;
          writes.push(startWrite(P, id, { ...shared, parentId: turn, startedAt: at + n + 1 }), endWrite(P, id, { endedAt: at + 2 }));
        }
      }
    }
    await store.applyLast([{ kind: 'calls.write', calls: writes }]);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const planOf = (q: CallsQuery) => {
    const { sql, params } = compileSelect(q);
    return store.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((r) => r.detail);
  };
  const idsOf = async (q: CallsQuery) => {
    const ids: string[] = [];
    for await (const c of store.calls.queryCalls(q)) ids.push(c.id);
    return ids;
  };
  const after = (t: number, k: number) => new Date(turnStart(t, k) / 1000).toISOString();

  it("reads one thread's turns after a date by the thread, not by start time", async () => {
    const q: CallsQuery = {
      projectId: P,
      filter: { thread_ids: ['thread-7'], trace_roots_only: true },
      query: { $expr: { $gte: [{ $getField: 'started_at' }, { $literal: after(7, 3) }] } },
      limit: 50,
    };
    const plan = planOf(q);
    expect(plan.find((d) => d.startsWith('SEARCH calls'))).toMatch(/USING INDEX calls_by_thread \(project_id=\? AND thread_id=\?\)/);
    expect(plan.some((d) => d.includes('calls_by_start'))).toBe(false);
    expect(await idsOf(q)).toEqual(['t7-3', 't7-4']);
  });

  it("reads the thread view's turns, sorted by start time, by the thread", async () => {
    const q: CallsQuery = {
      projectId: P,
      filter: { thread_ids: ['thread-12'] },
      query: { $expr: { $eq: [{ $getField: 'turn_id' }, { $getField: 'id' }] } },
      sortBy: [{ field: 'started_at', direction: 'desc' }],
      limit: 3,
      offset: 1,
    };
    const plan = planOf(q);
    expect(plan.some((d) => d.includes('calls_by_start'))).toBe(false);
    expect(await idsOf(q)).toEqual(['t12-3', 't12-2', 't12-1']);
  });

  it('still reads a project-wide date range by start time', () => {
    const plan = planOf({
      projectId: P,
      query: { $expr: { $gte: [{ $getField: 'started_at' }, { $literal: after(50, 0) }] } },
      sortBy: [{ field: 'started_at', direction: 'desc' }],
      limit: 50,
    });
    expect(plan.find((d) => d.startsWith('SEARCH calls'))).toMatch(/calls_by_start \(project_id=\? AND started_at>\?\)/);
  });
});
