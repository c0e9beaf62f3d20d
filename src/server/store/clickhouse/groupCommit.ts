/**
 * Group commit for ClickHouse: the small write batches of concurrent requests (a call start or
 * end, a prediction, a score, a feedback row: `Store.applyLast`) are merged into one batch, so
 * sixteen clients that each send one call part cost the engine one INSERT into `calls`, not
 * sixteen. Each INSERT is a new part the engine writes and merges, which was what saturated it
 * (docs/clickhouse.md "Small writes").
 *
 * When: a batch waits only while MAX_IN_FLIGHT merged batches are being written; otherwise it
 * leaves at the end of the event loop's turn with whatever else arrived in it. So a lone client
 * waits for nothing, and under load a group is whatever queued during the previous INSERT.
 *
 * Acknowledged still means stored: a request is answered only after the merged batch it is in
 * has been applied (synchronous INSERTs). When the merged batch fails, every request in it is
 * tried again alone, so one refused request (an object name taken by another kind) fails alone
 * and the others land; an outage (the engine down or unresponsive) fails all of them at once.
 * Merging is safe because every write is idempotent and the engine merges call parts
 * column by column (calls.ts), exactly as when the requests' INSERTs are separate.
 */
import type { CallWrite } from '../CallsStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { StoreWrite, WriteBatch } from '../WriteBatch.js';
import { writeWeight } from '../WriteBatch.js';
import { storeOutageOf } from '../storeOutage.js';

/** WEFT_CLICKHOUSE_SMALL_WRITES: how a request's last writes reach the engine (ClickHouseOptions.smallWrites). */
export const SMALL_WRITES_MODES = ['group', 'spool', 'async', 'direct'] as const;
export type SmallWritesMode = (typeof SMALL_WRITES_MODES)[number];

/**
 * Merged batches written at once. An INSERT into calls costs the engine about the same CPU for
 * one row as for sixteen (docs/performance.md "Small writes on ClickHouse"), so fewer, larger
 * ones are cheaper: with two at a time the engine spent about twice the CPU per request.
 */
const MAX_IN_FLIGHT = 1;

/** Rows in one merged batch at most (an SDK batch of 500 calls is 1,000 parts). */
const MAX_WEIGHT = 2000;

/** The kinds a merged batch can hold: lists that concatenate, or content-addressed creates that dedupe. */
export const GROUPABLE = new Set<StoreWrite['kind']>(['files.create', 'objects.create', 'calls.write', 'feedback.create']);

interface Unit {
  batch: WriteBatch;
  weight: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class ClickHouseGroupCommit {
  readonly #apply: (batch: WriteBatch) => Promise<unknown>;
  readonly #queue: Unit[] = [];
  #inFlight = 0;
  #scheduled = false;
  readonly #drained: (() => void)[] = [];
  /** Merged batches written and requests in them (tests and benchmarks read these). */
  readonly counts = { commits: 0, units: 0 };

  /** `apply`: the store's own `apply` (checks, then each write in order). */
  constructor(apply: (batch: WriteBatch) => Promise<unknown>) {
    this.#apply = apply;
  }

  submit(batch: WriteBatch): Promise<void> {
    if (!batch.every((w) => GROUPABLE.has(w.kind))) return this.#apply(batch).then(() => undefined);
    return new Promise((resolve, reject) => {
      this.#queue.push({ batch, weight: batch.reduce((n, w) => n + writeWeight(w), 0), resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every batch submitted so far has been written or failed (close waits for it). */
  idle(): Promise<void> {
    if (!this.#queue.length && !this.#inFlight && !this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= MAX_IN_FLIGHT || !this.#queue.length) return;
    this.#scheduled = true;
    // setImmediate runs after the poll phase: every request read in this turn has queued by then.
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#queue.length && this.#inFlight < MAX_IN_FLIGHT) {
        const units = this.#take();
        this.#inFlight++;
        void this.#commit(units).finally(() => {
          this.#inFlight--;
          this.#schedule();
          this.#checkDrained();
        });
      }
    });
  }

  #take(): Unit[] {
    const units: Unit[] = [];
    let weight = 0;
    while (this.#queue.length && (units.length === 0 || weight + this.#queue[0]!.weight <= MAX_WEIGHT)) {
      const unit = this.#queue.shift()!;
      units.push(unit);
      weight += unit.weight;
    }
    return units;
  }

  async #commit(units: Unit[]): Promise<void> {
    try {
      await this.#apply(units.length === 1 ? units[0]!.batch : mergeBatches(units.map((u) => u.batch)));
      this.counts.commits++;
      this.counts.units += units.length;
      for (const u of units) u.resolve();
      return;
    } catch (err) {
      if (units.length === 1 || storeOutageOf(err)) {
        for (const u of units) u.reject(err);
        return;
      }
    }
    // The merged batch failed: each request alone, so only those that cannot be written fail.
    await Promise.all(
      units.map(async (u) => {
        try {
          await this.#apply(u.batch);
          this.counts.commits++;
          this.counts.units++;
          u.resolve();
        } catch (err) {
          u.reject(err);
        }
      }),
    );
  }

  #checkDrained(): void {
    if (this.#queue.length || this.#inFlight || this.#scheduled) return;
    for (const resolve of this.#drained.splice(0)) resolve();
  }
}

/**
 * One batch doing what `batches` do one after another: files, then objects (each content
 * address once: a second create of the same one changes nothing), then every call part in
 * one write, then every feedback row, the order a write plan keeps (domain/calls/writePlan.ts).
 */
export function mergeBatches(batches: WriteBatch[]): StoreWrite[] {
  const files = new Map<string, StoreWrite>();
  const objects = new Map<string, StoreWrite>();
  const calls: CallWrite[] = [];
  const feedback: FeedbackWrite[] = [];
  for (const batch of batches) {
    for (const w of batch) {
      switch (w.kind) {
        case 'files.create': {
          const key = `${w.file.projectId}\u0000${w.file.digest}`;
          if (!files.has(key)) files.set(key, w);
          break;
        }
        case 'objects.create': {
          const key = `${w.object.projectId}\u0000${w.object.objectId}\u0000${w.object.digest}`;
          if (!objects.has(key)) objects.set(key, w);
          break;
        }
        case 'calls.write':
          for (const c of w.calls) calls.push(c);
          break;
        case 'feedback.create':
          for (const r of w.rows) feedback.push(r);
          break;
        default:
          throw new Error(`${w.kind} writes are not merged`);
      }
    }
  }
  return [
    ...files.values(),
    ...objects.values(),
    ...(calls.length ? [{ kind: 'calls.write', calls } as const] : []),
    ...(feedback.length ? [{ kind: 'feedback.create', rows: feedback } as const] : []),
  ];
}
