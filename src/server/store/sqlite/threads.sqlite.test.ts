/**
 * SQLite's threads page (threads.ts statsPageSql): newest first by start time is a walk of the
 * stored order (migration 34), and the page is priced after the sort, so each row keeps the cost
 * the unsorted answer reports, in compareThreads' order (ties by thread id), for every sort.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_SORT_FIELDS } from '../../../contract/threads.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from '../conformance/callWrites.js';
import { compareThreads } from '../query/threadsOrder.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';
import { SqliteStore } from './SqliteStore.js';
import { statsPageSql } from './threads.js';

const P = 'acme/thread-pages';

describe('SQLite threads page', () => {
  let dir: string;
  let store: SqliteStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-thread-pages-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
    await store.costs.createPrices([
      {
        id: 'm-default',
        pricingLevel: 'default',
        pricingLevelId: 'default',
        providerId: 'test',
        llmId: 'm',
        effectiveDate: T0,
        promptTokenCost: 1e-3,
        completionTokenCost: 2e-3,
        promptTokenCostUnit: 'USD',
        completionTokenCostUnit: 'USD',
        createdBy: 'test',
        createdAt: T0,
      },
    ]);
    // 24 threads of 2 turns; threads i and i + 12 start at the same time (ties by thread id).
    const writes = Array.from({ length: 24 }, (_, i) =>
      [0, 1].flatMap((k) => {
        const id = `t${i}-${k}`;
        const at = T0 + ((i % 12) * 60 + k * 10) * SECOND;
        return [
          startWrite(P, id, { threadId: `thread-${String(i).padStart(2, '0')}`, turnId: id, startedAt: at }),
          endWrite(P, id, { endedAt: at + (1 + ((i * 7 + k) % 5)) * SECOND, summaryJson: usageSummary('m', 10 + i, 3 * k) }),
        ];
      }),
    );
    await store.calls.writeCalls(writes.flat());
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = async (q: Partial<ThreadsQuery>) => {
    const out: ThreadRecord[] = [];
    for await (const r of store.threads.queryThreads({ projectId: P, sortBy: [], ...q })) out.push(r);
    return out;
  };

  it('walks the stored order for newest first, without sorting the project', () => {
    const { sql, params } = statsPageSql({ projectId: P, sortBy: [{ field: 'start_time', direction: 'desc' }], limit: 5 });
    const plan = store.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((r) => r.detail);
    expect(plan).toContain('SEARCH s USING INDEX thread_stats_by_start_desc (project_id=?)');
  });

  it('answers every sort and page with the unsorted answer’s rows and costs, in compareThreads’ order', async () => {
    const unsorted = await query({});
    expect(unsorted).toHaveLength(24);
    expect(unsorted.every((r) => r.totalCost !== null)).toBe(true);
    for (const field of THREAD_SORT_FIELDS.filter((f) => f !== 'total_cost')) {
      for (const direction of ['asc', 'desc'] as const) {
        const sortBy = [{ field, direction }];
        const expected = [...unsorted].sort(compareThreads(sortBy));
        expect(await query({ sortBy, limit: 7, offset: 5 }), `${field} ${direction}`).toEqual(expected.slice(5, 12));
      }
    }
  });
});
