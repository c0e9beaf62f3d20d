/**
 * The durable job runner: background work (evaluate_model, calls/score, monitors) taken from
 * the jobs table (store/JobsStore.ts), at most `concurrency` at a time per server process.
 *
 * - Durable: a job is a row before the request that made it is answered. Its owner renews a
 *   heartbeat; when a process dies (restart, crash, kill -9) its jobs' heartbeats go stale and
 *   the next claim — by this process after a restart, or by a sibling worker — resumes them.
 *   After `maxAttempts` interrupted runs a job is failed with that reason: never lost silently.
 *   Handlers are written to resume: they skip work already stored.
 * - Cancellable: cancelling flags the row; the heartbeat sees the flag and aborts the handler's
 *   signal (upstream model requests included), and the job ends `cancelled`.
 * - Progress: handlers report rows done of total, stored on the row for the dashboard.
 * - Fair: a project runs at most `maxRunningPerProject` jobs at once (across processes), claims
 *   go to the entity and project with the fewest running (store/JobsStore.ts), and a project
 *   holds at most `maxQueuedPerProject` unfinished jobs (docs/security/bounded-work.md).
 * - A graceful stop aborts running handlers without finishing their rows and hands them back
 *   to the queue (JobsStore.release, on both backends), uncounted as an attempt, so the next
 *   start or another replica resumes them at once instead of waiting for a stale heartbeat.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import { uuidv7 } from '../core/ids.js';
import { TooManyRequestsError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { JobRecord } from '../store/JobsStore.js';
import type { Store } from '../store/Store.js';
import { metrics } from '../metrics/hooks.js';

export interface JobContext {
  /** Aborted when the job is cancelled or the server stops. */
  signal: AbortSignal;
  /** Records progress (done of total). */
  progress(done: number, total: number | null): Promise<void>;
}

/** Runs one job; its answer is stored as the job's result. Throwing fails the job with the message. */
export type JobHandler = (job: JobRecord, ctx: JobContext) => Promise<unknown>;

export interface JobRunnerOptions {
  store: Store;
  log: Logger;
  handlers: Record<string, JobHandler>;
  concurrency: number;
  /** A heartbeat older than this means the owner is gone. */
  staleMs: number;
  /** Claims of a job before one whose process died is failed rather than resumed. */
  maxAttempts?: number;
  /** Jobs of one project running at once (WEFT_JOB_PROJECT_CONCURRENCY); none: no cap. */
  maxRunningPerProject?: number;
  /** Unfinished jobs one project may hold (WEFT_JOB_PROJECT_QUEUE); an enqueue past it is refused with 429. */
  maxQueuedPerProject?: number;
  /** How often runners look for work another process queued, while there is work about. */
  pollMs?: number;
  /**
   * The longest wait between looks while idle (default 30 × pollMs): each look that finds
   * nothing doubles the wait up to this, and a job queued here or found resets it.
   */
  maxIdlePollMs?: number;
  /** Stamps jobs, claims and heartbeats: the services clock (the system clock when absent). */
  clock?: Clock;
}

const CANCELLED = 'cancelled';
/** When a client told the queue is full may try again. */
const QUEUE_FULL_RETRY_SECONDS = 30;
const STOPPING = 'stopping';

export class JobRunner {
  readonly owner = `${process.pid}-${randomUUID()}`;
  readonly #options: Required<Omit<JobRunnerOptions, 'maxRunningPerProject' | 'maxQueuedPerProject'>> &
    Pick<JobRunnerOptions, 'maxRunningPerProject' | 'maxQueuedPerProject'>;
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #timer: NodeJS.Timeout | null = null;
  /** The wait before the next look for work: pollMs while busy, growing while idle. */
  #idleMs = 0;
  #stopped = true;
  /** The claim loop in flight, if any. */
  #filling: Promise<void> | null = null;
  /** Work was queued here while a claim loop ran: look again once it ends. */
  #rekick = false;

  constructor(options: JobRunnerOptions) {
    const pollMs = options.pollMs ?? Math.min(1000, options.staleMs);
    this.#options = { maxAttempts: 2, clock: systemClock, ...options, pollMs, maxIdlePollMs: options.maxIdlePollMs ?? 30 * pollMs };
    this.#idleMs = pollMs;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.kick();
  }

  /**
   * The next look for work. An idle replica backs off (a claim on ClickHouse reads the open jobs
   * with FINAL), so idle replicas cost the engine next to nothing; work queued on this process
   * kicks it at once, and work queued on another is found within maxIdlePollMs
   * (docs/clickhouse.md "Quiet when idle").
   */
  #schedule(foundWork: boolean): void {
    if (this.#stopped) return;
    const { pollMs, maxIdlePollMs } = this.#options;
    this.#idleMs = foundWork ? pollMs : Math.min(maxIdlePollMs, this.#idleMs * 2);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#look(false), foundWork ? pollMs : this.#idleMs);
    this.#timer.unref();
  }

  /** The wait before the next look while nothing happens (`/metrics`, tests). */
  get idlePollMs(): number {
    return this.#idleMs;
  }

