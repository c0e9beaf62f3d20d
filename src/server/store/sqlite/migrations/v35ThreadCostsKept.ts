/**
 * Migration 35: each thread's cost kept in `thread_stats.priced_cost`, indexed in both orders,
 * so the cost sort's first page is an index walk instead of pricing every thread per request
 * (170 ms of CPU at 10M calls; docs/performance.md "SQLite cost sort at 10M").
 *
 * A kept cost is exact only for the prices it was priced with: `price_epochs` counts changes
 * of the price list per scope ('' for the default and instance prices, else the project id),
 * bumped by triggers on every write to `llm_token_prices`, and `thread_cost_epochs` holds, per
 * project, the epochs its kept costs were priced at. Projects already holding threads start
 * stale (-1) and are priced by the background pass (threadCostsKept.ts); until then a cost
 * sort prices per request, as before.
 */
import type { Migration } from './migration.js';

const bump = (scope: string) => `INSERT INTO price_epochs (scope, epoch)
    VALUES (CASE ${scope}.pricing_level WHEN 'project' THEN ${scope}.pricing_level_id ELSE '' END, 1)
    ON CONFLICT (scope) DO UPDATE SET epoch = epoch + 1;`;

export const v35ThreadCostsKept: Migration = {
  version: 35,
  name: 'thread costs kept and indexed',
  sql: `
    ALTER TABLE thread_stats ADD COLUMN priced_cost REAL;
    CREATE INDEX thread_stats_by_cost ON thread_stats (project_id, priced_cost ASC, thread_id ASC);
    CREATE INDEX thread_stats_by_cost_desc ON thread_stats (project_id, priced_cost DESC, thread_id ASC);

    CREATE TABLE price_epochs (
      scope TEXT PRIMARY KEY,
      epoch INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE thread_cost_epochs (
      project_id    TEXT PRIMARY KEY,
      default_epoch INTEGER NOT NULL,
      project_epoch INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO thread_cost_epochs (project_id, default_epoch, project_epoch)
      SELECT DISTINCT project_id, -1, -1 FROM thread_stats;

    CREATE TRIGGER llm_token_prices_epoch_insert AFTER INSERT ON llm_token_prices BEGIN
      ${bump('NEW')}
    END;
    CREATE TRIGGER llm_token_prices_epoch_update AFTER UPDATE ON llm_token_prices BEGIN
      ${bump('OLD')}
      ${bump('NEW')}
    END;
    CREATE TRIGGER llm_token_prices_epoch_delete AFTER DELETE ON llm_token_prices BEGIN
      ${bump('OLD')}
    END;
  `,
};

/** Takes migration 35 out of a file, for the tests that make a file of an older schema. */
export const UNDO_V35_SQL = `
  DROP TRIGGER llm_token_prices_epoch_insert; DROP TRIGGER llm_token_prices_epoch_update;
  DROP TRIGGER llm_token_prices_epoch_delete; DROP TABLE price_epochs; DROP TABLE thread_cost_epochs;
  DROP INDEX thread_stats_by_cost; DROP INDEX thread_stats_by_cost_desc;
  ALTER TABLE thread_stats DROP COLUMN priced_cost;`;
