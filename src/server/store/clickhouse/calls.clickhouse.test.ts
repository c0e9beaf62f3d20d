/**
 * The trace outline's read on ClickHouse (calls.ts traceSpans) skips granules by the trace_id
 * bloom filter (`i_trace`) rather than reading the whole project.
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

  it('uses the trace_id skip index', async () => {
    const params = { p: P, t: 't7', limit: 100_001 };
    const plan = (await raw.all<{ explain: string }>(`EXPLAIN indexes = 1 ${TRACE_SPANS_SQL}`, params)).map((r) => r.explain).join('\n');
    expect(plan).toMatch(/Skip\s+Name: i_trace/);
    const spans = await store.calls.traceSpans({ projectId: P, traceId: 't7', limit: 100 });
    expect(spans.map((s) => s.id)).toEqual(Array.from({ length: 20 }, (_, c) => `t7-c${c}`).sort());
    expect(spans[0]).toMatchObject({ parentId: null, error: false, endedAt: expect.any(Number) });
  });
});
