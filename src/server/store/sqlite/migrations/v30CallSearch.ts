import type { Migration } from './migration.js';

export const v30CallSearch: Migration = {
  version: 30,
  name: 'substring index of calls (FTS5 trigram)',
  sql: `
      -- Any substring of 3 or more characters of a call's inputs, attributes, output and
      -- exception, in any script (docs/search.md). Contentless: the text stays in calls. Two
      -- documents per call, by the call row's rowid: the start part (rowid * 2) and the end
      -- part (rowid * 2 + 1) (store/sqlite/callSearch.ts).
      CREATE VIRTUAL TABLE call_search USING fts5(
        body, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
      );
      -- Calls (by rowid) waiting for the background indexer; searches read every queued call.
      CREATE TABLE call_search_queue (call_rowid INTEGER PRIMARY KEY);
      -- The calls stored before are queued, not indexed here: the indexer works through them
      -- after the upgrade (resumable: what it has done leaves the queue), searches exact meanwhile.
      INSERT INTO call_search_queue (call_rowid) SELECT rowid FROM calls;
    `,
};
