/**
 * The SQLite connection set: one writer connection and a small pool of read connections.
 *
 * Why a pool: better-sqlite3 is synchronous and a connection is busy while a statement
 * iterates. Streaming a large query on its own read connection lets us send rows as we
 * read them while writes go on (WAL allows readers beside the writer).
 *
 * Durability: WAL with `synchronous=NORMAL` survives a crash or `kill -9` of the process
 * (committed pages are in the WAL file before the commit returns); only an OS crash or power
 * loss can lose the last transactions. `WEFT_SQLITE_SYNC=full` trades speed for that too.
 */
import Database from 'better-sqlite3';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../storeOutage.js';
import { registerSearchFunctions } from './searchFunctions.js';
import { HistoryBlobs, type HistoryDedup } from './history/historyBlobs.js';
import { migrations } from './migrations/index.js';
import { prepareDatabaseFile, restrictDatabaseFiles } from './privateFiles.js';
import { BACKSTOP_PAGES, WAL_SIZE_LIMIT_BYTES, WalCheckpointer } from './walCheckpointer.js';

type Db = Database.Database;
type Statement = Database.Statement;
interface RowStatement {
  statement: Statement;
  toRow: (values: unknown[]) => unknown;
}

const READ_POOL_SIZE = 4;

export interface SqliteOptions {
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another process's lock before SQLITE_BUSY (default 5 s). */
  busyTimeoutMs?: number;
  /**
   * Open the file read-only, without migrating it: what a request thread does (threads/), whose
   * writes go to the process's one writer. A write attempted here fails with SQLITE_READONLY.
   */
  readOnly?: boolean;
  /**
   * Told about long work at open, for the operator's log: a schema upgrade, and the stats
   * backfill that follows some upgrades (seconds at a million calls, in which the server does
   * not listen yet). Nothing is said when there is nothing to do, or for a new file.
   */
  progress?: (message: string) => void;
  /** Checkpoint the WAL on a thread of its own (walCheckpointer.ts): what a server does. */
  checkpointThread?: boolean;
  /** Store repeated call content once (docs/history-storage.md); default 'on'. */
  historyDedup?: HistoryDedup;
}

export class SqliteDatabase {
  /** The main connection: the writer, or the read-only connection of a request thread. */
  readonly writer: Db;
  readonly readOnly: boolean;
  /** See SqliteOptions.progress. */
  readonly progress: (message: string) => void;
  readonly #file: string;
  readonly #busyTimeoutMs: number;
  readonly #idle: Db[] = [];
  readonly #statements = new WeakMap<Db, Map<string, Statement>>();
  /** Repeated call content, stored once (docs/history-storage.md). */
  readonly history: HistoryBlobs;

  constructor(file: string, options: SqliteOptions = {}) {
    this.#file = file;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.readOnly = options.readOnly === true;
    this.progress = options.progress ?? (() => {});
    this.history = new HistoryBlobs(file, this.readOnly ? 'off' : (options.historyDedup ?? 'on'));
    if (this.readOnly) {
      this.writer = new Database(file, { readonly: true, fileMustExist: true });
      this.#functions(this.writer);
      this.writer.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
      this.writer.pragma('cache_size = -65536');
      return;
    }
    if (file !== ':memory:') prepareDatabaseFile(file);
    this.writer = new Database(file);
    this.#functions(this.writer);
    // Only an empty file takes it: free pages can then be given back without VACUUM, which may
    // renumber rowids (docs/search.md "Free pages"; callSearch.ts reclaimFreePages).
    if ((this.writer.pragma('page_count', { simple: true }) as number) === 0) this.writer.pragma('auto_vacuum = INCREMENTAL');
    this.writer.pragma('journal_mode = WAL');
    // SQLite never shrinks a WAL file by itself: this trims it when it starts over (walCheckpointer.ts).
    this.writer.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    if (file !== ':memory:') restrictDatabaseFiles(file);
    this.writer.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    this.writer.pragma('foreign_keys = ON');
    this.writer.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    this.writer.pragma('cache_size = -65536');
    this.migrate();
    if (options.checkpointThread && file !== ':memory:') {
      this.writer.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      this.checkpointer = new WalCheckpointer(file);
    }
  }

  /** The thread checkpointing the WAL, when the options asked for one. */
  readonly checkpointer: WalCheckpointer | null = null;

