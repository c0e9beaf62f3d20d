/** SQLite implementation of JobsStore (table jobs, migration 8). Claims are single write transactions. */
import { fairOrder, JOB_RETENTION_DAYS, type ClaimRequest, type JobRecord, type JobsStore, type JobStatus } from '../JobsStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface Row {
  id: string;
  project_id: string;
  kind: string;
  payload: string;
  status: string;
  progress_done: number;
  progress_total: number | null;
  error: string | null;
  result: string | null;
  attempts: number;
  cancel_requested: number;
  owner: string | null;
  created_by: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  heartbeat_at: number | null;
}

const toRecord = (r: Row): JobRecord => ({
  id: r.id,
  projectId: r.project_id,
  kind: r.kind,
  payload: JSON.parse(r.payload),
  status: r.status as JobStatus,
  progressDone: r.progress_done,
  progressTotal: r.progress_total,
  error: r.error,
  result: r.result === null ? null : JSON.parse(r.result),
  attempts: r.attempts,
  cancelRequested: r.cancel_requested === 1,
  owner: r.owner,
  createdBy: r.created_by,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  heartbeatAt: r.heartbeat_at,
});

/** Queues a job inside the caller's transaction; an id already queued keeps its first job (JobsStore.enqueue). */
export function insertJob(db: SqliteDatabase, job: Parameters<JobsStore['enqueue']>[0]): void {
  db.run(`INSERT OR IGNORE INTO jobs (id, project_id, kind, payload, status, created_by, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)`, [
    job.id,
    job.projectId,
    job.kind,
    JSON.stringify(job.payload),
    job.createdBy,
    job.createdAt,
  ]);
}

const DAY = 86_400_000_000;

