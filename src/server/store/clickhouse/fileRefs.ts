/**
 * The file reference index on ClickHouse (migration 18) and the retention step that removes the
 * files only expired calls referred to (docs/operations/retention.md "Files").
 *
 * Nothing here deletes rows: a mutation (lightweight DELETE) does not run on the Distributed
 * tables of the sharded layouts. An expired call's references (`call_file_refs`) are written
 * again with `expire_at` (the later row wins; TTL drops them); a removed file's `files` row is
 * written again ranked above every copy with `expired_at` set, and its chunks again with no
 * data, so the next merge frees the bytes. These markers stay (a few dozen bytes a file): were a
 * TTL to drop one before it met the row it replaces, the file would come back.
 */
import { fileDigestsIn } from '../../core/fileRefs.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

const digestsOf = (jsons: (string | null)[]): string[] => {
  const digests = new Set<string>();
  for (const json of jsons) fileDigestsIn(json, digests);
  return [...digests];
};

/** The `call_file_refs` rows of one call's payloads; insert them before the call. */
export const callFileRefRows = (projectId: string, id: string, jsons: (string | null)[]) =>
  digestsOf(jsons).map((digest) => ({ project_id: projectId, id, digest }));

/** The `object_file_refs` rows of an object version's value ('object') or a table row ('row'); insert them first. */
export const objectFileRefRows = (projectId: string, kind: 'object' | 'row', holder: string, jsons: (string | null)[]) =>
  digestsOf(jsons).map((digest) => ({ project_id: projectId, digest, kind, holder }));

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
  const refs = await db.all<{ id: string; digest: string }>(
    `SELECT id, digest FROM call_file_refs FINAL PREWHERE project_id = {p:String} AND id IN {ids:Array(String)}
     WHERE expire_at IS NULL`,
    { p, ids: req.callIds },
  );
  if (refs.length === 0) return { files: 0, bytes: 0 };
  await db.insert(
    'call_file_refs',
    refs.map((r) => ({ project_id: p, id: r.id, digest: r.digest, expire_at: req.expireAt })),
  );
  const candidates = [...new Set(refs.map((r) => r.digest))];
  const held = await db.all<{ digest: string }>(
    `SELECT DISTINCT digest FROM call_file_refs FINAL PREWHERE project_id = {p:String} AND digest IN {ds:Array(String)}
     WHERE expire_at IS NULL
     UNION DISTINCT
     SELECT DISTINCT digest FROM object_file_refs PREWHERE project_id = {p:String} AND digest IN {ds:Array(String)}`,
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
