/**
 * The storage seam. Every backend (SQLite now, ClickHouse later) implements `Store`, and
 * `store/conformance/` holds the one test suite all of them must pass unchanged.
 *
 * Contract for implementers:
 * - each write method applies fully or not at all;
 * - a write is durable when its promise resolves (the HTTP answer follows it);
 * - every read and write is scoped to the `projectId` it is given;
 * - times are epoch microseconds; the wire formatting lives in `domain/`.
 */
import type { AccountsStore } from './AccountsStore.js';
import type { AnnotationQueuesStore } from './AnnotationQueuesStore.js';
import type { CallsStore } from './CallsStore.js';
import type { CostsStore } from './CostsStore.js';
import type { FeedbackStore } from './FeedbackStore.js';
import type { FilesStore } from './FilesStore.js';
import type { JobsStore } from './JobsStore.js';
import type { ObjectsStore } from './ObjectsStore.js';
import type { ProjectsStore } from './ProjectsStore.js';
import type { ProvidersStore } from './ProvidersStore.js';
import type { StatsStore } from './StatsStore.js';
import type { TablesStore } from './TablesStore.js';
import type { ThreadsStore } from './ThreadsStore.js';

// One file per group; the types stay importable from here, where most callers look for them.
export type * from './AccountsStore.js';
export type * from './CallsStore.js';
export type * from './FilesStore.js';
export type * from './ObjectsStore.js';
export type * from './ProjectsStore.js';
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
  /**
   * Applies the writes `start` begins as one transaction: every one of them or none, for a
   * request whose side effects span sub-stores (a score is a call plus feedback on its
   * prediction). `start` must begin all its writes synchronously — call the write methods one
   * after another without awaiting (do the reads before) — and return their promises. Writes
   * begun any other way are not covered.
   */
  transaction(start: () => Promise<unknown>[]): Promise<void>;
  close(): Promise<void>;
}
