/**
 * The file reference index on SQLite (migration 27): which calls, object versions and table rows
 * refer to which file digests, written in the transaction that writes the payload, and the
 * retention step that removes the files only expired calls referred to
 * (docs/operations/retention.md "Files").
 */
import { fileDigestsIn } from '../../core/fileRefs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

export type FileRefKind = 'call' | 'object' | 'row';

const INSERT_SQL = 'INSERT OR IGNORE INTO file_refs (project_id, digest, kind, holder) VALUES (?, ?, ?, ?)';

/** Records the digests the payloads of one holder refer to; call inside the payload's write transaction. */
export function recordFileRefs(db: SqliteDatabase, projectId: string, kind: FileRefKind, holder: string, jsons: (string | null)[]): void {
  const digests = new Set<string>();
  for (const json of jsons) fileDigestsIn(json, digests);
  if (digests.size === 0) return;
  const insert = db.prepare(INSERT_SQL);
  for (const digest of digests) insert.run(projectId, digest, kind, holder);
}

const IDS = 'SELECT value FROM json_each(?)';

/** What one expiry step removed of the project's files. */
export interface ExpiredFiles {
  files: number;
  bytes: number;
}

/**
 * Drops the references of these calls (about to be removed) and removes every file they referred
 * to that no other call, object version or table row refers to. Runs inside the retention batch's
 * transaction, so a call written meanwhile either committed its references before (and keeps the
 * file) or comes after the batch. A file nothing ever referred to is not touched.
 */
export function expireUnreferencedFiles(db: SqliteDatabase, projectId: string, callIds: string[]): ExpiredFiles {
  const list = JSON.stringify(callIds);
  const candidates = db
    .all<{ digest: string }>(`SELECT DISTINCT digest FROM file_refs WHERE project_id = ? AND kind = 'call' AND holder IN (${IDS})`, [
      projectId,
      list,
    ])
    .map((r) => r.digest);
  if (candidates.length === 0) return { files: 0, bytes: 0 };
  db.run(`DELETE FROM file_refs WHERE project_id = ? AND kind = 'call' AND holder IN (${IDS})`, [projectId, list]);
  const doomed = db
    .all<{ digest: string }>(
      `SELECT value AS digest FROM json_each(?) d
       WHERE NOT EXISTS (SELECT 1 FROM file_refs r WHERE r.project_id = ? AND r.digest = d.value)`,
      [JSON.stringify(candidates), projectId],
    )
    .map((r) => r.digest);
  if (doomed.length === 0) return { files: 0, bytes: 0 };
  const digests = JSON.stringify(doomed);
  const gone = db.get<{ files: number; bytes: number | null }>(
    `SELECT count(*) AS files, sum(size_bytes) AS bytes FROM files WHERE project_id = ? AND digest IN (${IDS})`,
    [projectId, digests],
  )!;
  db.run(`DELETE FROM file_chunks WHERE project_id = ? AND digest IN (${IDS})`, [projectId, digests]);
  db.run(`DELETE FROM files WHERE project_id = ? AND digest IN (${IDS})`, [projectId, digests]);
  return { files: gone.files, bytes: gone.bytes ?? 0 };
}
