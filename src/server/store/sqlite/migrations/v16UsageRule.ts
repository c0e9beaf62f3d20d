import type { Migration } from './migration.js';

/**
 * The token sums kept in the stats rollup and thread tables were computed under two earlier
 * variants of the usage rule (stats skipped entries without `total_tokens`; thread turns preferred
 * `prompt_tokens` over `input_tokens`). Clearing them makes the store recompute everything under
 * the one rule (core/usage.ts) at its next open: the stats backfill refolds every visible call
 * (store/sqlite/statsJournal.ts) and every thread is marked dirty (store/sqlite/threads.ts).
 */
export const v16UsageRule: Migration = {
  version: 16,
  name: 'stats rollups and thread tokens recomputed under the one usage rule',
  sql: `
    DELETE FROM call_stats_cells;
    DELETE FROM usage_stats_cells;
    UPDATE stats_rollup_state SET backfilled = 0;
    INSERT INTO dirty_threads SELECT project_id, thread_id FROM thread_stats;
  `,
};
