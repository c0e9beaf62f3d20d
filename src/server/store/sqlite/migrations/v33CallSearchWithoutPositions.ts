/** Migration 33: the calls' substring index without positions (docs/search.md "How each backend finds them"). */
import type { Migration } from './migration.js';

export const v33CallSearchWithoutPositions: Migration = {
  version: 33,
  name: 'substring index of calls without positions',
  sql: `
      -- The trigram index kept each trigram's positions, to match a search as a phrase: three
      -- quarters of its bytes. A search now asks for all of its trigrams (store/sqlite/callSearch.ts)
      -- and the rule decides, so rowids alone (detail = none) answer the same calls.
      DROP TABLE call_search;
      CREATE VIRTUAL TABLE call_search USING fts5(
        body, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram case_sensitive 0'
      );
      -- Indexed again behind the writes, as migration 30 did: every queued call is a candidate
      -- of every search meanwhile, so answers stay exact.
      INSERT OR IGNORE INTO call_search_queue (call_rowid) SELECT rowid FROM calls;
    `,
};
