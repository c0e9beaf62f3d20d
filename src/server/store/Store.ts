/**
 * The storage seam. Every backend (SQLite, ClickHouse) implements `Store`, and
 * `store/conformance/` holds the one test suite all of them must pass unchanged.
 *
 * Records are store-shaped: what a store answers has camelCase fields and epoch-µs times, and
 * `domain/` or `routes/` make the wire shape. Wire-shaped by exception: calls (`CallRecord`,
 * `ChildInput`, made by one converter for every backend, query/callRow.ts, and streamed as they
 * are) and the flat-table reads (`queryFeedback`, `queryPrices`, `feedbackForRefs`), whose query
 * language names wire columns. See docs/architecture.md "The store's backends".
 *
 * Contract for implementers:
 * - each write method applies fully or not at all; writes that must land together go in one
 *   `WriteBatch` given to `apply` (see there for what a backend without transactions promises);
 * - a write is durable when its promise resolves (the HTTP answer follows it);
 * - every read and write is scoped to the `projectId` it is given;
 * - times are epoch microseconds in what a store is given and (records above) answers.
 */
import type { AccountsStore } from './AccountsStore.js';
import type { AlertsStore } from './AlertsStore.js';
import type { AnnotationQueuesStore } from './AnnotationQueuesStore.js';
import type { AuditStore } from './AuditStore.js';
import type { CallsStore } from './CallsStore.js';
import type { CostsStore } from './CostsStore.js';
import type { FeedbackStore } from './FeedbackStore.js';
import type { FilesStore } from './FilesStore.js';
import type { IdentitiesStore } from './IdentitiesStore.js';
import type { JobsStore } from './JobsStore.js';
import type { MonitorsStore } from './MonitorsStore.js';
import type { ObjectsStore } from './ObjectsStore.js';
import type { ProjectsStore } from './ProjectsStore.js';
import type { ProvidersStore } from './ProvidersStore.js';
import type { RedactionStore } from './RedactionStore.js';
import type { RetentionStore } from './RetentionStore.js';
import type { StatsStore } from './StatsStore.js';
import type { TablesStore } from './TablesStore.js';
import type { ThreadsStore } from './ThreadsStore.js';
import type { BatchResults, WriteBatch } from './WriteBatch.js';

// One file per group; the types stay importable from here, where most callers look for them.
export type * from './AccountsStore.js';
export type * from './CallsStore.js';
export type * from './FilesStore.js';
export type * from './IdentitiesStore.js';
export type * from './ObjectsStore.js';
export type * from './ProjectsStore.js';
export type * from './RetentionStore.js';
export type * from './TablesStore.js';
export type * from './ThreadsStore.js';

export interface Store {
  readonly backend: string;
  readonly calls: CallsStore;
  readonly threads: ThreadsStore;
  readonly objects: ObjectsStore;
  readonly tables: TablesStore;
  readonly files: FilesStore;
  readonly projects: ProjectsStore;
  readonly accounts: AccountsStore;
  /** Feedback on calls and other refs (FeedbackStore.ts). */
  readonly feedback: FeedbackStore;
  /** LLM prices, default-level and per project (CostsStore.ts). */
  readonly costs: CostsStore;
  /** Call statistics: call facts and pre-aggregated rollup cells (StatsStore.ts). */
  readonly stats: StatsStore;
  /** Annotation queues, their items and per-annotator progress (AnnotationQueuesStore.ts). */
  readonly annotationQueues: AnnotationQueuesStore;
  /** Each project's model providers, keys sealed (ProvidersStore.ts). */
  readonly providers: ProvidersStore;
  /** The durable background-job queue (JobsStore.ts). */
  readonly jobs: JobsStore;
  /** Calls that ended in projects with monitors, waiting for the monitor sweeper (MonitorsStore.ts). */
  readonly monitors: MonitorsStore;
  /** Redaction rules per project and entity (RedactionStore.ts). */
  readonly redaction: RedactionStore;
  /** The append-only, hash-chained audit log (AuditStore.ts). */
  readonly audit: AuditStore;
  /** Single sign-on identities linked to users (IdentitiesStore.ts). */
  readonly identities: IdentitiesStore;
  /** Retention rules and the expiry of calls past them (RetentionStore.ts). */
  readonly retention: RetentionStore;
  /** Alert rules and their firings (AlertsStore.ts). */
  readonly alerts: AlertsStore;
  /**
   * Applies a batch of writes across sub-stores (a score is a call plus feedback on its
   * prediction) and answers each write's result, position by position. The writes are applied
   * in order, so a later write may depend on an earlier one (feedback on a call in the batch).
   *
   * - A backend with multi-table transactions (SQLite) applies the batch fully or not at all:
   *   when one write is refused, none is visible and the promise rejects with its error.
   * - A backend without them (ClickHouse) must instead (1) refuse, before writing anything,
   *   every batch that it can tell would fail (validate every row against its tables first), so
   *   bad input still leaves nothing; (2) make every write idempotent (keyed by ids and digests,
   *   merged by the engine), so a batch applied twice equals it applied once; and (3) reject when
   *   any write did not land. A crash or network failure part-way may then leave a prefix
   *   written, and the caller's retry of the same batch converges to the all-applied state.
   *   Results (counts, found-or-not) describe what this attempt changed, so a retry may count less.
   */
  apply<const B extends WriteBatch>(batch: B): Promise<BatchResults<B>>;
  /**
   * `apply` for a request's last writes, whose results it does not use (a call's start or end,
   * a prediction, a score). A store behind request threads hands the batch to the writer and returns at once, so
   * the request builds its answer while the batch commits; the answer still leaves only after the
   * commit, and becomes the commit's error when there is none (threads/requestThreads.ts). So it
   * must be the request's last store call: a read after it may not see the batch yet. Every
   * other store simply applies the batch.
   */
  applyLast(batch: WriteBatch): Promise<void>;
  /**
   * The same store, for a request whose reads must see the writes acknowledged before it on any
   * replica (the v2 evaluation API: a run, then its predictions, then its scores, possibly
   * through different Weft processes and ClickHouse replicas). Absent where every read already
   * does (SQLite); on ClickHouse its statements carry the quorum settings on a replicated cluster
   * (docs/clickhouse.md "Read-your-writes on a replicated cluster").
   */
  readYourWrites?(): Store;
  close(): Promise<void>;
}
