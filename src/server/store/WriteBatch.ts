/**
 * Writes as data. A request whose side effects span sub-stores (a score is a call plus feedback
 * on its prediction; a provider is its record plus its price rows) describes them as a
 * `WriteBatch`, a plain list of tagged writes, and hands it to `Store.apply`. Being data, a batch
 * can be validated before anything is written, ordered by table, sent to another thread, or
 * retried; a closure could only be run, and only by a single-connection engine.
 *
 * Each write's payload is the argument of the sub-store method of the same name, so a batched
 * write and a single call mean exactly the same thing.
 */
import type { AnnotationQueuesStore } from './AnnotationQueuesStore.js';
import type { CostsStore } from './CostsStore.js';
import type { FeedbackStore } from './FeedbackStore.js';
import type { JobsStore } from './JobsStore.js';
import type { MonitorsStore } from './MonitorsStore.js';
import type { ProvidersStore } from './ProvidersStore.js';
import type { CallsStore } from './CallsStore.js';
import type { FilesStore } from './FilesStore.js';
import type { ObjectsStore } from './ObjectsStore.js';
import type { TablesStore } from './TablesStore.js';

type Arg<F> = F extends (arg: infer A) => unknown ? A : never;

/** One write of a batch, named `<sub-store>.<verb>`. */
export type StoreWrite =
  | { kind: 'files.create'; file: Arg<FilesStore['createFile']> }
  | { kind: 'tables.create'; table: Arg<TablesStore['createTable']> }
  | { kind: 'objects.create'; object: Arg<ObjectsStore['createObject']> }
  | { kind: 'calls.write'; calls: Arg<CallsStore['writeCalls']> }
  | { kind: 'calls.delete'; delete: Arg<CallsStore['deleteCalls']> }
  | { kind: 'feedback.create'; rows: Arg<FeedbackStore['createFeedback']> }
  | { kind: 'feedback.replace'; replace: Arg<FeedbackStore['replaceFeedback']> }
  | { kind: 'feedback.purge'; purge: Arg<FeedbackStore['purgeFeedback']> }
  | { kind: 'costs.create'; prices: Arg<CostsStore['createPrices']> }
  | { kind: 'costs.purge'; purge: Arg<CostsStore['purgePrices']> }
  | { kind: 'queues.progress'; progress: Arg<AnnotationQueuesStore['recordProgress']> }
  | { kind: 'providers.save'; provider: Arg<ProvidersStore['saveProvider']> }
  | { kind: 'providers.delete'; delete: Arg<ProvidersStore['deleteProvider']> }
  | { kind: 'jobs.enqueue'; job: Arg<JobsStore['enqueue']> }
  | { kind: 'monitors.ack'; ack: Arg<MonitorsStore['ackEnded']> };

export type StoreWriteKind = StoreWrite['kind'];

/** The writes of one request, applied together by `Store.apply`. */
export type WriteBatch = readonly StoreWrite[];

/** What each write answers, as its sub-store method does (nothing, a count, or whether it found its target). */
interface WriteResults {
  'files.create': void;
  'tables.create': void;
  'objects.create': void;
  'calls.write': void;
  /** Calls newly marked deleted, descendants included. */
  'calls.delete': number;
  'feedback.create': void;
  /** Whether the replaced feedback existed. */
  'feedback.replace': boolean;
  /** Feedback rows removed. */
  'feedback.purge': number;
  'costs.create': void;
  /** Price rows removed. */
  'costs.purge': number;
  /** The state written (null when the record was kept as it was). */
  'queues.progress': Awaited<ReturnType<AnnotationQueuesStore['recordProgress']>>;
  'providers.save': void;
  /** Whether the provider existed. */
  'providers.delete': boolean;
  'jobs.enqueue': void;
  /** Whether this process settled the batch (false: another one did first). */
  'monitors.ack': boolean;
}

export type WriteResult<W extends StoreWrite> = WriteResults[W['kind']];

/** The results of a batch, position by position (a tuple when the batch is one). */
export type BatchResults<B extends WriteBatch> = { -readonly [K in keyof B]: B[K] extends StoreWrite ? WriteResult<B[K]> : never };

/** The sub-stores a batch writes to (a `Store` is one; named here so Store.ts and this file do not import each other). */
export interface BatchStores {
  files: FilesStore;
  tables: TablesStore;
  objects: ObjectsStore;
  calls: CallsStore;
  feedback: FeedbackStore;
  costs: CostsStore;
  annotationQueues: AnnotationQueuesStore;
  providers: ProvidersStore;
  jobs: JobsStore;
  monitors: MonitorsStore;
}

/**
 * Starts one write through its sub-store method. On SQLite the statements run before this
 * returns (better-sqlite3 is synchronous), which is what lets `SqliteStore.apply` wrap a whole
 * batch in one transaction; a backend whose methods really are asynchronous awaits each in turn.
 */
export function startWrite(store: BatchStores, write: StoreWrite): Promise<unknown> {
  switch (write.kind) {
    case 'files.create':
      return store.files.createFile(write.file);
    case 'tables.create':
      return store.tables.createTable(write.table);
    case 'objects.create':
      return store.objects.createObject(write.object);
    case 'calls.write':
      return store.calls.writeCalls(write.calls);
    case 'calls.delete':
      return store.calls.deleteCalls(write.delete);
    case 'feedback.create':
      return store.feedback.createFeedback(write.rows);
    case 'feedback.replace':
      return store.feedback.replaceFeedback(write.replace);
    case 'feedback.purge':
      return store.feedback.purgeFeedback(write.purge);
    case 'costs.create':
      return store.costs.createPrices(write.prices);
    case 'costs.purge':
      return store.costs.purgePrices(write.purge);
    case 'queues.progress':
      return store.annotationQueues.recordProgress(write.progress);
    case 'providers.save':
      return store.providers.saveProvider(write.provider);
    case 'providers.delete':
      return store.providers.deleteProvider(write.delete);
    case 'jobs.enqueue':
      return store.jobs.enqueue(write.job);
    case 'monitors.ack':
      return store.monitors.ackEnded(write.ack);
  }
}

/** Rows of work in a write (a list weighs its length, anything else 1): for sizing group commits. */
export function writeWeight(write: StoreWrite): number {
  switch (write.kind) {
    case 'calls.write':
      return Math.max(1, write.calls.length);
    case 'feedback.create':
      return Math.max(1, write.rows.length);
    case 'costs.create':
      return Math.max(1, write.prices.length);
    case 'tables.create':
      return Math.max(1, write.table.rows.length);
    default:
      return 1;
  }
}
