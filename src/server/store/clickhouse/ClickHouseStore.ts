/**
 * The scale-out backend: every table in one ClickHouse database, reached over HTTP. The Weft
 * process keeps nothing but caches, so any number of replicas can share one database.
 * Every sub-store passes the same conformance suites as SQLite's (store/conformance/).
 */
import type { FilesStore, ProjectsStore, Store, TablesStore, ThreadsStore } from '../Store.js';
import type { StatsStore } from '../StatsStore.js';
import { startWrite, type BatchResults, type WriteBatch } from '../WriteBatch.js';
import { ClickHouseAccountsStore } from './accounts.js';
import { ClickHouseIdentitiesStore } from './identities.js';
import { ClickHouseAnnotationQueuesStore } from './annotationQueues.js';
import { ClickHouseAuditStore } from './audit.js';
import { ClickHouseCallsStore } from './calls.js';
import { ClickHouseSearchIndexer } from './callSearchIndexer.js';
import { ClickHouseCostsStore } from './costs.js';
import { checkFeedbackRows, ClickHouseFeedbackStore } from './feedback.js';
import { ASYNC_INSERT_SETTINGS, ClickHouseDatabase, type ClickHouseOptions } from './ClickHouseDatabase.js';
import { ClickHouseGroupCommit, GROUPABLE } from './groupCommit.js';
import { ClickHouseSpool } from './spool.js';
import { DEFAULT_THREAD_SNAPSHOTS } from './threadSnapshots.js';
import { appliedVersion, checkServerVersion } from './migrate.js';
import { LATEST_CLICKHOUSE_VERSION } from './migrations/index.js';
import { ClickHouseFilesStore } from './files.js';
import { ClickHouseJobsStore } from './jobs.js';
import { ClickHouseMonitorsStore } from './monitors.js';
import { ClickHouseObjectsStore } from './objects.js';
import { ClickHouseProjectsStore } from './projects.js';
import { ClickHouseProvidersStore } from './providers.js';
import { ClickHouseRedactionStore } from './redaction.js';
import { ClickHouseAlertsStore } from './alerts.js';
import { ClickHouseRetentionStore } from './retention.js';
import { ClickHouseStatsStore } from './stats.js';
import { ClickHouseTablesStore } from './tables.js';
import { ClickHouseThreadsStore } from './threads.js';

/** `/project/stats` sizes of the sub-stores built so far (the calls' is in projects.ts). */
const PROJECT_SIZES = {
  tables: `SELECT sum(length(val)) AS n FROM table_rows FINAL WHERE project_id = {p:String}`,
  files: 'SELECT sum(size_bytes) AS n FROM files FINAL WHERE project_id = {p:String} AND expired_at IS NULL',
  objects: 'SELECT sum(size_bytes) AS n FROM object_versions FINAL WHERE project_id = {p:String} AND deleted_at IS NULL',
};

export class ClickHouseStore implements Store {
  readonly backend = 'clickhouse';
  readonly db: ClickHouseDatabase;
  readonly calls: ClickHouseCallsStore;
  readonly projects: ProjectsStore;
  readonly accounts: ClickHouseAccountsStore;
  readonly threads: ThreadsStore;
  readonly objects: ClickHouseObjectsStore;
  readonly tables: TablesStore;
  readonly files: FilesStore;
  readonly feedback: ClickHouseFeedbackStore;
  readonly costs: ClickHouseCostsStore;
  readonly stats: StatsStore;
  readonly annotationQueues: ClickHouseAnnotationQueuesStore;
  readonly providers: ClickHouseProvidersStore;
  readonly redaction: ClickHouseRedactionStore;
  readonly jobs: ClickHouseJobsStore;
  readonly monitors: ClickHouseMonitorsStore;
  readonly audit: ClickHouseAuditStore;
  readonly identities: ClickHouseIdentitiesStore;
  readonly retention: ClickHouseRetentionStore;
  /** How applyLast writes (docs/clickhouse.md "Small writes"): merged with other requests', or by the engine's async inserts. */
  readonly groupCommit: ClickHouseGroupCommit | null;
  readonly #asyncWriter: ClickHouseStore | null;
  /** For `spool`: the local file small writes are acknowledged from (spool.ts), and the store its flusher writes through. */
  readonly spool: ClickHouseSpool | null = null;
  readonly #spoolWriter: ClickHouseStore | null = null;
  #readYourWrites: ClickHouseStore | null = null;
  readonly alerts: ClickHouseAlertsStore;
  /**
   * The substring search's background indexer (callSearchIndexer.ts), told of every call write
   * through this store and the stores made from it; null for a store opened without one.
   */
  #searchIndexer: ClickHouseSearchIndexer | null = null;

