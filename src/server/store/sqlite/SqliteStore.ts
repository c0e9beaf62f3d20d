/** The embedded default backend: one SQLite file (WAL) holding every table. */
import { CallSearchIndexer } from './callSearch.js';
import type { Store } from '../Store.js';
import { startWrite, type BatchResults, type WriteBatch } from '../WriteBatch.js';
import { SqliteAccountsStore } from './accounts.js';
import { SqliteAnnotationQueuesStore } from './annotationQueues.js';
import { SqliteAuditStore } from './audit.js';
import { SqliteCallsStore } from './calls.js';
import { SqliteCostsStore } from './costs.js';
import { SqliteFeedbackStore } from './feedback.js';
import { SqliteFilesStore } from './files.js';
import { SqliteIdentitiesStore } from './identities.js';
import { SqliteJobsStore } from './jobs.js';
import { SqliteMonitorsStore } from './monitors.js';
import { SqliteProvidersStore } from './providers.js';
import { SqliteRedactionStore } from './redaction.js';
import { SqliteAlertsStore } from './alerts.js';
import { SqliteObjectsStore } from './objects.js';
import { SqliteProjectsStore } from './projects.js';
import { SqliteRetentionStore } from './retention.js';
import { SqliteDatabase, type SqliteOptions } from './SqliteDatabase.js';
import { SqliteStatsStore } from './stats.js';
import { SqliteTablesStore } from './tables.js';
import { SqliteThreadsStore } from './threads.js';
import { ThreadCostRepricer } from './threadCostsKept.js';

export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  readonly db: SqliteDatabase;
  readonly calls: SqliteCallsStore;
  readonly threads: SqliteThreadsStore;
  readonly projects: SqliteProjectsStore;
  readonly accounts: SqliteAccountsStore;
  readonly feedback: SqliteFeedbackStore;
  readonly costs: SqliteCostsStore;
  readonly stats: SqliteStatsStore;
  readonly objects: SqliteObjectsStore;
  readonly tables: SqliteTablesStore;
  readonly files: SqliteFilesStore;
  readonly annotationQueues: SqliteAnnotationQueuesStore;
  readonly providers: SqliteProvidersStore;
  readonly redaction: SqliteRedactionStore;
  readonly jobs: SqliteJobsStore;
  readonly monitors: SqliteMonitorsStore;
  readonly audit: SqliteAuditStore;
  readonly identities: SqliteIdentitiesStore;
  readonly retention: SqliteRetentionStore;
  readonly alerts: SqliteAlertsStore;

  readonly file: string;

  constructor(file: string, options: SqliteOptions = {}) {
    this.file = file;
    this.db = new SqliteDatabase(file, options);
    this.calls = new SqliteCallsStore(this.db);
    this.threads = new SqliteThreadsStore(this.db);
    this.projects = new SqliteProjectsStore(this.db);
    this.accounts = new SqliteAccountsStore(this.db);
    this.feedback = new SqliteFeedbackStore(this.db);
    this.costs = new SqliteCostsStore(this.db);
    this.stats = new SqliteStatsStore(this.db);
    this.objects = new SqliteObjectsStore(this.db);
    this.tables = new SqliteTablesStore(this.db);
    this.files = new SqliteFilesStore(this.db);
    this.annotationQueues = new SqliteAnnotationQueuesStore(this.db);
    this.providers = new SqliteProvidersStore(this.db);
    this.redaction = new SqliteRedactionStore(this.db);
    this.jobs = new SqliteJobsStore(this.db);
    this.monitors = new SqliteMonitorsStore(this.db);
    this.audit = new SqliteAuditStore(this.db);
    this.identities = new SqliteIdentitiesStore(this.db);
    this.retention = new SqliteRetentionStore(this.db);
    if (!this.db.readOnly) this.calls.searchIndexer = this.#indexer = new CallSearchIndexer(this.db);
    if (!this.db.readOnly) this.#repricer = new ThreadCostRepricer(this.db);
    this.alerts = new SqliteAlertsStore(this.db);
  }

  /** Prices threads again after a price change, in the background (threadCostsKept.ts). */
  readonly #repricer: ThreadCostRepricer | null = null;

  /** Indexes call writes for the substring search in the background (callSearch.ts). */
  readonly #indexer: CallSearchIndexer | null = null;

  async apply<const B extends WriteBatch>(batch: B): Promise<BatchResults<B>> {
    let started: Promise<unknown>[] = [];
    try {
      // Each SQLite write method runs its statements as soon as it is called (better-sqlite3 is
      // synchronous), so every write of the batch lands inside this one transaction, and any
      // failure, even one only visible as a rejected promise, rolls all of them back.
      this.db.atomically(() => {
        started = batch.map((write) => startWrite(this, write));
      });
    } finally {
      // The promises are settled by now; a failure was rethrown above, so mark theirs handled.
      for (const p of started) p.catch(() => {});
    }
    return (await Promise.all(started)) as BatchResults<B>;
  }

  async applyLast(batch: WriteBatch): Promise<void> {
    await this.apply(batch);
  }

  async close(): Promise<void> {
    this.#indexer?.stop();
    this.#repricer?.stop();
    await this.db.checkpointer?.stop();
    this.db.close();
  }
}
