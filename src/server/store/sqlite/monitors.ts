/** SQLite implementation of MonitorsStore (tables monitor_inbox and monitored_projects, migration 14). */
import { InboxTakenError, type EndedCall, type MonitorsStore } from '../MonitorsStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

export class SqliteMonitorsStore implements MonitorsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async pendingEnded(req: { limit: number }): Promise<EndedCall[]> {
    return this.#db
      .all<{ seq: number; project_id: string; call_id: string }>(
        'SELECT seq, project_id, call_id FROM monitor_inbox ORDER BY seq LIMIT ?',
        [req.limit],
      )
      .map((r) => ({ seq: r.seq, projectId: r.project_id, callId: r.call_id }));
  }

  async ackEnded(req: { upToSeq: number; count: number }): Promise<void> {
    this.#db.transaction(() => {
      if (this.#db.run('DELETE FROM monitor_inbox WHERE seq <= ?', [req.upToSeq]).changes !== req.count) throw new InboxTakenError();
    });
  }

  async forgetProject(req: { projectId: string }): Promise<void> {
    // Only when no live, active Monitor version is latest, checked in the same statement so a
    // monitor activated meanwhile keeps its project (its insert re-adds the row anyway).
    this.#db.transaction(() =>
      this.#db.run(
        `DELETE FROM monitored_projects WHERE project_id = ? AND NOT EXISTS (
           SELECT 1 FROM objects WHERE project_id = ? AND leaf_object_class = 'Monitor' AND is_latest = 1
             AND deleted_at IS NULL AND json_extract(val, '$.active') = 1)`,
        [req.projectId, req.projectId],
      ),
    );
  }
}
