/** Migration 32: repeated call content stored once, content-addressed (docs/history-storage.md). */
import type { Migration } from './migration.js';

export const v32HistoryBlobs: Migration = {
  version: 32,
  name: 'history blobs',
  sql: `
    -- One row per distinct piece of call content, by digest (store/sqlite/history/): a long
    -- string ('s'), base64 media kept as bytes ('m': body is the text before the base64, such
    -- as 'data:image/png;base64,'), or a node of a message array chain ('a': body holds the
    -- array's new items, parent the digest of the prefix stored before, length the item count).
    -- A rowid table: its leaves hold rows of up to ~4 KB whole, where a WITHOUT ROWID table
    -- spills anything past ~1 KB to overflow pages (measured: 2.7x the bytes of the bodies).
    CREATE TABLE history_blobs (
      project_id TEXT NOT NULL,
      digest     TEXT NOT NULL,
      parent     TEXT,
      length     INTEGER NOT NULL,
      body       TEXT NOT NULL,
      bytes      BLOB
    );
    CREATE UNIQUE INDEX history_blobs_by_digest ON history_blobs (project_id, digest);
    -- Set when the column holds markers in place of repeated content: the original text's
    -- length in characters (what length() said of it), so storage sizes stay the same.
    ALTER TABLE calls ADD COLUMN inputs_chars INTEGER;
    ALTER TABLE calls ADD COLUMN output_chars INTEGER;
  `,
};
