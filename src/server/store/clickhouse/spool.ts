/**
 * The durable spool of small writes (WEFT_CLICKHOUSE_SMALL_WRITES=spool): a request's last
 * writes (Store.applyLast) are checked, appended to a local SQLite file and acknowledged; a
 * flusher sends what accumulated as one INSERT per table every flush interval. An INSERT into
 * `calls` costs the engine about the same for one row as for thousands, so this is what lets
 * sixteen one-part clients keep SQLite's pace (docs/clickhouse.md "Small writes").
 *
 * The promises: acknowledged means on disk as durably as the SQLite store's own writes (WAL,
 * the same WEFT_SQLITE_SYNC), and a restart sends what a crash left (entries leave the file only
 * after their INSERT answered; a resend is idempotent). Every statement this server sends to the
 * engine first waits for the entries appended before it (`barrier`), so it reads its own writes.
 */
import Database from 'better-sqlite3';
import { deserialize, serialize } from 'node:v8';
import type { WriteBatch } from '../WriteBatch.js';
import { writeWeight } from '../WriteBatch.js';
import { prepareDatabaseFile, restrictDatabaseFiles } from '../sqlite/privateFiles.js';
import { StoreUnavailableError, storeOutageOf } from '../storeOutage.js';
import { mergeBatches } from './groupCommit.js';

export interface SpoolOptions {
  /** The spool file (`clickhouse-spool-<database>.sqlite` in WEFT_DATA_DIR). */
  path: string;
  /** Sends a merged batch to the engine, without the checks `append`'s caller already made. */
  send: (batch: WriteBatch) => Promise<void>;
  /** WEFT_CLICKHOUSE_SPOOL_FLUSH_MS: how long an entry waits for others before its INSERT. */
  flushMs: number;
  /** WEFT_SQLITE_SYNC, as the SQLite store's own file. */
  synchronous?: 'normal' | 'full';
  /** Entries the file holds at most (while the engine is away); beyond, writes answer 503. */
  maxEntries?: number;
  /** Where an entry the engine refuses for good is reported (it moves to `spool_refused`). */
  log?: (message: string) => void;
}

/** WEFT_CLICKHOUSE_SPOOL_FLUSH_MS by default: a tenth of a second of staleness for other replicas. */
export const DEFAULT_SPOOL_FLUSH_MS = 100;

/** Rows one INSERT carries at most (an SDK batch of 500 calls is 1,000 parts). */
const MAX_WEIGHT = 5000;
/** Waits between flush attempts while the engine is away. */
const RETRY_MS = [100, 250, 500, 1000, 2000];

interface Entry {
  seq: number;
  batch: Buffer;
}

export class ClickHouseSpool {
  readonly #db: Database.Database;
  readonly #options: SpoolOptions;
  readonly #maxEntries: number;
  readonly #insert: Database.Statement<[Buffer, number]>;
  readonly #maxSeq: Database.Statement<[], { s: number | null }>;
  readonly #pendingTo: Database.Statement<[number], { n: number }>;
  readonly #take: Database.Statement<[number], Entry & { weight: number }>;
  readonly #count: Database.Statement<[], { n: number }>;
  /** Appends of this turn of the event loop, written in one transaction. */
  #queued: { batch: Buffer; weight: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #retry = 0;
  #closed = false;
  /** The last flush's outage, answered to writes while the file is full. */
  #outage: StoreUnavailableError | null = null;
  /** Entries flushed and INSERTs sent since start (tests and benchmarks read these). */
  readonly counts = { entries: 0, inserts: 0, refused: 0 };

