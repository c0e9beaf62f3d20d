/**
 * ClickHouse implementation of ProjectsStore. Call counts and last activity are computed from
 * the merged calls at read time (about 25 ms per million calls), so nothing needs keeping in step.
 */
import type { ProjectsStore, ProjectSummary } from '../Store.js';
import { num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { STORAGE_SIZE_SQL } from './calls.js';
import { VISIBLE } from './callsQuery.js';

/** One sum over a project's rows (0 for none); tables and files join this as their stores land. */
const SIZE_SQL = {
  traces: `SELECT sum(${STORAGE_SIZE_SQL}) AS n FROM calls FINAL WHERE project_id = {p:String} AND deleted_at IS NULL`,
} as const;

export class ClickHouseProjectsStore implements ProjectsStore {
  readonly #db: ClickHouseDatabase;
  readonly #sizes: Record<string, string>;
  constructor(db: ClickHouseDatabase, sizes: Record<string, string> = {}) {
    this.#db = db;
    this.#sizes = { ...SIZE_SQL, ...sizes };
  }

  async storageStats(req: { projectId: string; traces: boolean; objects: boolean; tables: boolean; files: boolean }) {
    const size = async (part: 'traces' | 'objects' | 'tables' | 'files') => {
      const sql = this.#sizes[part];
      if (!req[part] || !sql) return 0;
      return num((await this.#db.get<{ n: string }>(sql, { p: req.projectId }))?.n ?? 0);
    };
    return {
      traces: await size('traces'),
      objects: await size('objects'),
      tables: await size('tables'),
      files: await size('files'),
    };
  }

  async createProject(projectId: string): Promise<void> {
    await this.#db.insert('projects', [{ project_id: projectId, entity: projectId.split('/')[0], created_at: Date.now() * 1000 }]);
  }

  async listProjects(req: { entities: string[] | 'all'; projectIds?: string[] | null }): Promise<ProjectSummary[]> {
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    if (req.entities !== 'all') {
      if (req.entities.length === 0) return [];
      clauses.push('entity IN {entities:Array(String)}');
      params.entities = req.entities;
    }
    if (req.projectIds) {
      if (req.projectIds.length === 0) return [];
      clauses.push('project_id IN {ids:Array(String)}');
      params.ids = req.projectIds;
    }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const rows = await this.#db.all<{ project_id: string; call_count: string; last_activity: string | null }>(
      `SELECT p.project_id AS project_id, ifNull(c.n, 0) AS call_count, c.last AS last_activity
       FROM (SELECT DISTINCT project_id FROM projects FINAL ${where}) AS p
       LEFT JOIN (
         SELECT project_id, count() AS n, max(started_at) AS last FROM calls FINAL
         WHERE ${VISIBLE} AND project_id IN (SELECT project_id FROM projects FINAL ${where})
         GROUP BY project_id
       ) AS c ON c.project_id = p.project_id
       ORDER BY last_activity DESC NULLS LAST, project_id`,
      params,
    );
    return rows.map((r) => ({ projectId: r.project_id, callCount: num(r.call_count), lastActivity: numOrNull(r.last_activity) }));
  }
}
