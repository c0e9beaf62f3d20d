/**
 * The monitor part of the storage seam (see Store.ts): the calls that ended in projects that
 * have a `Monitor` object, handed out in batches to the monitor sweeper (domain/llm/monitors.ts,
 * jobs/MonitorSweeper.ts), which turns them into scoring jobs. The promises, on every backend:
 * - nothing is scored inline: the write that ends a call only makes it findable here;
 * - nothing is missed across restarts: what was not settled is handed out again;
 * - nothing is queued twice, also with several server processes sweeping at once: a batch's
 *   jobs are queued together with settling it, and only one process settles given calls.
 *
 * How: SQLite fills an inbox from a trigger in the transaction that ends the call (migration
 * 14) and settles a batch in one transaction. ClickHouse has no triggers or transactions: calls
 * carry the time a Weft process received each part, a sweep reads those after the project's
 * last settled batch, and settling is a consensus slot per project (clickhouse/monitors.ts).
 */
import type { JobsStore } from './JobsStore.js';

export interface EndedCall {
  projectId: string;
  callId: string;
}

/** Ended calls handed out together; give the batch back to `ackEnded` as it came. */
export interface EndedBatch {
  calls: EndedCall[];
  /** What the backend needs to settle the batch (opaque to callers). */
  cursor: string;
}

export type MonitorJob = Parameters<JobsStore['enqueue']>[0];

export interface MonitorsStore {
  /**
   * Batches of ended calls not yet settled, oldest first, each at most `limit` calls (a backend
   * may answer one batch across projects or one per project).
   */
  pendingEnded(req: { limit: number; now: number }): Promise<EndedBatch[]>;
  /**
   * Settles a batch: queues `jobs` and marks its calls handled, together. Answers false, queueing
   * nothing, when another server process settled these calls first (its jobs stand).
   */
  ackEnded(req: { batch: EndedBatch; jobs: MonitorJob[]; now: number }): Promise<boolean>;
  /**
   * Stops handing out ended calls of a project whose monitors are all inactive or deleted, as of
   * the newest Monitor version the caller saw (`monitorsUpTo`, its created_at): a Monitor version
   * stored after that starts it again.
   */
  forgetProject(req: { projectId: string; monitorsUpTo: number }): Promise<void>;
}
