/** SQLite implementation of MonitorsStore (tables monitor_inbox and monitored_projects, migration 14). */
import type { EndedBatch, MonitorJob, MonitorsStore } from '../MonitorsStore.js';
import { insertJob } from './jobs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** A batch is a prefix of the inbox: its last position and length. */
interface InboxCursor {
  upToSeq: number;
  count: number;
}

export class SqliteMonitorsStore implements MonitorsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** One batch: the oldest `limit` queued ended calls, across projects. */
  async pendingEnded(req: { limit: number; now: number }): Promise<EndedBatch[]> {
    const rows = this.#db.all<{ seq: number; project_id: string; call_id: string }>(
      'SELECT seq, project_id, call_id FROM monitor_inbox ORDER BY seq LIMIT ?',
      [req.limit],
    );
    if (rows.length === 0) return [];
    const cursor: InboxCursor = { upToSeq: rows[rows.length - 1]!.seq, count: rows.length };
    return [{ calls: rows.map((r) => ({ projectId: r.project_id, callId: r.call_id })), cursor: JSON.stringify(cursor) }];
  }

  async ackEnded(req: { batch: EndedBatch; jobs: MonitorJob[]; now: number }): Promise<boolean> {
    const { upToSeq, count } = JSON.parse(req.batch.cursor) as InboxCursor;
    // One write transaction: when fewer of the batch's calls are left, another server process
    // settled them (and queued their jobs), so this one writes nothing.
    return this.#db.transaction(() => {
      const left = this.#db.get<{ n: number }>('SELECT count(*) AS n FROM monitor_inbox WHERE seq <= ?', [upToSeq])!.n;
      if (left !== count) return false;
      for (const job of req.jobs) insertJob(this.#db, job);
      this.#db.run('DELETE FROM monitor_inbox WHERE seq <= ?', [upToSeq]);
      return true;
    });
  }

  async forgetProject(req: { projectId: string; monitorsUpTo: number }): Promise<void> {
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
