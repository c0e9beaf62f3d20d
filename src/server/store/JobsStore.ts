/**
 * The background-job part of the storage seam (see Store.ts): the durable queue the job runner
 * (jobs/JobRunner.ts) works from. A job is `queued`, then `running` under one owner (a server
 * process) that keeps `heartbeatAt` fresh, then `succeeded`, `failed` or `cancelled`. A running
 * job whose heartbeat went stale lost its process (a restart, a crash): the next claim takes it
 * over (resumes it) until it has been tried `maxAttempts` times, and then it is failed with the
 * reason — never left running or dropped silently.
 *
 * Claims are fair across tenants (docs/security/bounded-work.md): the next job is taken from the
 * entity, then the project, with the fewest jobs running, oldest first within it, and a project
 * already running `maxRunningPerProject` jobs gets none — so one tenant's queue of slow jobs
 * never holds another tenant's work back for longer than one job.
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

export interface ClaimRequest {
  owner: string;
  now: number;
  staleBefore: number;
  maxAttempts: number;
  maxRunningPerProject?: number;
}

/** A job a claim may consider, with what fairness orders it by. */
export interface ClaimCandidate {
  id: string;
  projectId: string;
  createdAt: number;
}

/** The entity of a project id (`entity/project`). */
export const entityOf = (projectId: string): string => projectId.slice(0, Math.max(0, projectId.indexOf('/')));

/**
 * Orders claimable jobs fairly, given the jobs running (not stale) per project: fewest running in
 * the entity, then in the project, then oldest; drops projects at `maxRunningPerProject`.
 */
export function fairOrder<C extends ClaimCandidate>(claimable: C[], running: Map<string, number>, maxRunningPerProject?: number): C[] {
  const byEntity = new Map<string, number>();
  for (const [p, n] of running) byEntity.set(entityOf(p), (byEntity.get(entityOf(p)) ?? 0) + n);
  const cap = maxRunningPerProject ?? Infinity;
  const key = (c: C) => [byEntity.get(entityOf(c.projectId)) ?? 0, running.get(c.projectId) ?? 0, c.createdAt] as const;
  return claimable
    .filter((c) => (running.get(c.projectId) ?? 0) < cap)
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
}

/**
 * How long a finished job is kept (the jobs list shows it): ClickHouse by TTL (its migration 20),
 * SQLite by deleting older ones as jobs finish.
 */
export const JOB_RETENTION_DAYS = 30;

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
   * Atomically takes the next claimable job for `owner` (see the fairness rule above): a queued
   * one, or a running one whose heartbeat is older than `staleBefore` (its process is gone).
   * Stale jobs already tried `maxAttempts` times are failed instead. Null when there is nothing
   * to do. Without `maxRunningPerProject` no project is held back.
   */
  claimNext(req: ClaimRequest): Promise<JobRecord | null>;
  /** Jobs of the project queued or running (what its queue cap counts); without a project, of every project (`/metrics`). */
  countOpen(req: { projectId?: string }): Promise<number>;
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
  /**
   * Hands a running job back to the queue after a graceful stop interrupted it: queued again at
   * once, the interrupted claim not counted as an attempt. Only the owner's claim is released.
   * Optional: without it the job is resumed once its heartbeat is stale, as after a crash.
   */
  release?(req: { id: string; owner: string }): Promise<void>;
  /** Cancels a queued job at once, or flags a running one; answers the job after the change (null when unknown). */
  requestCancel(req: { projectId: string; id: string; now: number }): Promise<JobRecord | null>;
  getJob(req: { projectId: string; id: string }): Promise<JobRecord | null>;
  listJobs(req: { projectId: string; kind?: string | null; limit: number }): Promise<JobRecord[]>;
}
