import type { Migration } from './migration.js';

export const v07QueueCallFields: Migration = {
  version: 7,
  name: 'annotation queues keep the call fields reviewers see',
  sql: `
      -- A JSON array of call paths (inputs.prompt, output); NULL when none were chosen, as for
      -- queues created before this column or by clients that do not know it.
      ALTER TABLE annotation_queues ADD COLUMN display_fields TEXT;
    `,
};
