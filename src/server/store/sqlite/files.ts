/**
 * SQLite implementation of FilesStore: one `files` row per (project, digest) and the bytes in
 * `file_chunks` rows, read back one chunk at a time so a large file is never held whole.
 */
import type { FilesStore } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';

export class SqliteFilesStore implements FilesStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async createFile(req: { projectId: string; digest: string; name: string; chunks: Uint8Array[]; createdAt: number }): Promise<void> {
    const db = this.#db;
    const size = req.chunks.reduce((n, c) => n + c.byteLength, 0);
    const insertChunk = db.prepare('INSERT INTO file_chunks (project_id, digest, chunk_index, data) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      const created = db.run('INSERT OR IGNORE INTO files (project_id, digest, name, size_bytes, created_at) VALUES (?, ?, ?, ?, ?)', [
        req.projectId,
        req.digest,
        req.name,
        size,
        req.createdAt,
      ]);
      if (created.changes === 0) return; // same content already stored: digests are content addresses
      req.chunks.forEach((chunk, i) => insertChunk.run(req.projectId, req.digest, i, chunk));
      db.run(PROJECT_SQL, [req.projectId, req.projectId.split('/')[0], req.createdAt]);
    });
  }

  async fileSize(req: { projectId: string; digest: string }): Promise<number | null> {
    const row = this.#db.get<{ size_bytes: number }>('SELECT size_bytes FROM files WHERE project_id = ? AND digest = ?', [
      req.projectId,
      req.digest,
    ]);
    return row ? row.size_bytes : null;
  }

  async *readFile(req: { projectId: string; digest: string }): AsyncIterable<Uint8Array> {
    const chunks = this.#db.stream<{ data: Uint8Array }>(
      'SELECT data FROM file_chunks WHERE project_id = ? AND digest = ? ORDER BY chunk_index',
      [req.projectId, req.digest],
      1,
    );
    for await (const chunk of chunks) yield chunk.data;
  }

  async totalSize(projectId: string): Promise<number> {
    return this.#db.get<{ total: number }>('SELECT coalesce(sum(size_bytes), 0) AS total FROM files WHERE project_id = ?', [projectId])!
      .total;
  }
}
