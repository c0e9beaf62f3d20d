/**
 * ClickHouse implementation of JobsStore (tables of migrations/v05JobsMonitorSweeps.ts).
 *
 * SQLite claims a job in one write transaction. ClickHouse has no row locks, and the job
 * runners of several replicas claim at the same time, so a job here is a log of transitions
 * decided one slot at a time (consensus.ts): slot 1 is what happened to the queued job, slot
 * k+1 what happened to the job as slot k left it. A transition is one of
 *   claim      (queued, or running with a stale heartbeat → running under a new owner),
 *   succeeded / failed / cancelled (the owner finishing; a stale job out of attempts failed;
 *              a stale job with a cancel request cancelled; a queued job cancelled),
 *   released   (the owner handing its claim back at a graceful stop: queued again, that claim
 *              not counted as an attempt, as SQLite's `release`).
 * Everything that competes for a job competes for the same slot: two claimers, a claimer and
 * the old owner finishing, a claimer and a cancel. Exactly one proposal per slot is stored, so
 * two processes racing can never both win a claim, and an owner whose job was taken over
 * cannot finish it afterwards (its finish is a proposal for a slot already decided) — the
 * same outcomes as SQLite's `WHERE owner = ?` updates.
 *
 * The job's state is derived at read time from its decided slots: status from the last one,
 * attempts = claims less releases, owner = the last claim's while it is the last slot. Owner-only marks
 * (heartbeats, progress) are rows keyed by the claim's slot, written only while that claim is
 * the last decided slot; a cancel request is a flag row. Compared with SQLite, said out loud:
 * - `heartbeat` and `setProgress` check ownership, then write: an owner taken over in between
 *   learns it at its next heartbeat (one interval later), not at this one. Its late mark is
 *   keyed by its own, superseded claim, so it never keeps the new claim alive.
 * - Progress of a claim that was taken over shows until the new owner reports its own.
 * - A claim scans the open jobs only (`jobs_open`): the process that decides a job's final
 *   transition closes it there. A crash between the two leaves a finished job in the scan, where
 *   its decided slots still show it finished; nothing else depends on the mark.
 */
