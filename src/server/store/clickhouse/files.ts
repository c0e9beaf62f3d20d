/**
 * ClickHouse implementation of FilesStore. The bytes are kept base64 in `file_chunks` rows of
 * one copy; the `files` row, written last, says which copy is the file. Two replicas storing the
 * same digest at once write two copies, and the earliest `files` row wins on every read, so
 * chunks of different copies never mix and a reader never sees a half-written file.
 */
import { randomUUID } from 'node:crypto';
import type { FilesStore } from '../Store.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

/**
 * A file's row: the earliest copy (highest rank), or the marker of its removal by retention,
 * ranked above every copy (fileRefs.ts); a removed file is not there.
 */
const WINNER_SQL = `SELECT copy_id, size_bytes, rank, expired_at FROM files FINAL WHERE project_id = {p:String} AND digest = {d:String}`;
const FILE_SQL = `SELECT copy_id, size_bytes FROM files FINAL WHERE project_id = {p:String} AND digest = {d:String} AND expired_at IS NULL`;

export class ClickHouseFilesStore implements FilesStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async createFile(req: { projectId: string; digest: string; name: string; chunks: Uint8Array[]; createdAt: number }): Promise<void> {
    // Digests are content addresses: a stored digest is already this content.
    const stored = await this.#db.get<{ rank: string; expired_at: string | null }>(WINNER_SQL, { p: req.projectId, d: req.digest });
    if (stored && stored.expired_at === null) return;
    const copyId = randomUUID();
    await this.#db.insert(
      'file_chunks',
      req.chunks.map((chunk, i) => ({
        project_id: req.projectId,
        digest: req.digest,
        copy_id: copyId,
        chunk_index: i,
        data_b64: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64'),
      })),
    );
    await this.#db.insert('projects', [{ project_id: req.projectId, entity: req.projectId.split('/')[0], created_at: req.createdAt }]);
    await this.#db.insert('files', [
      {
        project_id: req.projectId,
        digest: req.digest,
        copy_id: copyId,
        name: req.name,
        size_bytes: req.chunks.reduce((n, c) => n + c.byteLength, 0),
        created_at: req.createdAt,
        // The earliest copy wins: ReplacingMergeTree keeps the highest rank. Stored again after
        // retention removed it, the file must outrank the removal's marker.
        rank: stored ? num(stored.rank) + 1 : Number.MAX_SAFE_INTEGER - Date.now() * 1000,
      },
    ]);
  }

  async fileSize(req: { projectId: string; digest: string }): Promise<number | null> {
    const row = await this.#db.get<{ size_bytes: string }>(FILE_SQL, { p: req.projectId, d: req.digest });
    return row ? num(row.size_bytes) : null;
  }

  async *readFile(req: { projectId: string; digest: string }): AsyncIterable<Uint8Array> {
    const file = await this.#db.get<{ copy_id: string }>(FILE_SQL, { p: req.projectId, d: req.digest });
    if (!file) return;
    const chunks = this.#db.stream<{ data_b64: string }>(
      `SELECT data_b64 FROM file_chunks FINAL
       WHERE project_id = {p:String} AND digest = {d:String} AND copy_id = {c:String} ORDER BY chunk_index`,
      { p: req.projectId, d: req.digest, c: file.copy_id },
    );
    for await (const chunk of chunks) yield new Uint8Array(Buffer.from(chunk.data_b64, 'base64'));
  }

  async totalSize(projectId: string): Promise<number> {
    const row = await this.#db.get<{ n: string }>(
      'SELECT sum(size_bytes) AS n FROM files FINAL WHERE project_id = {p:String} AND expired_at IS NULL',
      {
        p: projectId,
      },
    );
    return num(row?.n ?? 0);
  }
}
