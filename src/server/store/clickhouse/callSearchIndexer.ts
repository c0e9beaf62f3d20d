/**
 * Fills the substring search's posting lists (call_grams) from the queue of written call parts
 * (call_search_queue), in the background and inside the engine (docs/search.md "How each backend finds them"):
 * splitting a call's text into trigram rows costs the engine about four times the call's own
 * insert, so ingest only queues a small row per part, and this indexes the queue while this
 * replica is not busy writing calls. Searches stay exact meanwhile: every call queued past the
 * progress is a candidate of every search (callSearch.ts).
 *
 * Several replicas may index the same batch at once: call_grams is a ReplacingMergeTree, so the
 * second copy of a row merges away, and the progress is read as a max, so it never goes back.
 */
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { gramRowsSql, INDEXED_TO_SQL } from './callSearch.js';

export interface SearchIndexerOptions {
  /**
   * How old a queued part must be before it is indexed: a part is queued (stamped by the engine's
   * clock) when its insert runs, and becomes readable when the insert ends, so the progress must
   * never pass a part still being inserted. Parts younger than this stay candidates meanwhile.
   */
  lagMs?: number;
  /** Queued calls per batch (one INSERT ... SELECT each). */
  batchCalls?: number;
  /** Queued parts per round (a round ends with the whole insert of its last part). */
  roundParts?: number;
  /** This replica counts as busy writing this long after its last call write. */
  idleMs?: number;
  /** Parts written here since the queue was last empty past which batches run even while busy. */
  longQueue?: number;
  /** The longest wait between looks at an empty queue (the look backs off to it, doubling). */
  maxLookMs?: number;
  /** Timers and the clock, for tests (docs/clickhouse.md "Quiet when idle"). */
  setTimer?: (run: () => void, ms: number) => () => void;
  now?: () => number;
  /** Told of a batch that failed (the engine away, the database dropped); the next look retries. */
  onError?: (err: unknown) => void;
}

const DEFAULTS = {
  lagMs: 10_000,
  // ~2 s of the engine's CPU at most: a batch begun just before writes resume delays them little.
  batchCalls: 5_000,
  roundParts: 1_000_000,
  // A gap in steady ingest shorter than this is not idleness (on a loaded engine an insert
  // answers in hundreds of ms, so 250 ms gaps came between the writes of one client).
  idleMs: 1_000,
  // Indexing costs the engine ~4x ingest: under steady writes the queue is left to grow this far.
  longQueue: 1_000_000,
  maxLookMs: 60_000,
};
const FIRST_LOOK_MS = 1_000;

const realTimer = (run: () => void, ms: number): (() => void) => {
  const t = setTimeout(run, ms);
  t.unref();
  return () => clearTimeout(t);
};

export interface BatchResult {
  /** Queued calls whose trigram rows were written. */
  indexed: number;
  /** Whether parts are queued that are too young to index yet (lagMs). */
  waiting: boolean;
}

export class ClickHouseSearchIndexer {
  readonly #db: ClickHouseDatabase;
  readonly #o: Required<Omit<SearchIndexerOptions, 'onError'>> & Pick<SearchIndexerOptions, 'onError'>;
  #cancel: (() => void) | null = null;
  #due = Infinity;
  #running = false;
  #stopped = false;
  #lastWrite = -Infinity;
  /** Parts written here since the queue was last found empty: what `longQueue` compares. */
  #written = 0;
  #lookMs = FIRST_LOOK_MS;
  #batch: Promise<unknown> = Promise.resolve();
  /** The round under way: its progress before and after, and the last key indexed in it. */
  #round: { w: number; hi: number; after: [string, string] | null } | null = null;

  constructor(db: ClickHouseDatabase, options: SearchIndexerOptions = {}) {
    this.#db = db;
    this.#o = { ...DEFAULTS, setTimer: realTimer, now: () => performance.now(), ...options };
  }

  /** Takes one look at the queue soon (the calls queued before this replica started). */
  start(): void {
    this.#wake(this.#o.idleMs);
  }

