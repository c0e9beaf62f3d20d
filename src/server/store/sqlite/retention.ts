/**
 * SQLite implementation of RetentionStore. Expiring a call reuses the delete path's
 * bookkeeping: the call is first marked deleted, which the triggers journal exactly as a
 * `/calls/delete` does (stats cells, usage cells, latency bins, dirty threads), the derived
 * tables are refolded, and only then is the row removed, which the triggers ignore because the
 * row is no longer visible. So every rollup equals what it would be had the call never been
 * written (docs/operations/retention.md).
 */
import type { ExpiredCalls, ProjectRetention, RetentionRule, RetentionScope, RetentionStore } from '../RetentionStore.js';
import { refreshDerived } from './calls.js';
import { expireUnreferencedFiles } from './fileRefs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface RuleRow {
  scope: RetentionScope;
  key: string;
  days: number;
  updated_at: number;
  updated_by: string;
}

const fromRow = (r: RuleRow): RetentionRule => ({
  scope: r.scope,
  key: r.key,
  days: r.days,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

/**
 * The oldest calls of a project that started before the cutoff, by calls_by_start; soft-deleted
 * ones too, so their rows go as well. An end that never got its start (started_at NULL) is
 * not a call and is left alone.
 */
const DOOMED_SQL = 'SELECT id FROM calls WHERE project_id = ? AND started_at < ? ORDER BY started_at LIMIT ?';

const IDS = 'SELECT value FROM json_each(?)';

export class SqliteRetentionStore implements RetentionStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async getRule(req: { scope: RetentionScope; key: string }): Promise<RetentionRule | null> {
    const row = this.#db.get<RuleRow>('SELECT * FROM retention_rules WHERE scope = ? AND key = ?', [req.scope, req.key]);
    return row ? fromRow(row) : null;
  }

  async setRule(req: { scope: RetentionScope; key: string; days: number | null; updatedAt: number; updatedBy: string }): Promise<void> {
    if (req.days === null) {
      this.#db.run('DELETE FROM retention_rules WHERE scope = ? AND key = ?', [req.scope, req.key]);
      return;
    }
    this.#db.run(
      `INSERT INTO retention_rules (scope, key, days, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET days = excluded.days, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [req.scope, req.key, req.days, req.updatedAt, req.updatedBy],
    );
  }

  async listRules(): Promise<RetentionRule[]> {
    return this.#db.all<RuleRow>('SELECT * FROM retention_rules ORDER BY scope, key').map(fromRow);
  }

  async projectsInForce(): Promise<ProjectRetention[]> {
    return this.#db.all<ProjectRetention>(
      `SELECT p.project_id AS projectId, coalesce(pr.days, er.days) AS days,
              CASE WHEN pr.days IS NOT NULL THEN 'project' ELSE 'entity' END AS source
       FROM projects p
       LEFT JOIN retention_rules pr ON pr.scope = 'project' AND pr.key = p.project_id
       LEFT JOIN retention_rules er ON er.scope = 'entity' AND er.key = p.entity
       WHERE coalesce(pr.days, er.days) IS NOT NULL
       ORDER BY p.project_id`,
    );
  }

  async expireCalls(req: { projectId: string; before: number; limit: number; now: number }): Promise<ExpiredCalls> {
    const db = this.#db;
    return db.transaction(() => {
      const ids = db.all<{ id: string }>(DOOMED_SQL, [req.projectId, req.before, req.limit]).map((r) => r.id);
      if (ids.length === 0) return { calls: 0, feedback: 0, files: 0, fileBytes: 0 };
      const list = JSON.stringify(ids);
      // Marked deleted first: the triggers journal the change as for /calls/delete (see above).
      db.run(`UPDATE calls SET deleted_at = ? WHERE project_id = ? AND id IN (${IDS}) AND deleted_at IS NULL`, [
        req.now,
        req.projectId,
        list,
      ]);
      refreshDerived(db);
      const refs = JSON.stringify(ids.map((id) => `weave:///${req.projectId}/call/${id}`));
      // Annotation answers stay (they are the annotators' work, not the call's data).
      const feedback = db.run(
        `DELETE FROM feedback WHERE project_id = ? AND weave_ref IN (${IDS}) AND queue_id IS NULL AND annotation_ref IS NULL`,
        [req.projectId, refs],
      ).changes;
      db.run(`DELETE FROM monitor_inbox WHERE project_id = ? AND call_id IN (${IDS})`, [req.projectId, list]);
      // Files only these calls referred to (fileRefs.ts).
      const files = expireUnreferencedFiles(db, req.projectId, ids);
      // Their documents in the substring index (callSearch.ts), keyed by the rows' rowids.
      db.run(
        `DELETE FROM call_search WHERE rowid IN (SELECT rowid * 2 FROM calls WHERE project_id = ? AND id IN (${IDS})
          UNION ALL SELECT rowid * 2 + 1 FROM calls WHERE project_id = ? AND id IN (${IDS}))`,
        [req.projectId, list, req.projectId, list],
      );
      const calls = db.run(`DELETE FROM calls WHERE project_id = ? AND id IN (${IDS})`, [req.projectId, list]).changes;
      return { calls, feedback, files: files.files, fileBytes: files.bytes };
    });
  }
}
