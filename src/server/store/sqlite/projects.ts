/** SQLite implementation of ProjectsStore. */
import type { ProjectsStore, ProjectSummary } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

export class SqliteProjectsStore implements ProjectsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
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
      clauses.push(`p.entity IN (${req.entities.map(() => '?').join(', ')})`);
      params.push(...req.entities);
    }
    if (req.projectIds) {
      if (req.projectIds.length === 0) return [];
      clauses.push(`p.project_id IN (${req.projectIds.map(() => '?').join(', ')})`);
      params.push(...req.projectIds);
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
