/**
 * One retention sweep over a store (docs/operations/retention.md): every project with a rule in
 * force, oldest calls first, in batches of one write transaction each, bounded per tick. Runs
 * where it is called: on the sweep's thread in a server on a SQLite file (retentionThread.ts),
 * in the process for `weft retention sweep` and ClickHouse.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import type { Store } from '../store/Store.js';

/**
 * Calls in a batch, at least. Expiring a call costs what deleting it does (its threads and stats
 * cells are refolded), and much of a batch's cost is per batch, not per call: a cell that lost its
 * fastest or slowest call rescans its calls whatever the number that left. Sized down to 20 by
 * time on a machine at load 30, the batches took 896 for 20,000 calls instead of 201, and the
 * sweep ran at 59 calls/s instead of 483 (docs/performance.md "Retention sweep").
 */
export const RETENTION_BATCH = 100;
/**
 * Above RETENTION_BATCH, a batch grows while it takes less than this: how long a write may wait
 * behind one (docs/operations/retention.md).
 */
export const RETENTION_BATCH_TARGET_MS = 50;
/** Bounds of the adapted batch size. */
const BATCH_MIN = RETENTION_BATCH;
const BATCH_MAX = 1000;
/** Calls per tick, so one tick's work is bounded however far behind the sweep is. */
export const RETENTION_MAX_PER_TICK = 50_000;

const DAY_MICROS = 86_400_000_000;

export interface SweepReport {
  /** Calls removed, per project. */
  projects: { projectId: string; days: number; calls: number; feedback: number; files: number; fileBytes: number }[];
  calls: number;
  feedback: number;
  /** Files only the removed calls referred to, removed with them, and their bytes. */
  files: number;
  fileBytes: number;
  batches: number;
  /** Whether the bound per tick stopped it with expired calls left. */
  more: boolean;
  /** The thread that ran the batches (node:worker_threads' threadId; 0 is the main thread). */
  threadId: number;
}

/**
 * Runs one batch with the write turn: the sweep's thread asks the main thread for it first, so
 * the group commits there wait their turn queued rather than blocked (retentionThread.ts).
 */
export type WriteTurn = <T>(batch: () => Promise<T>) => Promise<T>;

const ownTurn: WriteTurn = (batch) => batch();

/** The next batch's size, from how long the last one took: at most double, within the bounds. */
export function nextBatchSize(size: number, tookMs: number, targetMs = RETENTION_BATCH_TARGET_MS): number {
  const aimed = Math.round((size * targetMs) / Math.max(tookMs, 0.1));
  return Math.max(BATCH_MIN, Math.min(BATCH_MAX, 2 * size, aimed));
}

/** One sweep: every project with a rule in force, oldest calls first, within the bounds. */
export async function sweepRetention(
  store: Pick<Store, 'retention'>,
  options: { now: number; batch?: number; maxCalls?: number; stopped?: () => boolean; turn?: WriteTurn },
): Promise<SweepReport> {
  let size = options.batch ?? RETENTION_BATCH;
  const adapt = options.batch === undefined;
  const maxCalls = options.maxCalls ?? RETENTION_MAX_PER_TICK;
  const turn = options.turn ?? ownTurn;
  const report: SweepReport = { projects: [], calls: 0, feedback: 0, files: 0, fileBytes: 0, batches: 0, more: false, threadId };
  for (const { projectId, days } of await store.retention.projectsInForce()) {
    const before = options.now - days * DAY_MICROS;
    const done = { projectId, days, calls: 0, feedback: 0, files: 0, fileBytes: 0 };
    for (;;) {
      if (report.calls >= maxCalls || options.stopped?.()) {
        report.more = true;
        break;
      }
      const limit = Math.min(size, maxCalls - report.calls);
      const { expired, tookMs } = await turn(async () => {
        const began = performance.now();
        // The batch's deletion as one unit (RetentionStore.expireCalls): one write transaction.
        const expired = await store.retention.expireCalls({ projectId, before, limit, now: options.now });
        return { expired, tookMs: performance.now() - began };
      });
      report.batches++;
      done.calls += expired.calls;
      done.feedback += expired.feedback;
      report.calls += expired.calls;
      report.feedback += expired.feedback;
      done.files += expired.files;
      done.fileBytes += expired.fileBytes;
      report.files += expired.files;
      report.fileBytes += expired.fileBytes;
      if (expired.calls < limit) break;
      if (adapt) size = nextBatchSize(size, tookMs);
      // Let requests and group commits run between two batches.
      await yieldToLoop();
    }
    if (done.calls > 0) report.projects.push(done);
    if (report.more) break;
  }
  return report;
}
