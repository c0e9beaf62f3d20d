/**
 * The annotation-queue part of the storage seam (see Store.ts for the contract every store
 * keeps): queues, their items (one per call, caching call fields) and per-annotator progress.
 *
 * A soft-deleted queue hides everything under it: it is absent from every read, and its items
 * can be neither listed, added to nor progressed. The rows stay, so nothing is lost.
 */
import type { AnnotationQueueItemsFilter, AnnotationState } from '../../contract/annotationQueues.js';
import type { FeedbackWrite } from './FeedbackStore.js';

/** A state a progress record can hold (`unstarted` is the absence of a record). */
export type ProgressState = Exclude<AnnotationState, 'unstarted'>;

/** A queue; times in epoch microseconds. */
export interface QueueRecord {
  projectId: string;
  id: string;
  name: string;
  description: string;
  scorerRefs: string[];
  /** Call paths reviewers see; null when none were chosen. */
  displayFields: string[] | null;
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
}

/** A sort key whose field the domain has already checked against the allowed list. */
export interface QueueSort<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

export type QueueSortField = 'id' | 'name' | 'created_at' | 'updated_at';
export type ItemSortField = 'call_started_at' | 'call_op_name' | 'created_at' | 'updated_at';

/**
 * Decides a progress write from the annotator's current state (null: no record yet): the
 * state to store, null to leave things as they are, or a thrown error to refuse (nothing is
 * written). Called inside the write transaction, so the decision and the write are atomic.
 */
export type ProgressTransition = (current: ProgressState | null) => ProgressState | null;

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
}

export interface ProgressWrite {
  projectId: string;
  queueId: string;
  itemId: string;
  annotator: string;
  transition: ProgressTransition;
  /** Written with the progress, only when the transition writes a state. */
  feedback?: FeedbackWrite[];
  now: number;
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
  queueStats(req: { projectId: string; queueIds: string[] }): Promise<Map<string, { total: number; completed: number }>>;
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
   * Applies `transition` to the annotator's progress on an item of a live queue and, when it
   * writes a state, stores `feedback` too — all in one transaction. A write makes the record
   * the item's latest (its update time is after every other record's). Returns the item as
   * read afterwards, or null when the queue or item is not live.
   */
  recordProgress(req: ProgressWrite): Promise<QueueItemRecord | null>;
}
