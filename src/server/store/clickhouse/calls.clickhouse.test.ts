/**
 * The trace outline's read on ClickHouse (calls.ts traceSpans) finds the trace's ids by the
 * trace_id bloom filter (`i_trace`) without FINAL, then reads only their granules under FINAL
 * by the key, rather than every part's granules that overlap the filter's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import { TRACE_SPANS_SQL } from './calls.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const P = 'acme/outline-plan';

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('the trace outline query on ClickHouse', () => {
  let store: ClickHouseStore;
  let raw: ClickHouseDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTempClickHouseDatabase();
    drop = db.drop;
    store = await ClickHouseStore.open(db);
    raw = new ClickHouseDatabase(db);
    const writes = [];
    for (let t = 0; t < 50; t++) {
      for (let c = 0; c < 20; c++) {
        const id = `t${t}-c${c}`;
        writes.push(startWrite(P, id, { traceId: `t${t}`, parentId: c ? `t${t}-c0` : null }), endWrite(P, id));
      }
    }
    await store.applyLast([{ kind: 'calls.write', calls: writes }]);
  });
  afterAll(async () => {
    await store.close();
    await raw.close();
    await drop();
  });

  it('finds the ids by the trace_id skip index, then reads their rows by the key', async () => {
    const params = { p: P, t: 't7', limit: 100_001 };
    const plan = (await raw.all<{ explain: string }>(`EXPLAIN indexes = 1 ${TRACE_SPANS_SQL}`, params)).map((r) => r.explain).join('\n');
    expect(plan).toMatch(/Skip\s+Name: i_trace/);
    expect(plan).toMatch(/Condition: and\(\(id in 20-element set\)/);
    const spans = await store.calls.traceSpans({ projectId: P, traceId: 't7', limit: 100 });
    expect(spans.map((s) => s.id)).toEqual(Array.from({ length: 20 }, (_, c) => `t7-c${c}`).sort());
    expect(spans[0]).toMatchObject({ parentId: null, error: false, endedAt: expect.any(Number) });
  });

  it('merges the parts of each call that later inserts wrote: a rename, a delete, an end', async () => {
    await store.calls.updateCallDisplayName({ projectId: P, id: 't8-c3', displayName: 'renamed' });
    await store.calls.deleteCalls({ projectId: P, ids: ['t8-c5'], deletedAt: Date.now() * 1000 });
    await store.applyLast([{ kind: 'calls.write', calls: [startWrite(P, 't8-c20', { traceId: 't8', parentId: 't8-c0' })] }]);
    const spans = await store.calls.traceSpans({ projectId: P, traceId: 't8', limit: 100 });
    expect(spans.map((s) => s.id)).toEqual([...Array.from({ length: 21 }, (_, c) => `t8-c${c}`).filter((id) => id !== 't8-c5')].sort());
    expect(spans.find((s) => s.id === 't8-c3')?.displayName).toBe('renamed');
    expect(spans.find((s) => s.id === 't8-c20')?.endedAt).toBeNull();
    await store.applyLast([{ kind: 'calls.write', calls: [endWrite(P, 't8-c20')] }]);
    const ended = await store.calls.traceSpans({ projectId: P, traceId: 't8', limit: 100 });
    expect(ended.find((s) => s.id === 't8-c20')?.endedAt).toEqual(expect.any(Number));
  });
});
