/**
 * The monitor part of the storage seam (see Store.ts): an ordered inbox of calls that ended in
 * projects that have a `Monitor` object, filled by the write that ends the call (so nothing is
 * scored inline and nothing is missed across restarts) and drained by the monitor sweeper
 * (jobs/MonitorSweeper.ts).
 */

export interface EndedCall {
  /** The inbox position: the order the server stored the ends in. */
  seq: number;
  projectId: string;
  callId: string;
}

export interface MonitorsStore {
  /** The oldest `limit` queued ended calls. */
  pendingEnded(req: { limit: number }): Promise<EndedCall[]>;
  /**
   * Removes the queued calls up to and including `upToSeq`, which must be `count` calls; when
   * fewer are left (another server process of a cluster handled them) it fails with
   * `InboxTakenError`, so the transaction it is part of queues nothing twice.
   */
  ackEnded(req: { upToSeq: number; count: number }): Promise<void>;
  /** Stops queueing ended calls of a project (its monitors are all inactive or deleted). */
  forgetProject(req: { projectId: string }): Promise<void>;
}

export class InboxTakenError extends Error {
  constructor() {
    super('These ended calls were handled by another server process');
  }
}