  constructor(options: SpoolOptions) {
    this.#options = options;
    this.#maxEntries = options.maxEntries ?? 1_000_000;
    prepareDatabaseFile(options.path);
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    restrictDatabaseFiles(options.path);
    this.#db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // Other processes on the same data directory (--workers) share the file.
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS spool (seq INTEGER PRIMARY KEY AUTOINCREMENT, batch BLOB NOT NULL, weight INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS spool_refused (seq INTEGER PRIMARY KEY, batch BLOB NOT NULL, error TEXT NOT NULL, at INTEGER NOT NULL);
    `);
    this.#insert = this.#db.prepare('INSERT INTO spool (batch, weight) VALUES (?, ?)');
    this.#maxSeq = this.#db.prepare('SELECT max(seq) AS s FROM spool');
    this.#pendingTo = this.#db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM spool WHERE seq <= ? LIMIT 1)');
    this.#take = this.#db.prepare('SELECT seq, batch, weight FROM spool ORDER BY seq LIMIT ?');
    this.#count = this.#db.prepare('SELECT count(*) AS n FROM spool');
    // What a crash or an outage left is sent first.
    if (this.#maxSeq.get()!.s !== null) this.#arm(0);
  }

  /** Entries waiting in the file (every process's). */
  get backlog(): number {
    return this.#count.get()!.n;
  }

  /** Resolves once `batch` is on disk; the engine gets it with the next flush. */
  append(batch: WriteBatch): Promise<void> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('The server is shutting down. Try again later.'));
    return new Promise((resolve, reject) => {
      const weight = batch.reduce((n, w) => n + writeWeight(w), 0);
      this.#queued.push({ batch: serialize(batch), weight, resolve, reject });
      // One transaction (one WAL commit) for every request read in this turn.
      if (this.#queued.length === 1) setImmediate(() => this.#write());
    });
  }

  #write(): void {
    const queued = this.#queued;
    this.#queued = [];
    // close() may have written them already.
    if (!queued.length) return;
    try {
      if (this.#outage && this.backlog >= this.#maxEntries) throw this.#outage;
      this.#db.transaction(() => {
        for (const q of queued) this.#insert.run(q.batch, q.weight);
      })();
    } catch (err) {
      for (const q of queued) q.reject(err);
      return;
    }
    for (const q of queued) q.resolve();
    this.#arm(this.#options.flushMs);
  }

  /**
   * Resolves once every entry in the file when called has reached the engine (sent by this
   * process or another): what each statement of this server waits for, so it reads its own
   * writes. Rejects with the outage when the engine cannot take them.
   */
  barrier(): Promise<void> | undefined {
    const target = this.#maxSeq.get()!.s;
    if (target === null) return undefined;
    return this.#drainTo(target);
  }

  async #drainTo(target: number): Promise<void> {
    while (this.#pendingTo.get(target)!.n > 0) await this.#flushNow();
  }

  /** Runs a flush now, after the one in progress. */
  async #flushNow(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => {});
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = null;
    });
    await this.#flushing;
  }

  /** A flush after `ms`, unless one is already due. */
  #arm(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#flushNow().then(
        () => {
          this.#retry = 0;
          if (this.#maxSeq.get()!.s !== null) this.#arm(this.#options.flushMs);
        },
        () => this.#arm(RETRY_MS[Math.min(this.#retry++, RETRY_MS.length - 1)]!),
      );
    }, ms);
  }

  /** Sends the oldest entries as one merged batch; an outage leaves them in the file. */
  async #flushOnce(): Promise<void> {
    const entries: Entry[] = [];
    let weight = 0;
    for (const e of this.#take.all(MAX_WEIGHT)) {
      if (entries.length && weight + e.weight > MAX_WEIGHT) break;
      entries.push(e);
      weight += e.weight;
    }
    if (!entries.length) return;
    const batches = entries.map((e) => deserialize(e.batch) as WriteBatch);
    try {
      await this.#send(mergeBatches(batches));
    } catch (err) {
      this.#throwOutage(err);
      if (entries.length === 1) return this.#refuse(entries[0]!, err);
      // The merged batch was refused: each entry alone, so only one the engine refuses is set aside.
      for (const [i, e] of entries.entries()) {
        try {
          await this.#send(batches[i]!);
        } catch (one) {
          this.#throwOutage(one);
          this.#refuse(e, one);
          continue;
        }
        this.#done([e]);
      }
      return;
    }
    this.#done(entries);
  }

  async #send(batch: WriteBatch): Promise<void> {
    await this.#options.send(batch);
    this.counts.inserts++;
    this.#outage = null;
  }

  #done(entries: Entry[]): void {
    const del = this.#db.prepare('DELETE FROM spool WHERE seq = ?');
    this.#db.transaction(() => {
      for (const e of entries) del.run(e.seq);
    })();
    this.counts.entries += entries.length;
  }

  /** An outage leaves the entries in the file for the next flush (and answers the barrier's 503). */
  #throwOutage(err: unknown): void {
    const outage = storeOutageOf(err);
    if (!outage) return;
    this.#outage = outage;
    throw outage;
  }

  /**
   * An acknowledged entry the engine refuses for good (alone, not for an outage): kept in
   * `spool_refused` and reported, so the entries behind it move on.
   */
  #refuse(e: Entry, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.#db.transaction(() => {
      this.#db
        .prepare('INSERT OR REPLACE INTO spool_refused (seq, batch, error, at) VALUES (?, ?, ?, ?)')
        .run(e.seq, e.batch, message, Date.now());
      this.#db.prepare('DELETE FROM spool WHERE seq = ?').run(e.seq);
    })();
    this.counts.refused++;
    (this.#options.log ?? console.error)(
      `weft: ClickHouse refused spooled write ${e.seq} (kept in ${this.#options.path}, table spool_refused): ${message}`,
    );
  }

  /** Sends what is left (an engine away leaves it for the next start), then closes the file. */
  async close(): Promise<void> {
    if (this.#queued.length) this.#write();
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const target = this.#maxSeq.get()!.s;
    if (target !== null) await this.#drainTo(target).catch(() => {});
    while (this.#flushing) await this.#flushing.catch(() => {});
    this.#db.close();
  }
}