  /** Told by each call write through this replica, with how many parts it wrote. */
  wrote(parts: number): void {
    this.#lastWrite = this.#o.now();
    this.#written += parts;
    this.#lookMs = FIRST_LOOK_MS;
    if (!this.#running && this.#due > this.#o.now() + this.#o.idleMs) this.#wake(this.#o.idleMs);
  }

  /**
   * Indexes the next batch of queued calls: one INSERT ... SELECT of the trigram rows of every
   * stored part of up to batchCalls queued calls, next in key order (project, id) within the
   * current round. A round is the oldest queued parts past the progress (up to roundParts, none
   * younger than lagMs), taken in key order so that each batch reads the few granules of calls
   * its key range covers (call ids need not follow time: the SDKs' and OTel's are random);
   * when a round is done, its end is recorded as the progress. A crash in a round indexes it again.
   */
  async indexBatch(): Promise<BatchResult> {
    const db = this.#db;
    for (;;) {
      if (!this.#round) {
        const w = num((await db.get<{ w: string }>(INDEXED_TO_SQL))?.w ?? 0);
        // The round ends at its last part's position, so the parts of one insert (one position)
        // go together; `pending` counts the whole tail, so a tail too young to index is told apart.
        const round = await db.get<{ n: string; hi: string; pending: string }>(
          `WITH (SELECT max(queued_at) FROM (SELECT queued_at FROM call_search_queue
                   WHERE queued_at > {w:Int64} AND queued_at <= toUnixTimestamp64Micro(now64(6)) - {lag:Int64}
                   ORDER BY queued_at LIMIT {n:UInt64})) AS hi
           SELECT hi, countIf(queued_at <= hi) AS n, count() AS pending FROM call_search_queue WHERE queued_at > {w:Int64}`,
          { w, lag: this.#o.lagMs * 1000, n: this.#o.roundParts },
        );
        if (num(round?.n ?? 0) === 0) return { indexed: 0, waiting: num(round?.pending ?? 0) > 0 };
        this.#round = { w, hi: num(round!.hi), after: null };
      }
      const { w, hi, after } = this.#round;
      const params = { w, hi, lp: after?.[0] ?? '', li: after?.[1] ?? '', n: this.#o.batchCalls };
      const past = after ? '(project_id > {lp:String} OR (project_id = {lp:String} AND id > {li:String}))' : '1';
      const tail = `call_search_queue WHERE queued_at > {w:Int64} AND queued_at <= {hi:Int64} AND ${past}`;
      const range = await db.get<{ n: string; up: [string, string] }>(
        `SELECT count() AS n, max((project_id, id)) AS up
         FROM (SELECT DISTINCT project_id, id FROM ${tail} ORDER BY project_id, id LIMIT {n:UInt64})`,
        params,
      );
      const n = num(range?.n ?? 0);
      if (n === 0) {
        await db.insert('call_search_progress', [{ indexed_to: hi }]);
        this.#round = null;
        continue;
      }
      const [up, ui] = range!.up;
      const within = `${past} AND (project_id < {up:String} OR (project_id = {up:String} AND id <= {ui:String}))`;
      await db.command(
        `INSERT INTO call_grams (project_id, gram, id) ${gramRowsSql(
          `${within} AND (project_id, id) IN (SELECT project_id, id FROM ${tail} AND ${within})`,
        )}`,
        { ...params, up, ui },
      );
      this.#round.after = [up, ui];
      return { indexed: n, waiting: false };
    }
  }

  /** Indexes batch after batch until none is ready (tests, benchmarks); answers the calls indexed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const { indexed } = await this.indexBatch();
      if (indexed === 0) return total;
      total += indexed;
    }
  }

  #wake(ms: number): void {
    if (this.#stopped) return;
    this.#cancel?.();
    this.#due = this.#o.now() + ms;
    this.#cancel = this.#o.setTimer(() => {
      this.#cancel = null;
      this.#due = Infinity;
      this.#batch = this.#run();
    }, ms);
  }

  async #run(): Promise<void> {
    const { idleMs, longQueue, lagMs, maxLookMs } = this.#o;
    const busyFor = idleMs - (this.#o.now() - this.#lastWrite);
    if (busyFor > 0 && this.#written < longQueue) return this.#wake(busyFor);
    this.#running = true;
    const started = this.#o.now();
    let next: number;
    try {
      const { indexed, waiting } = await this.indexBatch();
      if (indexed > 0) {
        this.#written = Math.max(0, this.#written - indexed);
        this.#lookMs = FIRST_LOOK_MS;
        next = 0;
      } else if (waiting) next = lagMs;
      else {
        // Empty: look again later and later (another replica's writes, a crash's leftovers).
        this.#written = 0;
        next = this.#lookMs;
        this.#lookMs = Math.min(maxLookMs, this.#lookMs * 2);
      }
    } catch (err) {
      this.#o.onError?.(err);
      next = this.#lookMs;
      this.#lookMs = Math.min(maxLookMs, this.#lookMs * 2);
    } finally {
      this.#running = false;
    }
    // A write while the batch ran is looked at once this replica is idle again.
    if (this.#lastWrite >= started) next = Math.min(next, idleMs);
    this.#wake(next);
  }

  /** Stops looking; a batch under way finishes first. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = null;
    await this.#batch;
  }
}
