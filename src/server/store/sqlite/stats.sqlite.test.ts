/** What is SQLite's own in call statistics: the backfill (the conformance suite runs from store/conformance.*.test.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { UNDO_V35_SQL } from './migrations/v35ThreadCostsKept.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLLUP_WIDTHS } from '../StatsStore.js';
import { migrations } from './migrations/index.js';
import { SqliteStore } from './SqliteStore.js';
import { FEEDBACK_COLUMNS } from '../query/feedbackRow.js';

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
      before.db.run('DELETE FROM call_stats_totals');
      before.db.run('DELETE FROM usage_stats_cells');
      before.db.run('UPDATE stats_rollup_state SET backfilled = 0');
      await before.close();
      const told: string[] = [];
      const after = new SqliteStore(file, { progress: (m) => told.push(m) });
      expect(await cells(after)).toEqual(expected);
      // The backfill says what it does and when it is done (a large one also says how far it got).
      expect(told).toEqual([
        expect.stringMatching(/^Counting the stored calls/),
        expect.stringMatching(/^Stats rollup ready in \d+\.\d s\.$/),
      ]);
      await after.close();
      // Opened again, there is nothing left to do, and nothing is said.
      told.length = 0;
      await new SqliteStore(file, { progress: (m) => told.push(m) }).close();
      expect(told).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migration 16: token sums recomputed under the one usage rule', () => {
  it('rebuilds the usage rollup and thread tokens a database kept under the older variants', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-usage-rule-'));
    const file = join(dir, 'weft.sqlite');
    const P = 'acme/usage-rule';
    const T0 = Date.UTC(2024, 0, 1) * 1000;
    const start = (id: string) => ({
      kind: 'start' as const,
      projectId: P,
      id,
      traceId: id,
      parentId: null,
      threadId: 'th',
      turnId: id,
      opName: 'op',
      displayName: null,
      startedAt: T0,
      attributesJson: '{}',
      inputsJson: '{}',
      otelDumpJson: null,
      inputRefs: [],
      wbUserId: 'u',
      wbRunId: null,
      wbRunStep: null,
    });
    const end = (id: string, usage: object) => ({
      kind: 'end' as const,
      projectId: P,
      id,
      endedAt: T0 + 5_000,
      exception: null,
      outputJson: null,
      summaryJson: JSON.stringify({ usage }),
      outputRefs: [],
      wbRunStepEnd: null,
    });
    const cells = async (store: SqliteStore) =>
      (await store.stats.rollupCells({ projectId: P, width: ROLLUP_WIDTHS[0], fromCell: 0, toCell: 1e9, withUsage: true }))?.usage;
    try {
      const before = new SqliteStore(file);
      // No total_tokens, and both pairs of names: the older variants disagreed on both.
      await before.calls.writeCalls([
        start('a'),
        end('a', { m: { prompt_tokens: 10, input_tokens: 5, completion_tokens: 3 } }),
        start('b'),
        end('b', { m: { input_tokens: 4, output_tokens: 2 } }),
      ]);
      const expected = await cells(before);
      expect(expected?.[0]).toMatchObject({ model: 'm', totalTokens: 24, totalTokensCount: 2 });
      const thread = async (store: SqliteStore) => {
        for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [] })) return t;
        return undefined;
      };
      expect((await thread(before))?.totalTokens).toBe(24);
      // As the older rules left it: stats skipped entries without a total, threads read the first alias.
      before.db.run('UPDATE usage_stats_cells SET total_tokens = 0, total_tokens_count = 0');
      before.db.run('UPDATE thread_stats SET total_tokens = 19');
      before.db.run('UPDATE thread_turn_facts SET tokens = 0');
      // A version-15 database has no later table, index or column either (migrations 17, 19, 20 and 21).
      before.db.run('DROP TABLE login_failures');
      before.db.run('DROP INDEX thread_stats_by_last_updated');
      before.db.run('DROP TABLE call_stats_totals');
      for (const column of Object.keys(FEEDBACK_COLUMNS).filter((c) => c.startsWith('scorer_') || c.startsWith('span_'))) {
        before.db.run(`ALTER TABLE feedback DROP COLUMN ${column}`);
      }
      // Nor what migrations 22-31 added (roles, audit log, retention, redaction, SSO identities, file references, the search index, alerts).
      before.db.run('ALTER TABLE user_entities DROP COLUMN role');
      for (const table of [
        'project_roles',
        'audit_log',
        'retention_rules',
        'redaction_rules',
        'redaction_epoch',
        'oidc_identities',
        'file_refs',
        'call_search',
        'call_search_queue',
        'alert_rules',
        'alert_events',
        'history_blobs',
      ]) {
        before.db.run(`DROP TABLE ${table}`);
      }
      // Nor the columns of migration 32 (docs/history-storage.md).
      for (const column of ['inputs_chars', 'output_chars']) before.db.run(`ALTER TABLE calls DROP COLUMN ${column}`);
      // Nor the covering trace index of migration 29, which replaced calls_by_trace.
      before.db.run('DROP INDEX calls_trace_tree');
      before.db.run('CREATE INDEX calls_by_trace ON calls (project_id, trace_id)');
      // Nor the newest-first thread order of migration 34.
      before.db.run('DROP INDEX thread_stats_by_start_desc');
      // Nor the kept thread costs of migration 35.
      before.db.writer.exec(UNDO_V35_SQL);
      before.db.writer.pragma('user_version = 15');
      await before.close();
      const told: string[] = [];
      const after = new SqliteStore(file, { progress: (m) => told.push(m) });
      // The upgrade is announced (the server does not listen until it is done) and timed.
      expect(told.slice(0, 2)).toEqual([
        `Upgrading ${file} from schema version 15 to ${migrations.at(-1)!.version} ...`,
        expect.stringMatching(new RegExp(`^Upgraded .*weft\\.sqlite in \\d+\\.\\d s\\.$`)),
      ]);
      expect(await cells(after)).toEqual(expected);
      expect((await thread(after))?.totalTokens).toBe(24);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
