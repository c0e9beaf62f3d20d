import { SUMMARY_TOKENS, SUMMARY_USAGE } from '../usageSql.js';
import type { ClickHouseMigration } from './migration.js';

export const v08SummaryColumns: ClickHouseMigration = {
  version: 8,
  name: "a call's error flag, token total and usage by model from its summary, as columns",
  statements: [
    // What thread statistics read of a summary, computed once when the end part is inserted
    // (a column default: writers send only the summary) instead of parsing JSON per turn on
    // every threads request. NULL without a summary, so a start or rename part never
    // coalesces over the end's value. Usage by model is a JSON array of [model, input,
    // output] (an array cannot be Nullable), read with one typed JSONExtract. Tokens follow
    // the one usage rule (usageSql.ts) as printed when this migration was written: a later
    // change of the rule needs a new migration that recomputes them.
    `ALTER TABLE calls
        ADD COLUMN IF NOT EXISTS summary_error Nullable(UInt8)
          DEFAULT if(summary IS NULL, NULL, JSONExtractInt(summary, 'status_counts', 'error') > 0),
        ADD COLUMN IF NOT EXISTS summary_tokens Nullable(Int64)
          DEFAULT if(summary IS NULL, NULL, ${SUMMARY_TOKENS}),
        ADD COLUMN IF NOT EXISTS summary_usage Nullable(String)
          DEFAULT if(summary IS NULL, NULL, ${SUMMARY_USAGE})`,
    // Rows written before this migration get the columns too (a mutation, run in the background).
    'ALTER TABLE calls MATERIALIZE COLUMN summary_error, MATERIALIZE COLUMN summary_tokens, MATERIALIZE COLUMN summary_usage',
  ],
};
