/**
 * SQLite implementation of TablesStore. Rows are stored once per digest; a table is its
 * ordered row-digest list, kept in chunks of CHUNK_ROWS digests (JSON arrays). Reading in
 * table order walks the chunks one at a time and fetches each chunk's rows with one query,
 * so a 100,000-row table streams with one chunk in memory. Sorted reads let SQLite sort.
 */
import type { TableRowRecord, TableRowsQuery, TablesStore } from '../Store.js';
import { recordFileRefs } from './fileRefs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

const CHUNK_ROWS = 1000;
const IN_LIST = 'IN (SELECT value FROM json_each(?))';
const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';

/** A SQLite JSON path for a list of object keys: `$."a"."b"`. */
export function jsonPath(path: string[]): string {
  return `$${path.map((key) => `."${key}"`).join('')}`;
}

export class SqliteTablesStore implements TablesStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async createTable(req: {
    projectId: string;
    digest: string;
    rowDigests: string[];
    rows: { digest: string; valJson: string }[];
    createdAt: number;
  }): Promise<void> {
    const db = this.#db;
    const insertRow = db.prepare('INSERT OR IGNORE INTO table_rows (project_id, digest, val) VALUES (?, ?, ?)');
    const insertChunk = db.prepare(
      'INSERT INTO table_chunks (project_id, table_digest, start_index, row_count, row_digests) VALUES (?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (const row of req.rows) {
        insertRow.run(req.projectId, row.digest, row.valJson);
        recordFileRefs(db, req.projectId, 'row', row.digest, [row.valJson]);
      }
      const created = db.run('INSERT OR IGNORE INTO tables (project_id, digest, row_count, created_at) VALUES (?, ?, ?, ?)', [
        req.projectId,
        req.digest,
        req.rowDigests.length,
        req.createdAt,
      ]);
      if (created.changes === 0) return; // the same table (same digest) is already stored
      for (let start = 0; start < req.rowDigests.length; start += CHUNK_ROWS) {
        const chunk = req.rowDigests.slice(start, start + CHUNK_ROWS);
        insertChunk.run(req.projectId, req.digest, start, chunk.length, JSON.stringify(chunk));
      }
      db.run(PROJECT_SQL, [req.projectId, req.projectId.split('/')[0], req.createdAt]);
    });
  }

  async readRowDigests(req: { projectId: string; digest: string }): Promise<string[] | null> {
    const table = this.#db.get('SELECT 1 FROM tables WHERE project_id = ? AND digest = ?', [req.projectId, req.digest]);
    if (!table) return null;
    const chunks = this.#db.all<{ row_digests: string }>(
      'SELECT row_digests FROM table_chunks WHERE project_id = ? AND table_digest = ? ORDER BY start_index',
      [req.projectId, req.digest],
    );
    return chunks.flatMap((c) => JSON.parse(c.row_digests) as string[]);
  }

  queryRows(q: TableRowsQuery): AsyncIterable<TableRowRecord> {
    return q.sortBy?.length ? this.#sortedRows(q) : this.#rowsInOrder(q);
  }

  /**
   * Table order, chunk by chunk. Without a row filter, whole chunks before the offset are
   * skipped unread, counting their positions as rows; only a table made from digests with no
   * stored row (create_from_digests does not check) can tell the difference.
   */
  async *#rowsInOrder(q: TableRowsQuery): AsyncGenerator<TableRowRecord> {
    const wanted = q.rowDigests?.length ? new Set(q.rowDigests) : null;
    let skip = q.offset ?? 0;
    let left = q.limit ?? Infinity;
    if (left <= 0) return;
    const firstIndex = wanted ? 0 : skip;
    let first = true;
    const chunks = this.#db.stream<{ start_index: number; row_digests: string }>(
      `SELECT start_index, row_digests FROM table_chunks
       WHERE project_id = ? AND table_digest = ? AND start_index + row_count > ? ORDER BY start_index`,
      [q.projectId, q.digest, firstIndex],
      1,
    );
    for await (const chunk of chunks) {
      if (first && !wanted) skip -= chunk.start_index;
      first = false;
      const digests = JSON.parse(chunk.row_digests) as string[];
      const vals = await this.readRows({ projectId: q.projectId, digests });
      for (let i = 0; i < digests.length; i++) {
        const digest = digests[i]!;
        const valJson = vals.get(digest);
        // Like the reference's join, digests without a stored row (create_from_digests does
        // not check them) are left out.
        if (valJson === undefined || (wanted && !wanted.has(digest))) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        yield { digest, valJson, originalIndex: chunk.start_index + i };
        if (--left <= 0) return;
      }
    }
  }

  /**
   * Sorted by JSON paths into the rows (SQLite's order: nulls first, numbers, then text).
   * CROSS JOIN fixes the loop order (chunks, their digests, then each row by primary key);
   * left to itself the planner scans the project's rows against every chunk.
   */
  async *#sortedRows(q: TableRowsQuery): AsyncGenerator<TableRowRecord> {
    const order = q.sortBy!.map((s) => `json_extract(r.val, ?) ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    const filter = q.rowDigests?.length ? `AND je.value ${IN_LIST}` : '';
    const params: unknown[] = [q.projectId, q.digest];
    if (filter) params.push(JSON.stringify(q.rowDigests));
    params.push(...q.sortBy!.map((s) => jsonPath(s.path)), q.limit ?? -1, q.offset ?? 0);
    const rows = this.#db.stream<{ digest: string; val: string; original_index: number }>(
      `SELECT je.value AS digest, r.val AS val, c.start_index + je.key AS original_index
       FROM table_chunks c CROSS JOIN json_each(c.row_digests) je
       CROSS JOIN table_rows r ON r.project_id = c.project_id AND r.digest = je.value
       WHERE c.project_id = ? AND c.table_digest = ? ${filter}
       ORDER BY ${order.join(', ')}, original_index LIMIT ? OFFSET ?`,
      params,
    );
    for await (const r of rows) yield { digest: r.digest, valJson: r.val, originalIndex: r.original_index };
  }

  async tableStats(req: { projectId: string; digests: string[]; includeStorageSize: boolean }) {
    const tables = this.#db.all<{ digest: string; row_count: number }>(
      `SELECT digest, row_count FROM tables WHERE project_id = ? AND digest ${IN_LIST}`,
      [req.projectId, JSON.stringify(req.digests)],
    );
    return tables.map((t) => ({
      digest: t.digest,
      count: t.row_count,
      storageSizeBytes: req.includeStorageSize ? this.#storageSize(req.projectId, t.digest) : null,
    }));
  }

  /** Bytes of the rows' JSON, each position counted (a repeated row counts each time). */
  #storageSize(projectId: string, digest: string): number {
    return (
      this.#db.get<{ size: number | null }>(
        `SELECT sum(length(CAST(r.val AS BLOB))) AS size FROM table_chunks c CROSS JOIN json_each(c.row_digests) je
       CROSS JOIN table_rows r ON r.project_id = c.project_id AND r.digest = je.value
       WHERE c.project_id = ? AND c.table_digest = ?`,
        [projectId, digest],
      )!.size ?? 0
    );
  }

  async readRows(req: { projectId: string; digests: string[] }): Promise<Map<string, string>> {
    if (req.digests.length === 0) return new Map();
    const rows = this.#db.all<{ digest: string; val: string }>(
      `SELECT digest, val FROM table_rows WHERE project_id = ? AND digest ${IN_LIST}`,
      [req.projectId, JSON.stringify(req.digests)],
    );
    return new Map(rows.map((r) => [r.digest, r.val]));
  }
}