import { fairOrder, type ClaimRequest, type JobRecord, type JobsStore, type JobStatus } from '../JobsStore.js';
import { num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';
import { proposeSlot, type SlotRef } from './consensus.js';

type Enqueued = Parameters<JobsStore['enqueue']>[0];

/** The decided transition of every slot in `scope`, folded per job. */
const slotStateSql = (scope: string) => `
  SELECT job_id,
    max(slot) AS last_slot,
    argMax(t.1, slot) AS last_action,
    argMax(t.2, slot) AS last_owner,
    argMax(t.3, slot) AS last_at,
    argMax(t.4, slot) AS last_error,
    argMax(t.5, slot) AS last_result,
    countIf(t.1 = 'claim') - countIf(t.1 = 'released') AS attempts,
    countIf(t.1 = 'claim') AS claims,
    minIf(t.3, t.1 = 'claim') AS first_claim_at,
    maxIf(slot, t.1 = 'claim') AS claim_slot,
    argMaxIf(t.3, slot, t.1 = 'claim') AS claim_at
  FROM (
    SELECT job_id, slot, argMin((action, owner, at, error, result), (decided_at, token)) AS t
    FROM job_slots WHERE ${scope} GROUP BY job_id, slot
  )
  GROUP BY job_id`;

interface StateRow {
  last_slot: number | null;
  last_action: string | null;
  last_owner: string | null;
  last_at: string | null;
  last_error: string | null;
  last_result: string | null;
  attempts: string | null;
  claims: string | null;
  first_claim_at: string | null;
  claim_at: string | null;
}

interface JobRow extends StateRow {
  id: string;
  project_id: string;
  kind: string;
  payload: string;
  created_by: string;
  created_at: string;
  beat_at: string | null;
  progress_done: string | null;
  progress_total: string | null;
  cancels: string | null;
}

/** Every column of the jobs in `ids` (all of them in one project). */
const JOBS_SQL = `
  SELECT j.id AS id, j.project_id AS project_id, j.kind AS kind, j.payload AS payload, j.created_by AS created_by,
    j.created_at AS created_at, s.last_slot AS last_slot, s.last_action AS last_action, s.last_owner AS last_owner,
    s.last_at AS last_at, s.last_error AS last_error, s.last_result AS last_result, s.attempts AS attempts, s.claims AS claims,
    s.first_claim_at AS first_claim_at, s.claim_at AS claim_at, h.at AS beat_at,
    pr.done AS progress_done, pr.total AS progress_total, c.n AS cancels
  FROM (SELECT * FROM jobs FINAL WHERE project_id = {p:String} AND id IN {ids:Array(String)}) AS j
  LEFT JOIN (${slotStateSql('job_id IN {ids:Array(String)}')}) AS s ON s.job_id = j.id
  LEFT JOIN (
    SELECT job_id, slot, max(at) AS at FROM job_heartbeats WHERE job_id IN {ids:Array(String)} GROUP BY job_id, slot
  ) AS h ON h.job_id = j.id AND h.slot = s.claim_slot
  LEFT JOIN (
    SELECT job_id, argMax(done, (slot, version)) AS done, argMax(total, (slot, version)) AS total
    FROM job_progress WHERE job_id IN {ids:Array(String)} GROUP BY job_id
  ) AS pr ON pr.job_id = j.id
  LEFT JOIN (SELECT job_id, count() AS n FROM job_cancels WHERE job_id IN {ids:Array(String)} GROUP BY job_id) AS c ON c.job_id = j.id`;

/** The jobs not known to be finished (enqueue writes them, the final transition's decider closes them). */
const OPEN_SQL = 'SELECT job_id, project_id FROM jobs_open FINAL';

/**
 * The open jobs `{ids}` (in projects `{ps}`) a claim weighs: queued ones, and running ones with
 * `stale` = 1 when their heartbeat is older than `{stale}` (claimable) and 0 when their owner is
 * alive (counted against their project's share).
 */
const CANDIDATES_SQL = `
  SELECT j.id AS id, j.project_id AS project_id, j.created_at AS created_at, ifNull(s.last_slot, 0) AS last_slot,
    s.last_action AS last_action, ifNull(s.attempts, 0) AS attempts, ifNull(c.n, 0) AS cancels,
    s.last_action = 'claim' AND greatest(s.claim_at, ifNull(h.at, s.claim_at)) < {stale:Int64} AS stale
  FROM (SELECT id, project_id, created_at FROM jobs FINAL WHERE project_id IN {ps:Array(String)} AND id IN {ids:Array(String)}) AS j
  LEFT JOIN (${slotStateSql('job_id IN {ids:Array(String)}')}) AS s ON s.job_id = j.id
  LEFT JOIN (
    SELECT job_id, slot, max(at) AS at FROM job_heartbeats WHERE job_id IN {ids:Array(String)} GROUP BY job_id, slot
  ) AS h ON h.job_id = j.id AND h.slot = s.claim_slot
  LEFT JOIN (SELECT job_id, count() AS n FROM job_cancels WHERE job_id IN {ids:Array(String)} GROUP BY job_id) AS c
    ON c.job_id = j.id
  WHERE s.last_action IS NULL OR s.last_action IN ('claim', 'released')`;

interface Candidate {
  id: string;
  project_id: string;
  created_at: string;
  last_slot: number;
  last_action: string | null;
  attempts: string;
  cancels: string;
  stale: number | null;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

function toRecord(r: JobRow): JobRecord {
  const action = r.last_action;
  const terminal = action !== null && TERMINAL.has(action);
  const attempts = num(r.attempts ?? 0);
  const claimed = num(r.claims ?? 0) > 0;
  const claimAt = action === 'claim' ? num(r.claim_at) : null;
  const beatAt = numOrNull(r.beat_at);
  return {
    id: r.id,
    projectId: r.project_id,
    kind: r.kind,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    status: (action === null || action === 'released' ? 'queued' : action === 'claim' ? 'running' : action) as JobStatus,
    progressDone: num(r.progress_done ?? 0),
    progressTotal: numOrNull(r.progress_total),
    error: terminal ? r.last_error : null,
    result: terminal && r.last_result !== null ? JSON.parse(r.last_result) : null,
    attempts,
    cancelRequested: num(r.cancels ?? 0) > 0,
    owner: action === 'claim' ? r.last_owner : null,
    createdBy: r.created_by,
    createdAt: num(r.created_at),
    startedAt: claimed ? num(r.first_claim_at) : null,
    finishedAt: terminal ? num(r.last_at) : null,
    heartbeatAt: claimAt === null ? null : Math.max(claimAt, beatAt ?? claimAt),
  };
}

const slotRef = (jobId: string, slot: number): SlotRef => ({ table: 'job_slots', keyColumn: 'job_id', key: jobId, slot });

/** How many claim rounds one `claimNext` makes when every candidate it tried was taken by others. */
const CLAIM_ROUNDS = 5;
const CANDIDATES_PER_ROUND = 8;

export class ClickHouseJobsStore implements JobsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async enqueue(job: Enqueued): Promise<void> {
    await this.enqueueAll([job]);
  }

  /** Queues several jobs in one block (all or none); ids already queued collapse into the first. */
  async enqueueAll(jobs: Enqueued[]): Promise<void> {
    if (jobs.length === 0) return;
    // Open first: a crash in between leaves an open mark without a job, which claims skip; the
    // other way round would leave a job no claim ever sees.
    await this.#db.insert(
      'jobs_open',
      jobs.map((j) => ({ job_id: j.id, project_id: j.projectId, version: 0, is_deleted: 0 })),
    );
    await this.#db.insert(
      'jobs',
      jobs.map((j) => ({
        project_id: j.projectId,
        id: j.id,
        kind: j.kind,
        payload: JSON.stringify(j.payload),
        created_by: j.createdBy,
        created_at: j.createdAt,
      })),
    );
  }

  async claimNext(req: ClaimRequest): Promise<JobRecord | null> {
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const open = await this.#db.all<{ job_id: string; project_id: string }>(OPEN_SQL);
      if (open.length === 0) return null;
      const rows = await this.#db.all<Candidate>(CANDIDATES_SQL, {
        ids: open.map((o) => o.job_id),
        ps: [...new Set(open.map((o) => o.project_id))],
        stale: req.staleBefore,
      });
      const running = new Map<string, number>();
      const claimable: (Candidate & { projectId: string; createdAt: number })[] = [];
      for (const r of rows) {
        if (r.last_action === 'claim' && !num(r.stale ?? 0)) running.set(r.project_id, (running.get(r.project_id) ?? 0) + 1);
        else claimable.push({ ...r, projectId: r.project_id, createdAt: num(r.created_at) });
      }
      const candidates = fairOrder(claimable, running, req.maxRunningPerProject).slice(0, CANDIDATES_PER_ROUND);
      if (candidates.length === 0) return null;
      const cap = req.maxRunningPerProject ?? Infinity;
      for (const c of candidates) {
        // A slot lost in this project may have been a claim: counted as one, so a race cannot
        // put the project past its share.
        if ((running.get(c.project_id) ?? 0) >= cap) continue;
        const stale = c.last_action === 'claim';
        const attempts = num(c.attempts);
        // As SQLite: a stale job out of attempts is failed with the reason, a stale job whose
        // cancellation was asked for is cancelled; either way it is never left running.
        const transition =
          stale && attempts >= req.maxAttempts
            ? {
                action: 'failed',
                owner: '',
                error: `Interrupted ${attempts} time(s) by a server restart or crash (it may have caused it); not retried again`,
              }
            : stale && num(c.cancels) > 0
              ? { action: 'cancelled', owner: '', error: 'Cancelled' }
              : { action: 'claim', owner: req.owner, error: null };
        const { won } = await proposeSlot(this.#db, slotRef(c.id, c.last_slot + 1), { ...transition, at: req.now, result: null });
        // A lost slot was decided by another process (a claim, a finish, a cancel): back off.
        if (won && transition.action === 'claim') return this.getJob({ projectId: c.project_id, id: c.id });
        if (won) await this.#close(c.id);
        else running.set(c.project_id, (running.get(c.project_id) ?? 0) + 1);
      }
    }
    return null;
  }

  async countOpen(req: { projectId?: string }): Promise<number> {
    // The open marks of the project: a job finished by a process that crashed before closing it
    // still counts, until nothing else does (see the module comment).
    if (req.projectId === undefined) return num((await this.#db.get<{ n: string }>('SELECT count() AS n FROM jobs_open FINAL'))?.n ?? 0);
    const row = await this.#db.get<{ n: string }>('SELECT count() AS n FROM jobs_open FINAL WHERE project_id = {p:String}', {
      p: req.projectId,
    });
    return num(row?.n ?? 0);
  }

  async heartbeat(req: { id: string; owner: string; now: number }): Promise<{ cancelRequested: boolean; owned: boolean }> {
    const state = await this.#ownership(req.id, req.owner);
    if (state.slot !== null) await this.#db.insert('job_heartbeats', [{ job_id: req.id, slot: state.slot, at: req.now }]);
    return { cancelRequested: state.cancelRequested, owned: state.slot !== null };
  }

  async setProgress(req: { id: string; owner: string; done: number; total: number | null }): Promise<void> {
    const { slot } = await this.#ownership(req.id, req.owner);
    if (slot === null) return;
    // Only the slot's owner writes its progress, so this store's clock alone orders the rows.
    const version = this.#db.versions.next();
    await this.#db.insert('job_progress', [{ job_id: req.id, slot, done: req.done, total: req.total, version }]);
  }

  async finish(req: {
    id: string;
    owner: string;
    status: 'succeeded' | 'failed' | 'cancelled';
    error: string | null;
    result: unknown;
    now: number;
  }): Promise<void> {
    const { slot } = await this.#ownership(req.id, req.owner);
    if (slot === null) return;
    // Competes with a takeover of the same claim: if that was decided first, this finish is dropped.
    const { won } = await proposeSlot(this.#db, slotRef(req.id, slot + 1), {
      action: req.status,
      owner: '',
      at: req.now,
      error: req.error,
      result: req.result === undefined ? null : JSON.stringify(req.result),
    });
    if (won) await this.#close(req.id);
  }

  /**
   * The owner's claim handed back after a graceful stop (JobRunner): the next slot, so a
   * takeover decided first (the owner was thought dead) keeps the job, and this does nothing.
   */
  async release(req: { id: string; owner: string }): Promise<void> {
    const { slot } = await this.#ownership(req.id, req.owner);
    if (slot === null) return;
    await proposeSlot(this.#db, slotRef(req.id, slot + 1), { action: 'released', owner: '', at: 0, error: null, result: null });
  }

  async requestCancel(req: { projectId: string; id: string; now: number }): Promise<JobRecord | null> {
    const job = await this.getJob(req);
    if (!job) return null;
    if (job.status === 'queued') {
      // A queued job's next slot: 1, or the one after a released claim; unless a claim decided it first.
      const { won } = await proposeSlot(this.#db, slotRef(req.id, await this.#nextSlot(req.id)), {
        action: 'cancelled',
        owner: '',
        at: req.now,
        error: 'Cancelled',
        result: null,
      });
      if (won) {
        await this.#close(req.id);
        return this.getJob(req);
      }
      const now = await this.getJob(req);
      if (now?.status !== 'running') return now;
    } else if (job.status !== 'running') {
      return job;
    }
    // Running: flag it; its owner's heartbeat sees the flag and aborts the handler.
    await this.#db.insert('job_cancels', [{ job_id: req.id, requested_at: req.now }]);
    return this.getJob(req);
  }

  async getJob(req: { projectId: string; id: string }): Promise<JobRecord | null> {
    return (await this.#read(req.projectId, [req.id]))[0] ?? null;
  }

  async listJobs(req: { projectId: string; kind?: string | null; limit: number }): Promise<JobRecord[]> {
    const params: Params = { p: req.projectId, n: Math.max(0, Math.floor(req.limit)) };
    if (req.kind) params.k = req.kind;
    const ids = await this.#db.all<{ id: string }>(
      `SELECT id FROM jobs FINAL WHERE project_id = {p:String}${req.kind ? ' AND kind = {k:String}' : ''}
       ORDER BY created_at DESC, id DESC LIMIT {n:UInt32}`,
      params,
    );
    return this.#read(
      req.projectId,
      ids.map((r) => r.id),
    );
  }

  /** The jobs of `ids`, newest first, as records. */
  async #read(projectId: string, ids: string[]): Promise<JobRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.all<JobRow>(`${JOBS_SQL} ORDER BY created_at DESC, id DESC`, { p: projectId, ids });
    return rows.map(toRecord);
  }

  /** The slot after the job's last decided one (1 when none is). */
  async #nextSlot(id: string): Promise<number> {
    const row = await this.#db.get<{ n: string }>('SELECT max(slot) AS n FROM job_slots WHERE job_id = {id:String}', { id });
    return num(row?.n ?? 0) + 1;
  }

  /** Marks a job whose final transition this process decided, so claims stop scanning it. */
  async #close(id: string): Promise<void> {
    await this.#db.insert('jobs_open', [{ job_id: id, project_id: '', version: 1, is_deleted: 1 }]);
  }

  /** The slot of `owner`'s claim when it is the job's last decided transition (null otherwise), and the cancel flag. */
  async #ownership(id: string, owner: string): Promise<{ slot: number | null; cancelRequested: boolean }> {
    const row = await this.#db.get<{ last_slot: number | null; last_action: string | null; last_owner: string | null; cancels: string }>(
      `SELECT s.last_slot AS last_slot, s.last_action AS last_action, s.last_owner AS last_owner,
         (SELECT count() FROM job_cancels WHERE job_id = {id:String}) AS cancels
       FROM (${slotStateSql('job_id = {id:String}')}) AS s`,
      { id },
    );
    const owned = row?.last_action === 'claim' && row.last_owner === owner;
    return { slot: owned ? num(row.last_slot) : null, cancelRequested: num(row?.cancels ?? 0) > 0 };
  }
}