  /** Queues a job and starts it when a slot is free; answers its id. */
  async enqueue(job: {
    projectId: string;
    kind: string;
    payload: Record<string, unknown>;
    createdBy: string;
    id?: string;
  }): Promise<string> {
    if (!this.#options.handlers[job.kind]) throw new Error(`No handler for job kind ${job.kind}`);
    const cap = this.#options.maxQueuedPerProject;
    if (cap !== undefined && (await this.#options.store.jobs.countOpen({ projectId: job.projectId })) >= cap) {
      throw new TooManyRequestsError(
        `Project ${job.projectId} already has ${cap} background jobs queued or running; the limit is ${cap} (WEFT_JOB_PROJECT_QUEUE). Wait for some to finish or cancel them (/weft/jobs).`,
        QUEUE_FULL_RETRY_SECONDS,
      );
    }
    const id = job.id ?? uuidv7();
    await this.#options.store.jobs.enqueue({ ...job, id, createdAt: this.#options.clock.nowMicros() });
    this.kick();
    return id;
  }

  /** Jobs this process runs now (`/metrics`). */
  get running(): number {
    return this.#running.size;
  }

  /** Looks for claimable jobs now (work was queued here): the idle back-off starts over. */
  kick(): void {
    this.#look(true);
  }

  #look(woken: boolean): void {
    if (this.#stopped) return;
    if (this.#filling) {
      if (woken) this.#rekick = true;
      return;
    }
    let claimed = 0;
    this.#filling = this.#fill(() => claimed++)
      .catch((err) => this.#options.log.error('job runner: claiming failed', err))
      .finally(() => {
        this.#filling = null;
        const again = this.#rekick;
        this.#rekick = false;
        // Work about (a job claimed, running, or queued here meanwhile): look again soon.
        this.#schedule(woken || again || claimed > 0 || this.#running.size > 0);
        if (again) this.#look(true);
      });
  }

  /** Stops claiming; running handlers are aborted and left for the next start to resume. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    // A claim in flight (an asynchronous store answers later) may still start a job: wait for
    // it, so that job is aborted with the others and the store is not used after stop.
    await this.#filling;
    for (const { controller } of this.#running.values()) controller.abort(STOPPING);
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  async #fill(claimed: () => void): Promise<void> {
    while (!this.#stopped && this.#running.size < this.#options.concurrency) {
      const now = this.#options.clock.nowMicros();
      const job = await this.#options.store.jobs.claimNext({
        owner: this.owner,
        now,
        staleBefore: now - this.#options.staleMs * 1000,
        maxAttempts: this.#options.maxAttempts,
        ...(this.#options.maxRunningPerProject ? { maxRunningPerProject: this.#options.maxRunningPerProject } : {}),
      });
      if (!job) return;
      claimed();
      const controller = new AbortController();
      const done = this.#run(job, controller).finally(() => {
        this.#running.delete(job.id);
        this.kick();
      });
      this.#running.set(job.id, { controller, done });
    }
  }

  async #run(job: JobRecord, controller: AbortController): Promise<void> {
    const { store } = this.#options;
    // Every line about the job names it, so its story can be followed in the logs.
    const log = this.#options.log.child({ job_id: job.id, job_kind: job.kind });
    const beat = setInterval(
      () => {
        store.jobs.heartbeat({ id: job.id, owner: this.owner, now: this.#options.clock.nowMicros() }).then(
          ({ cancelRequested, owned }) => {
            if (cancelRequested) controller.abort(CANCELLED);
            else if (!owned) controller.abort(STOPPING);
          },
          (err) => log.warn(`job runner: heartbeat of job ${job.id} failed: ${String(err)}`),
        );
      },
      Math.max(50, Math.floor(this.#options.staleMs / 4)),
    );
    beat.unref();
    const handler = this.#options.handlers[job.kind];
    try {
      if (job.cancelRequested) controller.abort(CANCELLED);
      if (!handler) throw new Error(`This server cannot run jobs of kind ${job.kind}`);
      const result = await handler(job, {
        signal: controller.signal,
        progress: (done, total) => store.jobs.setProgress({ id: job.id, owner: this.owner, done, total }),
      });
      if (controller.signal.reason === STOPPING) return await this.#handBack(job);
      const cancelled = controller.signal.reason === CANCELLED;
      await store.jobs.finish({
        id: job.id,
        owner: this.owner,
        status: cancelled ? 'cancelled' : 'succeeded',
        error: cancelled ? 'Cancelled' : null,
        result: result ?? null,
        now: this.#options.clock.nowMicros(),
      });
      log.info(`job ${job.id} (${job.kind}) ${cancelled ? 'cancelled' : 'succeeded'}`);
      metrics.jobEnded(job.kind, cancelled ? 'cancelled' : 'succeeded');
    } catch (err) {
      if (controller.signal.reason === STOPPING) return await this.#handBack(job);
      const cancelled = controller.signal.reason === CANCELLED;
      if (!cancelled) log.warn(`job ${job.id} (${job.kind}) failed: ${String(err)}`);
      metrics.jobEnded(job.kind, cancelled ? 'cancelled' : 'failed');
      await store.jobs
        .finish({
          id: job.id,
          owner: this.owner,
          status: cancelled ? 'cancelled' : 'failed',
          error: cancelled ? 'Cancelled' : (err as Error).message || String(err),
          result: null,
          now: this.#options.clock.nowMicros(),
        })
        .catch((e) => log.error(`job runner: could not record the failure of job ${job.id}`, e));
    } finally {
      clearInterval(beat);
    }
  }

  /** A job a stop interrupted goes back to the queue, for the next start (or a sibling) to resume. */
  async #handBack(job: JobRecord): Promise<void> {
    if (!this.#stopped) return;
    await this.#options.store.jobs
      .release?.({ id: job.id, owner: this.owner })
      .catch((err) => this.#options.log.warn(`job runner: could not hand job ${job.id} back: ${String(err)}`));
  }
}
