/**
 * Migration 27: the file reference index (docs/operations/retention.md "Files"). One row per
 * file digest a call, an object version or a table row refers to (core/fileRefs.ts), written
 * with the payload, so the retention sweep finds the files only expired calls used without
 * scanning payloads. Backfilled here with the same rule in SQL: the string values of the
 * `files` object of every `CustomWeaveType` object, at any depth.
 */
import type { Migration } from './migration.js';

/** The backfill of one JSON column of a table: `holder` names the row that refers. */
const backfill = (table: string, column: string, kind: string, holder: string) => `
    INSERT OR IGNORE INTO file_refs (project_id, digest, kind, holder)
      SELECT s.project_id, f.value, '${kind}', ${holder}
      FROM ${table} s, json_tree(s.${column}) t, json_each(t.value, '$.files') f
      WHERE s.${column} LIKE '%CustomWeaveType%' AND json_valid(s.${column}) AND t.type = 'object'
        AND json_extract(t.value, '$._type') = 'CustomWeaveType' AND json_type(t.value, '$.files') = 'object'
        AND f.type = 'text';`;

export const v27FileRefs: Migration = {
  version: 27,
  name: 'file reference index',
  sql: `
    -- kind: 'call' (holder: the call id), 'object' (object id and version digest), 'row' (table row digest).
    CREATE TABLE file_refs (
      project_id TEXT NOT NULL,
      digest     TEXT NOT NULL,
      kind       TEXT NOT NULL CHECK (kind IN ('call', 'object', 'row')),
      holder     TEXT NOT NULL,
      PRIMARY KEY (project_id, digest, kind, holder)
    ) WITHOUT ROWID;
    -- The sweep looks up what the calls it expires referred to.
    CREATE INDEX file_refs_by_call ON file_refs (project_id, holder) WHERE kind = 'call';
    ${backfill('calls', 'inputs', 'call', 's.id')}
    ${backfill('calls', 'output', 'call', 's.id')}
    ${backfill('objects', 'val', 'object', "s.object_id || ':' || s.digest")}
    ${backfill('table_rows', 'val', 'row', 's.digest')}
  `,
};
