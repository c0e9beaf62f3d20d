/**
 * The background-job part of the storage seam (see Store.ts): the durable queue the job runner
 * (jobs/JobRunner.ts) works from. A job is `queued`, then `running` under one owner (a server
 * process) that keeps `heartbeatAt` fresh, then `succeeded`, `failed` or `cancelled`. A running
 * job whose heartbeat went stale lost its process (a restart, a crash): the next claim takes it
 * over (resumes it) until it has been tried `maxAttempts` times, and then it is failed with the
 * reason — never left running or dropped silently.
 *
 * Claims, takeovers, finishes and cancels of one job exclude each other on every backend: two
 * processes racing for a job never both win (SQLite: one write transaction; ClickHouse: a
 * consensus slot per transition, clickhouse/jobs.ts).
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRecord {
  id: string;
  projectId: string;
  kind: string;
  payload: Record<string, unknown>;
  status: JobStatus;
  progressDone: number;
  progressTotal: number | null;
  error: string | null;
  result: unknown;
  attempts: number;
  cancelRequested: boolean;
  owner: string | null;
  createdBy: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  heartbeatAt: number | null;
}

export interface JobsStore {
  /**
   * Queues a job. An id names one job: enqueueing an id that exists changes nothing (a retry, or
   * a monitor batch applied again by another process, collapses into the first).
   */
  enqueue(job: {
    id: string;
    projectId: string;
    kind: string;
    payload: Record<string, unknown>;
    createdBy: string;
    createdAt: number;
  }): Promise<void>;
  /**
   * Atomically takes the oldest claimable job for `owner`: a queued one, or a running one whose
   * heartbeat is older than `staleBefore` (its process is gone). Stale jobs already tried
   * `maxAttempts` times are failed instead. Null when there is nothing to do.
   */
  claimNext(req: { owner: string; now: number; staleBefore: number; maxAttempts: number }): Promise<JobRecord | null>;
  /** Keeps the owner's claim alive; answers whether cancellation was asked for (false when the claim was lost). */
  heartbeat(req: { id: string; owner: string; now: number }): Promise<{ cancelRequested: boolean; owned: boolean }>;
  setProgress(req: { id: string; owner: string; done: number; total: number | null }): Promise<void>;
  finish(req: {
    id: string;
    owner: string;
    status: 'succeeded' | 'failed' | 'cancelled';
    error: string | null;
    result: unknown;
    now: number;
  }): Promise<void>;
  /** Cancels a queued job at once, or flags a running one; answers the job after the change (null when unknown). */
  requestCancel(req: { projectId: string; id: string; now: number }): Promise<JobRecord | null>;
  getJob(req: { projectId: string; id: string }): Promise<JobRecord | null>;
  listJobs(req: { projectId: string; kind?: string | null; limit: number }): Promise<JobRecord[]>;
}