  /**
   * `options`: the store's own connection settings, for the small writes' way (absent for the
   * stores made from this one). `shared`: the sub-stores that keep state in the process (the
   * audit chain's head, the job runner's and monitor sweeper's), which the readYourWrites
   * sibling takes from this store.
   */
  private constructor(
    db: ClickHouseDatabase,
    {
      options = null,
      shared,
    }: {
      options?: ClickHouseOptions | null;
      shared?: Pick<ClickHouseStore, 'audit' | 'jobs' | 'monitors' | 'accounts' | 'identities'>;
    } = {},
  ) {
    this.db = db;
    if (shared) this.#readYourWrites = this;
    this.calls = new ClickHouseCallsStore(db);
    this.projects = new ClickHouseProjectsStore(db, PROJECT_SIZES);
    // Credentials and sessions read their own writes on every replica, so a revoked key or an
    // ended session is never read back as live (docs/clickhouse.md "Read-your-writes on a replicated cluster").
    this.accounts = shared?.accounts ?? new ClickHouseAccountsStore(db.consistent);
    this.tables = new ClickHouseTablesStore(db);
    this.stats = new ClickHouseStatsStore(db);
    this.threads = new ClickHouseThreadsStore(db, options?.threadSnapshots === false ? null : DEFAULT_THREAD_SNAPSHOTS);
    this.objects = new ClickHouseObjectsStore(db);
    this.files = new ClickHouseFilesStore(db);
    this.feedback = new ClickHouseFeedbackStore(db);
    this.costs = new ClickHouseCostsStore(db);
    // Jobs: a job queued through one replica is claimed, and its progress read, through any other.
    this.jobs = shared?.jobs ?? new ClickHouseJobsStore(db.consistent);
    // Statements that need not wait for the spool's barrier: redaction rules are never spooled,
    // and the monitor sweep sees spooled call ends at its next pass (docs/clickhouse.md "The spool").
    const mode = options?.smallWrites ?? 'group';
    const unbarriered = options && mode === 'spool' ? db.copy() : db;
    this.monitors = shared?.monitors ?? new ClickHouseMonitorsStore(unbarriered, this.jobs);
    this.annotationQueues = new ClickHouseAnnotationQueuesStore(db, () => this.feedback);
    this.providers = new ClickHouseProvidersStore(db);
    this.redaction = new ClickHouseRedactionStore(unbarriered);
    this.audit = shared?.audit ?? new ClickHouseAuditStore(db);
    this.identities = shared?.identities ?? new ClickHouseIdentitiesStore(db.consistent);
    this.retention = new ClickHouseRetentionStore(db, () => this.feedback);
    this.alerts = new ClickHouseAlertsStore(db);
    this.groupCommit = options && mode === 'group' ? new ClickHouseGroupCommit((batch) => this.apply(batch)) : null;
    // The same sub-stores over a connection whose inserts are async (its reads are as any other's).
    this.#asyncWriter =
      options && mode === 'async'
        ? new ClickHouseStore(new ClickHouseDatabase(options, { versions: db.versions, settings: ASYNC_INSERT_SETTINGS }))
        : null;
    if (options && mode === 'spool') {
      if (!options.spool) throw new Error('WEFT_CLICKHOUSE_SMALL_WRITES=spool needs a spool file (WEFT_DATA_DIR).');
      // The flusher's own connection: its statements must not wait for the barrier they serve.
      const writer = new ClickHouseStore(new ClickHouseDatabase(options, { versions: db.versions }));
      this.#spoolWriter = writer;
      this.spool = new ClickHouseSpool({
        ...options.spool,
        send: async (batch) => {
          for (const write of batch) await startWrite(writer, write);
        },
      });
      const spool = this.spool;
      // Not on `db.consistent`: accounts, keys and jobs read nothing the spool holds, and their
      // once-a-second polls would flush it every second.
      db.barrier = () => spool.barrier();
    }
  }

  /**
   * This store with every statement sent as `db.consistent` sends it; itself when quorum is off
   * (one server, or a cluster without replicas), where every read already sees every write.
   */
  readYourWrites(): ClickHouseStore {
    if (!this.db.quorum) return this;
    if (!this.#readYourWrites) {
      // With the spool, its reads wait for the spool as every other read of this server does.
      const db = this.spool ? this.db.copy(true) : this.db.consistent;
      db.barrier = this.db.barrier;
      this.#readYourWrites = new ClickHouseStore(db, { shared: this });
      this.#readYourWrites.calls.searchIndexer = this.#searchIndexer;
    }
    return this.#readYourWrites;
  }

