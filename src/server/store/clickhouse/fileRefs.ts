/**
 * The file reference index on ClickHouse (migration 18) and the retention step that removes the
 * files only expired calls referred to (docs/operations/retention.md "Files").
 *
 * Nothing here deletes rows: a mutation (lightweight DELETE) does not run on the Distributed
 * tables of the sharded layouts. An expired call's references are written again with
 * `expire_at` (the later row wins; TTL drops them), and a removed file's `files` row is written
 * again ranked above every copy with `expired_at` set, its chunks again with no data, so the
 * next merge frees the bytes. The markers stay (a few dozen bytes a file): were a TTL to drop a
 * marker before it met the row it replaces, the file would come back.
 */
import { fileDigestsIn } from '../../core/fileRefs.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

export type FileRefKind = 'call' | 'object' | 'row';

export interface FileRefRow {
  project_id: string;
  digest: string;
  kind: FileRefKind;
  holder: string;
}

/** The rows recording what one holder's payloads refer to; insert them before the payload. */
export function fileRefRows(projectId: string, kind: FileRefKind, holder: string, jsons: (string | null)[]): FileRefRow[] {
  const digests = new Set<string>();
  for (const json of jsons) fileDigestsIn(json, digests);
  return [...digests].map((digest) => ({ project_id: projectId, digest, kind, holder }));
}

/** What one expiry step removed of the project's files. */
export interface ExpiredFiles {
  files: number;
  bytes: number;
}

interface FileRow {
  digest: string;
  copy_id: string;
  name: string;
  size_bytes: string | number;
  created_at: string | number;
  rank: string | number;
}

/**
 * Expires the references of these calls (just hidden by the sweep) and removes every file they
 * referred to that no live reference holds any more: no other call, object version or table row.
 * A file nothing ever referred to is not touched.
 */
export async function expireUnreferencedFiles(
  db: ClickHouseDatabase,
  req: { projectId: string; callIds: string[]; now: number; expireAt: number },
): Promise<ExpiredFiles> {
  const p = req.projectId;
  const refs = await db.all<{ digest: string; holder: string }>(
    `SELECT digest, holder FROM file_refs FINAL PREWHERE project_id = {p:String}
     WHERE kind = 'call' AND holder IN {ids:Array(String)} AND expire_at IS NULL`,
    { p, ids: req.callIds },
  );
  if (refs.length === 0) return { files: 0, bytes: 0 };
  await db.insert(
    'file_refs',
    refs.map((r) => ({ project_id: p, digest: r.digest, kind: 'call', holder: r.holder, expire_at: req.expireAt })),
  );
  const candidates = [...new Set(refs.map((r) => r.digest))];
  const held = await db.all<{ digest: string }>(
    `SELECT DISTINCT digest FROM file_refs FINAL PREWHERE project_id = {p:String} AND digest IN {ds:Array(String)}
     WHERE expire_at IS NULL`,
    { p, ds: candidates },
  );
  const stillHeld = new Set(held.map((r) => r.digest));
  const doomed = candidates.filter((d) => !stillHeld.has(d));
  if (doomed.length === 0) return { files: 0, bytes: 0 };
  const files = await db.all<FileRow>(
    `SELECT digest, copy_id, name, size_bytes, created_at, rank FROM files FINAL
     PREWHERE project_id = {p:String} AND digest IN {ds:Array(String)} WHERE expired_at IS NULL`,
    { p, ds: doomed },
  );
  if (files.length === 0) return { files: 0, bytes: 0 };
  // The file first, so no reader finds it with its chunks emptied.
  await db.insert(
    'files',
    files.map((f) => ({
      project_id: p,
      digest: f.digest,
      copy_id: f.copy_id,
      name: f.name,
      size_bytes: num(f.size_bytes),
      created_at: num(f.created_at),
      rank: num(f.rank) + 1,
      expired_at: req.now,
    })),
  );
  const chunks = await db.all<{ digest: string; copy_id: string; chunk_index: number }>(
    `SELECT DISTINCT digest, copy_id, chunk_index FROM file_chunks PREWHERE project_id = {p:String} AND digest IN {ds:Array(String)}`,
    { p, ds: files.map((f) => f.digest) },
  );
  await db.insert(
    'file_chunks',
    chunks.map((c) => ({ project_id: p, ...c, data_b64: '' })),
  );
  return { files: files.length, bytes: files.reduce((n, f) => n + num(f.size_bytes), 0) };
}