export class SqliteJobsStore implements JobsStore {
  readonly #db: SqliteDatabase;
  /** When finished jobs past their retention were last deleted: at most hourly, as jobs finish. */
  #sweptAt = -Infinity;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async enqueue(job: {
    id: string;
    projectId: string;
    kind: string;
    payload: Record<string, unknown>;
    createdBy: string;
    createdAt: number;
  }) {
    this.#db.transaction(() => insertJob(this.#db, job));
  }

  async claimNext(req: ClaimRequest): Promise<JobRecord | null> {
    // Nothing to claim (the usual case of a poll): answered by a read, without the write lock,
    // which another process may hold for seconds (the writer would wait out the busy timeout).
    const claimable = this.#db.get(`SELECT 1 FROM jobs WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < ?) LIMIT 1`, [
      req.staleBefore,
    ]);
    if (!claimable) return null;
    return this.#db.transaction(() => {
      // A stale job out of attempts is failed with the reason, so it is never left "running".
      this.#db.run(
        `UPDATE jobs SET status = 'failed', finished_at = ?, owner = NULL,
           error = 'Interrupted ' || attempts || ' time(s) by a server restart or crash (it may have caused it); not retried again'
         WHERE status = 'running' AND heartbeat_at < ? AND attempts >= ?`,
        [req.now, req.staleBefore, req.maxAttempts],
      );
      // A stale job whose cancellation was asked for is cancelled rather than resumed.
      this.#db.run(
        `UPDATE jobs SET status = 'cancelled', finished_at = ?, owner = NULL, error = 'Cancelled'
         WHERE status = 'running' AND heartbeat_at < ? AND cancel_requested = 1`,
        [req.now, req.staleBefore],
      );
      const running = new Map(
        this.#db
          .all<{ project_id: string; n: number }>(
            `SELECT project_id, count(*) AS n FROM jobs WHERE status = 'running' AND heartbeat_at >= ? GROUP BY project_id`,
            [req.staleBefore],
          )
          .map((r) => [r.project_id, r.n]),
      );
      // Each project's oldest claimable job; fairness picks among them.
      const heads = this.#db.all<{ id: string; project_id: string; created_at: number }>(
        `SELECT id, project_id, created_at FROM (
           SELECT id, project_id, created_at, row_number() OVER (PARTITION BY project_id ORDER BY created_at, id) AS n FROM jobs
           WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < ?)
         ) WHERE n = 1`,
        [req.staleBefore],
      );
      const [next] = fairOrder(
        heads.map((h) => ({ id: h.id, projectId: h.project_id, createdAt: h.created_at })),
        running,
        req.maxRunningPerProject,
      );
      if (!next) return null;
      this.#db.run(
        `UPDATE jobs SET status = 'running', owner = ?, attempts = attempts + 1, started_at = coalesce(started_at, ?), heartbeat_at = ?
         WHERE id = ?`,
        [req.owner, req.now, req.now, next.id],
      );
      return toRecord(this.#db.get<Row>('SELECT * FROM jobs WHERE id = ?', [next.id])!);
    });
  }

  async countOpen(req: { projectId?: string }): Promise<number> {
    if (req.projectId === undefined)
      return this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')`)!.n;
    return this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE project_id = ? AND status IN ('queued', 'running')`, [
      req.projectId,
    ])!.n;
  }

  async heartbeat(req: { id: string; owner: string; now: number }): Promise<{ cancelRequested: boolean; owned: boolean }> {
    return this.#db.transaction(() => {
      const changed = this.#db.run(`UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND owner = ? AND status = 'running'`, [
        req.now,
        req.id,
        req.owner,
      ]).changes;
      const row = this.#db.get<{ cancel_requested: number }>('SELECT cancel_requested FROM jobs WHERE id = ?', [req.id]);
      return { cancelRequested: row?.cancel_requested === 1, owned: changed > 0 };
    });
  }

  async setProgress(req: { id: string; owner: string; done: number; total: number | null }): Promise<void> {
    this.#db.transaction(() =>
      this.#db.run(`UPDATE jobs SET progress_done = ?, progress_total = ? WHERE id = ? AND owner = ?`, [
        req.done,
        req.total,
        req.id,
        req.owner,
      ]),
    );
  }

  async finish(req: {
    id: string;
    owner: string;
    status: 'succeeded' | 'failed' | 'cancelled';
    error: string | null;
    result: unknown;
    now: number;
  }) {
    this.#db.transaction(() =>
      this.#db.run(
        `UPDATE jobs SET status = ?, error = ?, result = ?, finished_at = ?, owner = NULL WHERE id = ? AND owner = ? AND status = 'running'`,
        [req.status, req.error, req.result === undefined ? null : JSON.stringify(req.result), req.now, req.id, req.owner],
      ),
    );
    if (req.now - this.#sweptAt < DAY / 24) return;
    this.#sweptAt = req.now;
    this.#db.transaction(() => this.#db.run('DELETE FROM jobs WHERE finished_at < ?', [req.now - JOB_RETENTION_DAYS * DAY]));
  }

  async release(req: { id: string; owner: string }): Promise<void> {
    this.#db.transaction(() =>
      this.#db.run(
        `UPDATE jobs SET status = 'queued', owner = NULL, heartbeat_at = NULL, attempts = max(attempts - 1, 0)
         WHERE id = ? AND owner = ? AND status = 'running'`,
        [req.id, req.owner],
      ),
    );
  }

  async requestCancel(req: { projectId: string; id: string; now: number }): Promise<JobRecord | null> {
    return this.#db.transaction(() => {
      this.#db.run(
        `UPDATE jobs SET status = 'cancelled', finished_at = ?, error = 'Cancelled' WHERE project_id = ? AND id = ? AND status = 'queued'`,
        [req.now, req.projectId, req.id],
      );
      this.#db.run(`UPDATE jobs SET cancel_requested = 1 WHERE project_id = ? AND id = ? AND status = 'running'`, [req.projectId, req.id]);
      const row = this.#db.get<Row>('SELECT * FROM jobs WHERE project_id = ? AND id = ?', [req.projectId, req.id]);
      return row ? toRecord(row) : null;
    });
  }

  async getJob(req: { projectId: string; id: string }): Promise<JobRecord | null> {
    const row = this.#db.get<Row>('SELECT * FROM jobs WHERE project_id = ? AND id = ?', [req.projectId, req.id]);
    return row ? toRecord(row) : null;
  }

  async listJobs(req: { projectId: string; kind?: string | null; limit: number }): Promise<JobRecord[]> {
    const rows = req.kind
      ? this.#db.all<Row>('SELECT * FROM jobs WHERE project_id = ? AND kind = ? ORDER BY created_at DESC LIMIT ?', [
          req.projectId,
          req.kind,
          req.limit,
        ])
      : this.#db.all<Row>('SELECT * FROM jobs WHERE project_id = ? ORDER BY created_at DESC LIMIT ?', [req.projectId, req.limit]);
    return rows.map(toRecord);
  }
}
