/**
 * Group commit on the writer (main thread): write units from every request thread are queued
 * and applied together, in arrival order, one transaction per turn of the event loop, each
 * unit under its own savepoint (SqliteDatabase.groupCommit). A unit is acknowledged only once
 * the transaction holding it has committed; a failing unit is rolled back alone and answered
 * with its error while the others commit. If the commit itself fails, every unit is retried
 * on its own, so one cause cannot fail the others (unless the database itself failed: locked,
 * unwritable; then they all fail at once).
 *
 * A commit takes at most MAX_WEIGHT rows of work so the main thread, which also serves
 * `/health` and hands requests to the threads, comes back to its event loop often.
 *
 * When to commit: on the third turn of the event loop after a unit arrives (MAX_TURNS), or
 * sooner once MAX_WEIGHT rows are queued. A commit costs about 100 µs however small it is:
 * SQLite writes every dirty page to the WAL, two system calls a page, and the stats rollup reads
 * and rewrites its cells. Units of concurrent clients share most of those pages (the same stats
 * cells, the same right edges of the time indexes). Committing at the first turn split 8
 * clients into two groups of 4 that took turns; waiting two more turns lets them share one.
 * An idle turn costs microseconds, so a lone client hardly waits.
 */
import type { SqliteStore } from '../store/sqlite/SqliteStore.js';
import type { WriteOp } from './messages.js';
import { applyWriteOp } from './storeForwarding.js';
import type { WriteTurns } from './writeTurns.js';
import { writeWeight } from '../store/WriteBatch.js';
import { metrics } from '../metrics/hooks.js';
import { noteStoreError, storeOutageOf } from '../store/storeOutage.js';

/**
 * About one SDK batch of 500 calls (1,000 starts and ends). With 4,000, one commit took up to
 * four such batches, 20-30 ms in which the next requests waited unread and the answers unsent,
 * then the write thread parsed while the writer had nothing to do: bench:ingest at 200,000
 * calls ran 29.4-29.6k calls/s with 4,000 and 30.9-31.6k with 1,000, three runs each,
 * alternating (docs/performance.md). Small units (an evaluation's score, a few rows) still share a commit
 * by the hundred.
 */
const MAX_WEIGHT = 1000;

/**
 * Turns of the event loop a unit may wait for others. bench:evaluations at 8 in flight (docs/performance.md),
 * committing on the first, second, third turn: 4.0, 5.9, 7.5 units per commit, 875, 898, 921–946
 * predictions/s; 4 and 5 turns no better than 3. Waiting only while each turn brought new units
 * measured 4.6 units per commit: the other clients' requests come a few idle turns later.
 */
const MAX_TURNS = 3;

interface Unit {
  ops: WriteOp[];
  /** Rows of work in it (weightOf). */
  weight: number;
  resolve: (values: unknown[]) => void;
  reject: (err: unknown) => void;
}

/** Rows of work in an op: a list argument weighs its length, a write batch the sum of its writes, anything else 1. */
export function weightOf(op: WriteOp): number {
  if ('batch' in op) return op.batch.reduce((n, write) => n + writeWeight(write), 0);
  const first = op.args[0];
  return Array.isArray(first) ? Math.max(1, first.length) : 1;
}

export class GroupCommitter {
  readonly #store: SqliteStore;
  readonly #queue: Unit[] = [];
  #queuedWeight = 0;
  #scheduled = false;
  /** How many transactions and units were committed (tests and benchmarks read these). */
  readonly counts = { commits: 0, units: 0 };

  readonly #turns: WriteTurns | null;

  /** `turns`: shared with the retention sweep's thread, when there is one (writeTurns.ts). */
  constructor(store: SqliteStore, turns: WriteTurns | null = null) {
    this.#store = store;
    this.#turns = turns;
  }

  submit(ops: WriteOp[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const weight = ops.reduce((n, op) => n + weightOf(op), 0);
      this.#queue.push({ ops, weight, resolve, reject });
      this.#queuedWeight += weight;
      this.#schedule();
    });
  }

  /** Resolves once every unit submitted so far has been committed or failed (a shutdown waits for it). */
  async idle(): Promise<void> {
    while (this.#queue.length || this.#scheduled) await new Promise((resolve) => setImmediate(resolve));
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate runs after the poll phase, so every request read in that turn has queued its
    // unit by then; one scheduled from there runs after the next poll phase.
    let turns = 0;
    const turn = () => {
      if (++turns < MAX_TURNS && this.#queuedWeight < MAX_WEIGHT) {
        setImmediate(turn);
        return;
      }
      this.#scheduled = false;
      if (!this.#queue.length) return;
      // The retention sweep's batch has the write lock: wait for it queued, not blocked in SQLite.
      const free = this.#turns?.tryMain() ?? true;
      if (free !== true) {
        this.#scheduled = true;
        void free.then(() => {
          this.#scheduled = false;
          this.#schedule();
        });
        return;
      }
      try {
        this.#flush();
      } finally {
        this.#turns?.releaseMain();
      }
      if (this.#queue.length) this.#schedule();
    };
    setImmediate(turn);
  }

  #flush(): void {
    const units: Unit[] = [];
    let weight = 0;
    while (this.#queue.length && (units.length === 0 || weight < MAX_WEIGHT)) {
      const unit = this.#queue.shift()!;
      units.push(unit);
      weight += unit.weight;
      this.#queuedWeight -= unit.weight;
    }
    const started = performance.now();
    const results = this.#commit(units);
    if (results) {
      metrics.committed(units.length, weight, (performance.now() - started) / 1000);
      this.counts.commits++;
      this.counts.units += units.length;
      units.forEach((u, i) => settle(u, results[i]!));
      return;
    }
    // A locked or failing database fails every unit alike: retrying each alone would only wait
    // out the busy timeout once per unit, with the main thread blocked (store/storeOutage.ts).
    const outage = storeOutageOf(this.#lastCommitError);
    if (outage) {
      for (const unit of units) settle(unit, { failure: this.#lastCommitError });
      return;
    }
    // The commit failed as a whole: each unit alone, so only the ones that cannot commit fail.
    for (const unit of units) {
      let alone: Outcome | undefined;
      try {
        alone = this.#commit([unit])?.[0];
      } catch {
        alone = undefined;
      }
      if (alone) {
        this.counts.commits++;
        this.counts.units++;
      }
      settle(unit, alone ?? { failure: this.#lastCommitError ?? new Error('The write transaction could not commit') });
    }
  }

  #lastCommitError: unknown = null;

  /** Applies the units in one transaction; null when the transaction could not commit. */
  #commit(units: Unit[]): Outcome[] | null {
    const promises: Promise<unknown>[][] = units.map(() => []);
    try {
      const failures = this.#store.db.groupCommit(
        units.map((u, i) => () => {
          promises[i] = u.ops.map((op) => applyWriteOp(this.#store, op));
        }),
      );
      return units.map((_, i) => {
        const failed = failures[i];
        if (failed) {
          for (const p of promises[i]!) p.catch(() => {});
          return { failure: failed.err };
        }
        return { results: Promise.all(promises[i]!) };
      });
    } catch (err) {
      this.#lastCommitError = err;
      for (const list of promises) for (const p of list) p.catch(() => {});
      return null;
    }
  }
}

type Outcome = { failure: unknown } | { results: Promise<unknown[]> };

function settle(unit: Unit, outcome: Outcome): void {
  if ('failure' in outcome) {
    // A locked or failing database is remembered for `/ready` (store/storeOutage.ts).
    noteStoreError(outcome.failure);
    unit.reject(outcome.failure);
  } else outcome.results.then(unit.resolve, unit.reject);
}
