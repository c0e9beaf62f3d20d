import type { Migration } from './migration.js';

export const v09CachedTokenPrices: Migration = {
  version: 9,
  name: 'prices of cached prompt tokens',
  sql: `
      -- Per-token prices of prompt tokens read from / written to a provider's cache, as the
      -- newest reference's cost rows carry them; 0 for prices stored before.
      ALTER TABLE llm_token_prices ADD COLUMN cache_read_input_token_cost REAL NOT NULL DEFAULT 0;
      ALTER TABLE llm_token_prices ADD COLUMN cache_creation_input_token_cost REAL NOT NULL DEFAULT 0;
    `,
};
