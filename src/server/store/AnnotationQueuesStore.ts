/**
 * The annotation-queue part of the storage seam (see Store.ts for the contract every store
 * keeps): queues, their items (one per call, caching call fields) and per-annotator progress.
 *
 * A soft-deleted queue hides everything under it: it is absent from every read, and its items
 * can be neither listed, added to nor progressed. The rows stay, so nothing is lost.
 */
import type { AnnotationQueueItemsFilter, AnnotationState } from '../../contract/annotationQueues.js';

/** A state a progress record can hold (`unstarted` is the absence of a record). */
export type ProgressState = Exclude<AnnotationState, 'unstarted'>;

/** A queue; times in epoch microseconds. */
/**
 * A queue's counts: every item, those completed or skipped by anyone (the reference's
 * completed_items), and those with reviewers_per_item completed reviews (reviewProgress's
 * `reviewed`).
 */
export interface QueueStatsRecord {
  total: number;
  completed: number;
  reviewed: number;
}

export interface QueueRecord {
  projectId: string;
  id: string;
  name: string;
  description: string;
  scorerRefs: string[];
  /** Call paths reviewers see; null when none were chosen. */
  displayFields: string[] | null;
  /** Reviewers wanted per item (Weft); 1 unless chosen. */
  reviewersPerItem: number;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

/** A queue item with its aggregated state; times in epoch microseconds. */
export interface QueueItemRecord {
  projectId: string;
  queueId: string;
  id: string;
  callId: string;
  callStartedAt: number;
  callEndedAt: number | null;
  callOpName: string;
  callTraceId: string;
  displayFields: string[];
  addedBy: string | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /** The state of the most recently updated progress record, `unstarted` without one. */
  annotationState: AnnotationState;
  /** The annotator of that record, null without one. */
  annotatorUserId: string | null;
  /** 1-based, when asked for. */
  positionInQueue: number | null;
  /** Set when the item is a whole conversation (its call is the thread's first turn). */
  threadId: string | null;
  /** Reviewers whose record says completed. */
  completedReviews: number;
  /** The holder of an unexpired reservation, if any. */
  reservedBy: string | null;
}

/** A sort key whose field the domain has already checked against the allowed list. */
export interface QueueSort<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

export type QueueSortField = 'id' | 'name' | 'created_at' | 'updated_at';
export type ItemSortField = 'call_started_at' | 'call_op_name' | 'created_at' | 'updated_at';

/** The annotator's record as a progress change sees it: a state, or `none` without a record. */
export type CurrentProgress = ProgressState | 'none';

/** What a progress change does from one current state. */
export type ProgressOutcome =
  /** Store this state (the record becomes the item's latest). */
  | { write: ProgressState }
  /** Leave everything as it is and answer the item (an idempotent retry). */
  | { keep: true }
  /** Refuse with this message (a 400); nothing of the write, or of its batch, is applied. */
  | { refuse: string };

/**
 * A progress change as data: the outcome for every state the annotator's record may be in.
 * The domain tabulates its transition rules into this (domain/annotation/annotationQueues.ts), so deciding
 * needs no code from the caller: any backend applies it from the state it reads, and it crosses
 * to the writer thread (threads/) like any other write argument.
 */
export type ProgressChange = Readonly<Record<CurrentProgress, ProgressOutcome>>;
/** A queue listing. */
export interface QueuesQuery {
  projectId: string;
  /** Case-insensitive substring of the name. */
  name?: string | null;
  sortBy: QueueSort<QueueSortField>[];
  limit?: number | null;
  offset?: number | null;
}

/** New values for a queue; undefined keeps the old one. */
export interface QueueUpdate {
  projectId: string;
  queueId: string;
  name?: string;
  description?: string;
  scorerRefs?: string[];
  displayFields?: string[];
  reviewersPerItem?: number;
  updatedAt: number;
}

export interface AddCallsReq {
  projectId: string;
  queueId: string;
  callIds: string[];
  displayFields: string[];
  addedBy: string;
  createdAt: number;
}

export interface ItemsQuery {
  projectId: string;
  queueId: string;
  filter?: AnnotationQueueItemsFilter | null;
  sortBy: QueueSort<ItemSortField>[];
  limit?: number | null;
  offset?: number | null;
  includePosition: boolean;
  /** Reservations expiring at or before this time (epoch microseconds) are not shown; default now. */
  now?: number;
}

/**
 * One annotator's progress write on an item (the `queues.progress` write of a batch). Answers
 * written with it (a submit's feedback) go in the same batch after it, so a refusal leaves
 * neither; a `keep` outcome does not stop them, so only pair them with changes that never keep.
 */
export interface ProgressWrite {
  projectId: string;
  queueId: string;
  itemId: string;
  annotator: string;
  change: ProgressChange;
  /**
   * When the change writes a state: first move the annotator's current answers on this item
   * (queue feedback on `weaveRef`) to the superseded history. Used by edits.
   */
  supersede?: { weaveRef: string };
  now: number;
}

/** What a progress write did: the state written, null when the change kept the record as it was. */
export interface ProgressResult {
  written: ProgressState | null;
}

export interface AddThreadsReq {
  projectId: string;
  queueId: string;
  threadIds: string[];
  displayFields: string[];
  addedBy: string;
  createdAt: number;
}

export interface ReserveNextReq {
  projectId: string;
  queueId: string;
  annotator: string;
  /** Epoch microseconds. */
  now: number;
  expiresAt: number;
  /** Prefer the first candidate after this item in queue order (wrapping). */
  afterItemId?: string | null;
}

/** One annotator's record on an item. */
export interface ProgressRecord {
  itemId: string;
  annotator: string;
  state: ProgressState;
  updatedAt: number;
}

/** A queue answer (a feedback row carrying the queue id), current or superseded. */
export interface QueueAnswerRecord {
  id: string;
  weaveRef: string;
  annotator: string;
  annotationRef: string | null;
  payloadJson: string;
  createdAt: number;
  /** Null for a current answer. */
  supersededAt: number | null;
}

/** An unexpired reservation. */
export interface ReservationRecord {
  itemId: string;
  annotator: string;
  expiresAt: number;
}

export interface AnnotationQueuesStore {
  createQueue(queue: Omit<QueueRecord, 'deletedAt'>): Promise<void>;
  /** Live queues in order; ties by id ascending; default created_at descending. */
  queryQueues(query: QueuesQuery): AsyncIterable<QueueRecord>;
  /** A live queue, or null when unknown or deleted. */
  readQueue(req: { projectId: string; queueId: string }): Promise<QueueRecord | null>;
  /** Changes the given fields and `updatedAt`; null when the queue is not live. */
  updateQueue(req: QueueUpdate): Promise<QueueRecord | null>;
  /** Soft-deletes a live queue and returns it as deleted; null when it is not live. */
  deleteQueue(req: { projectId: string; queueId: string; deletedAt: number }): Promise<QueueRecord | null>;
  /**
   * Item counts of the live queues among `queueIds`: all items, and items with a completed or
   * skipped record by any annotator. Other ids are absent from the map.
   */
  queueStats(req: { projectId: string; queueIds: string[] }): Promise<Map<string, QueueStatsRecord>>;
  /**
   * Adds one item per call, in `callIds` order (repeats ignored), copying the call's start,
   * end, op name and trace id. Calls already in the queue count as duplicates; calls that do
   * not exist (or are deleted) are skipped and counted nowhere. Null when the queue is not live.
   */
  addCalls(req: AddCallsReq): Promise<{ added: number; duplicates: number } | null>;
  /**
   * Items of a live queue (null otherwise). Sort ties go by id ascending; default created_at
   * ascending. Positions number the order after the field filters but before the
   * `annotation_states` filter and paging.
   */
  queryItems(query: ItemsQuery): Promise<QueueItemRecord[] | null>;
  /**
   * Applies `change` to the annotator's progress on an item of a live queue: reads their record,
   * and writes, keeps or refuses (throwing a 400) as the change says for it. A write makes the
   * record the item's latest (its update time is after every other record's) and, unless it is
   * `in_progress`, releases the annotator's reservation of the item. Answers the state written
   * (null when kept); a queue or item that is not live is a 404 (store/progressChange.ts), thrown
   * so that a batch carrying the item's answers fails with it.
   *
   * Atomicity differs by backend: SQLite reads and writes in one transaction, so of two
   * concurrent first submits one is refused; ClickHouse has no row locks, so both can read
   * `none`, both write, and the record converges to the write with the later version
   * (last-writer-wins; see clickhouse/annotationQueues.ts).
   */
  recordProgress(req: ProgressWrite): Promise<ProgressResult>;
  /**
   * Adds one item per thread, standing for the conversation and attached to its first turn
   * (or, without turns, its earliest root call). Threads whose call is already queued are
   * duplicates; unknown threads count nowhere. Null when the queue is not live.
   */
  addThreads(req: AddThreadsReq): Promise<{ added: number; duplicates: number } | null>;
  /**
   * Sweeps expired reservations, then reserves for `annotator` the first item (queue order,
   * or after `afterItemId`; one the annotator already holds first otherwise) that they have not
   * finished and whose completed reviews plus other reviewers' reservations are short of the
   * queue's reviewers per item. Drops the annotator's other reservations in the queue. `item`
   * is null when no item qualifies; null overall when the queue is not live.
   */
  reserveNext(req: ReserveNextReq): Promise<{ item: QueueItemRecord | null; available: number } | null>;
  /** Every progress record of a live queue's items; null when the queue is not live. */
  queueProgress(req: { projectId: string; queueId: string }): Promise<ProgressRecord[] | null>;
  /** Current answers given in a live queue (and superseded ones for `itemId`'s call when asked). */
  queueAnswers(req: { projectId: string; queueId: string; weaveRef?: string; withSuperseded?: boolean }): Promise<QueueAnswerRecord[]>;
  /** Unexpired reservations in a queue. */
  queueReservations(req: { projectId: string; queueId: string; now: number }): Promise<ReservationRecord[]>;
}
