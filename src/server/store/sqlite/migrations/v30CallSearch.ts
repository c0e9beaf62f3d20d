import { partDocumentSql } from '../callSearch.js';
import type { Migration } from './migration.js';

export const v30CallSearch: Migration = {
  version: 30,
  name: 'substring index of calls (FTS5 trigram)',
  sql: `
      -- Any substring of 3 or more characters of a call's inputs, attributes, output and
      -- exception, in any script (docs/search.md). Contentless: the text stays in calls. Two
      -- documents per call, by the call row's rowid: the start part (rowid * 2) and the end
      -- part (rowid * 2 + 1), written with their parts (store/sqlite/callSearch.ts).
      CREATE VIRTUAL TABLE call_search USING fts5(
        body, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
      );
      -- The calls stored before: indexed here, in this migration's transaction.
      INSERT INTO call_search (rowid, body)
        SELECT rowid * 2, ${partDocumentSql('inputs', 'attributes')} FROM calls;
      INSERT INTO call_search (rowid, body)
        SELECT rowid * 2 + 1, ${partDocumentSql('output', 'exception')} FROM calls;
    `,
};
