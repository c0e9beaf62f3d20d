import { turnSideTextSql } from '../threadSearch.js';
import type { ClickHouseMigration } from './migration.js';

export const v11ThreadTurnText: ClickHouseMigration = {
  version: 11,
  name: "thread turns' searchable text and attributes",
  statements: [
    // What thread search and attribute filters read of a turn, beside its statistics, so a
    // filtered threads request merges thread_turns alone instead of the turns' rows of calls
    // with their whole payloads, and parses no JSON (threads.ts). The writer sends a turn's
    // start with its inputs and attributes, and every end it sends with its output (calls.ts);
    // inputs and output are EPHEMERAL (never stored): the columns keep only the searchable
    // text of each (threadSearch.ts, at most 8000 characters a side), Nullable and NULL
    // without the payload so a part without it never coalesces over it. The text rule is
    // threadSearch.ts's: a change of it must come with a new migration that recomputes the
    // columns, or databases migrated before the change keep text made by the old rule.
    `ALTER TABLE thread_turns
        ADD COLUMN IF NOT EXISTS inputs Nullable(String) EPHEMERAL,
        ADD COLUMN IF NOT EXISTS output Nullable(String) EPHEMERAL,
        ADD COLUMN IF NOT EXISTS inputs_text Nullable(String) DEFAULT if(inputs IS NULL, NULL, ${turnSideTextSql('inputs')}),
        ADD COLUMN IF NOT EXISTS output_text Nullable(String) DEFAULT if(output IS NULL, NULL, ${turnSideTextSql('output')}),
        ADD COLUMN IF NOT EXISTS attributes Nullable(String)`,
    // The calls written before this migration, part by part as the writer would have written
    // them (migration 10's backfill): a turn's start part with its inputs and attributes (and
    // its output when the part holds the end too), an end part with its output. Run twice,
    // the parts coalesce to the same rows.
    `INSERT INTO thread_turns (project_id, id, inputs, output, attributes) SELECT project_id, id,
          if(turn_id = id AND ifNull(thread_id, '') != '', inputs, NULL), output,
          if(turn_id = id AND ifNull(thread_id, '') != '', attributes, NULL)
        FROM calls
        WHERE (turn_id = id AND ifNull(thread_id, '') != '') OR (started_at IS NULL AND output IS NOT NULL)`,
  ],
};
