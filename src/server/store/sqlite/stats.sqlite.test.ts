/** What is SQLite's own in call statistics: the backfill (the conformance suite runs from store/conformance.test.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLLUP_WIDTHS } from '../StatsStore.js';
import { SqliteStore } from './SqliteStore.js';

describe('SQLite stats rollup backfill', () => {
  it('folds calls stored before the rollup existed in at the next open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-stats-backfill-'));
    const file = join(dir, 'weft.sqlite');
    const P = 'acme/backfill';
    const T0 = Date.UTC(2024, 0, 1) * 1000;
    const writes = [0, 1, 2].flatMap((i) => [
      {
        kind: 'start' as const,
        projectId: P,
        id: `b${i}`,
        traceId: 't',
        parentId: null,
        threadId: null,
        turnId: null,
        opName: 'op',
        displayName: null,
        startedAt: T0 + i * 1_000_000,
        attributesJson: '{}',
        inputsJson: '{}',
        otelDumpJson: null,
        inputRefs: [],
        wbUserId: 'u',
        wbRunId: null,
        wbRunStep: null,
      },
      {
        kind: 'end' as const,
        projectId: P,
        id: `b${i}`,
        endedAt: T0 + i * 1_000_000 + 5_000,
        exception: null,
        outputJson: null,
        summaryJson: '{"usage":{"m":{"prompt_tokens":3}}}',
        outputRefs: [],
        wbRunStepEnd: null,
      },
    ]);
    const cells = (store: SqliteStore) =>
      store.stats.rollupCells({ projectId: P, width: ROLLUP_WIDTHS[0], fromCell: 0, toCell: 1e9, withUsage: true });
    try {
      const before = new SqliteStore(file);
      await before.calls.writeCalls(writes);
      const expected = await cells(before);
      expect(expected?.calls[0]).toMatchObject({ count: 3, latencyCount: 3, latencySum: 15 });
      // As a database from before the rollup: calls but no cells.
      before.db.run('DELETE FROM call_stats_cells');
      before.db.run('DELETE FROM usage_stats_cells');
      before.db.run('UPDATE stats_rollup_state SET backfilled = 0');
      await before.close();
      const after = new SqliteStore(file);
      expect(await cells(after)).toEqual(expected);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
