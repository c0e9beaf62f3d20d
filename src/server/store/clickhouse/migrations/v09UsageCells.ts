import { SUMMARY_USAGE_CELLS } from '../usageSql.js';
import type { ClickHouseMigration } from './migration.js';

export const v09UsageCells: ClickHouseMigration = {
  version: 9,
  name: "a call's usage cells by model from its summary, as a column",
  statements: [
    // What /calls/stats adds up per model (entries, input, output, total, cache read and
    // cache creation tokens; usageSql.ts SUMMARY_USAGE_CELLS), computed once when the end part
    // is inserted instead of parsing the summary's usage per call on every stats request, where
    // it was most of the engine's time. Nullable and NULL without a summary for the reason
    // given at migration 8; the same holds when the usage rule changes.
    `ALTER TABLE calls ADD COLUMN IF NOT EXISTS summary_usage_cells Nullable(String)
        DEFAULT if(summary IS NULL, NULL, ${SUMMARY_USAGE_CELLS})`,
    'ALTER TABLE calls MATERIALIZE COLUMN summary_usage_cells',
  ],
};
