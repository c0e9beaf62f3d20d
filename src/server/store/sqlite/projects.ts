/** SQLite implementation of ProjectsStore. */
import type { ProjectsStore, ProjectSummary } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { storageSizeSql } from './callsColumnsSql.js';

/** One SUM over a project's rows (0 for none). */
const SIZE_SQL = {
  traces: `SELECT coalesce(sum(${storageSizeSql()}), 0) AS n FROM calls WHERE project_id = ? AND deleted_at IS NULL`,
  objects: 'SELECT coalesce(sum(size_bytes), 0) AS n FROM objects WHERE project_id = ? AND deleted_at IS NULL',
  tables: 'SELECT coalesce(sum(length(val)), 0) AS n FROM table_rows WHERE project_id = ?',
  files: 'SELECT coalesce(sum(size_bytes), 0) AS n FROM files WHERE project_id = ?',
} as const;

export class SqliteProjectsStore implements ProjectsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async storageStats(req: { projectId: string; traces: boolean; objects: boolean; tables: boolean; files: boolean }) {
    const size = (part: keyof typeof SIZE_SQL) => (req[part] ? this.#db.get<{ n: number }>(SIZE_SQL[part], [req.projectId])!.n : 0);
    return {
      traces: size('traces'),
      objects: size('objects'),
      tables: size('tables'),
      files: size('files'),
    };
  }

  async createProject(projectId: string): Promise<void> {
    const entity = projectId.split('/')[0]!;
    this.#db.run('INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)', [
      projectId,
      entity,
      Date.now() * 1000,
    ]);
  }

  async listProjects(req: { entities: string[] | 'all'; projectIds?: string[] | null }): Promise<ProjectSummary[]> {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (req.entities !== 'all') {
      if (req.entities.length === 0) return [];
      clauses.push('p.entity IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(req.entities));
    }
    if (req.projectIds) {
      if (req.projectIds.length === 0) return [];
      clauses.push('p.project_id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(req.projectIds));
    }
    // Counting uses the (project_id, started_at) index; deleted calls are few, so the
    // correlated count stays an index range scan per project.
    const sql = `
      SELECT p.project_id AS project_id,
        (SELECT count(*) FROM calls c WHERE c.project_id = p.project_id AND c.started_at IS NOT NULL AND c.deleted_at IS NULL) AS call_count,
        (SELECT max(started_at) FROM calls c WHERE c.project_id = p.project_id AND c.deleted_at IS NULL) AS last_activity
      FROM projects p ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}
      ORDER BY last_activity DESC, p.project_id`;
    return this.#db
      .all<{ project_id: string; call_count: number; last_activity: number | null }>(sql, params)
      .map((r) => ({ projectId: r.project_id, callCount: r.call_count, lastActivity: r.last_activity }));
  }
}