  /**
   * Connects, and refuses with a clear message when the server is older than 25.8 or the
   * database's schema is not this build's (run `weft migrate` first).
   */
  static async open(options: ClickHouseOptions): Promise<ClickHouseStore> {
    const db = new ClickHouseDatabase(options);
    try {
      await checkServerVersion(db);
      if ((options.quorum ?? 'auto') === 'auto') db.quorum = await db.hasReplicatedTables();
      const applied = await appliedVersion(db);
      if (applied < LATEST_CLICKHOUSE_VERSION) {
        throw new Error(
          `ClickHouse database "${options.database}" has schema version ${applied}; this Weft needs ${LATEST_CLICKHOUSE_VERSION}. ` +
            'Run `weft migrate` (with the same WEFT_CLICKHOUSE_* settings) first.',
        );
      }
      if (applied > LATEST_CLICKHOUSE_VERSION) {
        throw new Error(
          `ClickHouse database "${options.database}" has schema version ${applied}, newer than this Weft knows (${LATEST_CLICKHOUSE_VERSION}); upgrade Weft.`,
        );
      }
    } catch (err) {
      await db.close();
      // The client's own error is a long dump that never says what to do.
      if (/UNKNOWN_DATABASE|Database \S+ does not exist/.test(String((err as Error).message ?? err))) {
        throw new Error(
          `ClickHouse database "${options.database}" does not exist at ${options.url}. Create it with \`weft migrate\` (with the same WEFT_CLICKHOUSE_* settings), then start again.`,
          { cause: err },
        );
      }
      throw err;
    }
    const store = new ClickHouseStore(db, { options });
    try {
      await store.costs.seedDefaults();
    } catch (err) {
      await db.close();
      throw err;
    }
    if (options.searchIndexer !== false) store.#startSearchIndexer();
    return store;
  }

  /**
   * ClickHouse has no multi-table transactions, so this keeps Store.apply's promise for such a
   * backend: every write that can be refused is checked before anything is written (an object's
   * name/type collision, a feedback row missing a required value, an annotation progress change), then the writes are applied in order, each awaited, each idempotent,
   * and the first failure rejects. A crash part-way leaves a prefix written, and the caller's
   * retry of the same batch converges (the "call writes in any order, retried" suite).
   */
  async apply<const B extends WriteBatch>(batch: B): Promise<BatchResults<B>> {
    await this.#check(batch);
    const results: unknown[] = [];
    for (const write of batch) results.push(await startWrite(this, write));
    return results as BatchResults<B>;
  }

  /** What `apply` refuses before it writes anything. */
  async #check(batch: WriteBatch): Promise<void> {
    for (const write of batch) {
      if (write.kind === 'objects.create') await this.objects.checkCreate(write.object);
      if (write.kind === 'feedback.create') checkFeedbackRows(write.rows);
      if (write.kind === 'feedback.replace') checkFeedbackRows([write.replace.row]);
      // A refused or missing progress change refuses the batch, answers included.
      if (write.kind === 'queues.progress') await this.annotationQueues.checkProgress(write.progress);
    }
  }

  async applyLast(batch: WriteBatch): Promise<void> {
    if (this.spool && batch.every((w) => GROUPABLE.has(w.kind))) {
      // Checked first, as apply does, so what is acknowledged is what the flusher can send.
      await this.#check(batch);
      await this.spool.append(batch);
    } else if (this.groupCommit) await this.groupCommit.submit(batch);
    else if (this.#asyncWriter) await this.#asyncWriter.apply(batch);
    else await this.apply(batch);
  }

  /**
   * Indexes the search queue in the background (docs/search.md "How each backend finds them"), reading with the
   * quorum settings: a replica must see a queued part's call before indexing past it.
   */
  #startSearchIndexer(): void {
    const indexer = new ClickHouseSearchIndexer(this.db.consistent);
    this.#searchIndexer = indexer;
    for (const store of [this, this.#asyncWriter, this.#spoolWriter]) if (store) store.calls.searchIndexer = indexer;
    indexer.start();
  }

  async close(): Promise<void> {
    await this.#searchIndexer?.stop();
    // Writes already taken are written (and answered) before the connection goes.
    await this.groupCommit?.idle();
    await this.spool?.close();
    await this.#spoolWriter?.close();
    await this.#asyncWriter?.close();
    await this.db.close();
  }
}