  /** After a write transaction: the blobs it wrote are now committed or gone (history/historyBlobs.ts). */
  #settled(): void {
    if (!this.writer.inTransaction) this.history.settled();
  }

  /** The SQL functions every connection that may run a calls query needs. */
  #functions(db: Db): void {
    registerSearchFunctions(db);
    this.history.register(db);
  }

  /** Applies the migrations this file has not seen yet. */
  private migrate(): void {
    const current = this.writer.pragma('user_version', { simple: true }) as number;
    const pending = migrations.filter((m) => m.version > current);
    // A new file (version 0) is created, not upgraded: quick, and not worth a line.
    const told = current > 0 && pending.length > 0;
    const began = performance.now();
    if (told) this.progress(`Upgrading ${this.#file} from schema version ${current} to ${pending.at(-1)!.version} ...`);
    for (const m of pending) {
      this.writer
        .transaction(() => {
          // Re-checked under the write lock: another process may have migrated meanwhile.
          if ((this.writer.pragma('user_version', { simple: true }) as number) >= m.version) return;
          this.writer.exec(m.sql);
          this.writer.pragma(`user_version = ${m.version}`);
        })
        .immediate();
    }
    if (told) this.progress(`Upgraded ${this.#file} in ${seconds(began)}.`);
  }

  /** A cached prepared statement on the given connection (the writer by default). */
  prepare(sql: string, db: Db = this.writer): Statement {
    let cache = this.#statements.get(db);
    if (!cache) this.#statements.set(db, (cache = new Map()));
    let stmt = cache.get(sql);
    if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  }

  /**
   * Runs `fn` in one write transaction: it applies fully or not at all. IMMEDIATE takes the
   * write lock up front, so with several server processes (`weft serve --workers`) a writer
   * waits its turn (busy_timeout) instead of failing when a read lock cannot be upgraded.
   */
  transaction<T>(fn: () => T): T {
    const atomic = this.#atomic;
    if (!atomic) {
      try {
        return this.#run.immediate(fn) as T;
      } finally {
        this.#settled();
      }
    }
    // Inside `atomically` or a group commit's unit, which fails as a whole when this does: run
    // in it, and remember the failure for it. A savepoint of its own would undo nothing the
    // unit's rollback does not, and cost its SAVEPOINT and RELEASE: a score's write makes four
    // such calls, and with a better-sqlite3 wrapper made for each, the wrappers alone were ~7 %
    // of the main thread's time under evaluation logging (cpu-prof).
    try {
      return fn();
    } catch (err) {
      atomic.failure ??= { err };
      throw err;
    }
  }

  /**
   * better-sqlite3's transaction wrapper, made once: `transaction(fn)` makes a new one per
   * call (a function and its four variants). `#run(fn)` is a savepoint when nested,
   * `#run.immediate(fn)` a write transaction that takes the write lock up front.
   */
  get #run(): Database.Transaction<(fn: () => unknown) => unknown> {
    return (this.#runner ??= this.writer.transaction((fn: () => unknown) => fn()));
  }
  #runner: Database.Transaction<(fn: () => unknown) => unknown> | null = null;

  /**
   * Derived-data refreshes postponed to the end of the running group commit, by key (see
   * `refreshAtCommit`); null outside a group commit.
   */
  #atCommit: Map<string, () => void> | null = null;

  /**
   * Runs a refresh of derived data (thread statistics, the stats rollup) that must happen
   * before the write transaction commits. Inside a group commit it runs once, after every
   * unit, instead of once per unit: the refreshes fold whatever the units left (journal rows,
   * dirty marks) and cost about as much for one unit as for a hundred, so per unit they were
   * most of a small write's time on the writer. A unit rolled back to its savepoint leaves
   * nothing for them to fold. Outside a group commit it runs at once.
   */
  refreshAtCommit(key: string, fn: () => void): void {
    if (this.#atCommit) this.#atCommit.set(key, fn);
    else fn();
  }

  /** Set while `atomically` runs: the first failure of a `transaction` nested in it. */
  #atomic: { failure?: { err: unknown } } | null = null;

  /**
   * Runs `fn` in one write transaction that fails as a whole when any `transaction` inside it
   * failed, even one whose error `fn` never saw: the async store methods turn their errors into
   * rejected promises, which cannot be observed synchronously (SqliteStore.apply relies on this).
   */
  atomically(fn: () => void): void {
    if (this.#atomic) throw new Error('atomically() does not nest');
    const state: { failure?: { err: unknown } } = {};
    this.#atomic = state;
    try {
      this.#run.immediate(() => {
        fn();
        if (state.failure) throw state.failure.err;
      });
    } finally {
      this.#atomic = null;
      this.#settled();
    }
  }

  /**
   * Group commit: applies several independent units of work (one per request) in one write
   * transaction, each under its own savepoint, so one commit (one WAL sync point) serves them
   * all while a failing unit is rolled back alone and the others still commit. Returns each
   * unit's failure (or null); throws when the commit itself fails, which fails them all.
   * A unit fails when it throws or when a `transaction` inside it failed (the async store
   * methods turn errors into rejected promises, as in `atomically`).
   */
  groupCommit(units: (() => void)[]): ({ err: unknown } | null)[] {
    if (this.#atomic) throw new Error('groupCommit() does not nest');
    const outcomes: ({ err: unknown } | null)[] = [];
    const atCommit = new Map<string, () => void>();
    try {
      this.#run.immediate(() => {
        this.#atCommit = atCommit;
        for (const unit of units) {
          const state: { failure?: { err: unknown } } = {};
          this.#atomic = state;
          try {
            // A nested better-sqlite3 transaction is a savepoint: rolled back alone on throw.
            this.#run(() => {
              unit();
              if (state.failure) throw state.failure.err;
            });
            outcomes.push(null);
          } catch (err) {
            outcomes.push({ err });
          } finally {
            this.#atomic = null;
          }
        }
        // A failing refresh fails the commit as a whole (the caller then retries unit by unit).
        this.#atCommit = null;
        for (const refresh of atCommit.values()) refresh();
      });
    } finally {
      this.#atomic = null;
      this.#atCommit = null;
      this.#settled();
    }
    return outcomes;
  }

  /**
   * Streams the rows of a query from a read connection, in batches, yielding to the event
   * loop between batches so one large export does not stall other requests.
   */
  async *stream<Row>(sql: string, params: unknown[], batchSize = 500): AsyncGenerator<Row> {
    const db = this.acquireReader();
    const { statement, toRow } = this.#rowsOf(sql, db);
    const iterator = statement.iterate(...params) as IterableIterator<unknown[]>;
    try {
      let batch: Row[] = [];
      for (const values of iterator) {
        batch.push(toRow(values) as Row);
        if (batch.length >= batchSize) {
          yield* batch;
          batch = [];
        }
      }
      yield* batch;
    } finally {
      iterator.return?.();
      this.releaseReader(db);
    }
  }

  /** All rows of a small query, from the writer (sees its own latest writes). */
  all<Row>(sql: string, params: unknown[] = []): Row[] {
    const { statement, toRow } = this.#rowsOf(sql, this.writer);
    return (statement.all(...params) as unknown[][]).map(toRow) as Row[];
  }

  get<Row>(sql: string, params: unknown[] = []): Row | undefined {
    const { statement, toRow } = this.#rowsOf(sql, this.writer);
    const values = statement.get(...params) as unknown[] | undefined;
    return values && (toRow(values) as Row);
  }

  readonly #rowStatements = new WeakMap<Db, Map<string, RowStatement>>();

  /**
   * A query's statement answering arrays, and the function that makes one array its row object.
   * better-sqlite3 builds an object row one property at a time, and V8 then gives it a new
   * hidden class per column: a 24-column call row cost ~7.7 µs against ~5.3 µs as an array
   * made into an object literal by a function compiled once per statement (its rows then share
   * one shape). Kept apart from `prepare`'s cache: `raw` changes a statement for every user.
   */
  #rowsOf(sql: string, db: Db): RowStatement {
    let cache = this.#rowStatements.get(db);
    if (!cache) this.#rowStatements.set(db, (cache = new Map()));
    let rows = cache.get(sql);
    if (!rows) {
      const statement = db.prepare(sql).raw(true);
      // Keys as JSON strings: a column name is SQL's (an alias may be any text), never code.
      const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
      const toRow = new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
      cache.set(sql, (rows = { statement, toRow }));
    }
    return rows;
  }

  run(sql: string, params: unknown[] = []): Database.RunResult {
    return this.prepare(sql).run(...params);
  }

  private acquireReader(): Db {
    const idle = this.#idle.pop();
    if (idle) return idle;
    if (this.#file === ':memory:') return this.writer;
    const db = new Database(this.#file, { readonly: true, fileMustExist: true });
    this.#functions(db);
    db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    db.pragma('cache_size = -32768');
    return db;
  }

  private releaseReader(db: Db): void {
    if (db === this.writer) return;
    if (this.#idle.length < READ_POOL_SIZE) this.#idle.push(db);
    else db.close();
  }

  close(): void {
    for (const db of this.#idle.splice(0)) db.close();
    this.history.close();
    this.writer.close();
  }
}

/** Seconds since `began` (a performance.now() reading), for progress lines: "1.2 s". */
export const seconds = (began: number): string => `${((performance.now() - began) / 1000).toFixed(1)} s`;
