/**
 * The feedback part of the storage seam (see Store.ts for the contract every store keeps).
 * Validation and payload processing happen before a write reaches the store (domain/feedback/feedback.ts).
 */
import type { Feedback, ScorerFeedback } from '../../contract/feedback.js';
import type { ProjectTableQuery } from './ProjectTableQuery.js';

/** One feedback row to store. */
export interface FeedbackWrite {
  projectId: string;
  id: string;
  weaveRef: string;
  wbUserId: string;
  creator: string | null;
  /** Epoch microseconds. */
  createdAt: number;
  feedbackType: string;
  /** The processed payload, serialized once. */
  payloadJson: string;
  annotationRef: string | null;
  runnableRef: string | null;
  callRef: string | null;
  triggerRef: string | null;
  queueId: string | null;
  /** A scorer's typed results and the scored span (contract ScorerFeedbackFields); absent, none. */
  scorer?: ScorerFeedback;
}

/** What `/feedback/aggregate` groups, filters and counts feedback rows by. */
export interface FeedbackRefsRow {
  createdAt: number;
  feedbackType: string;
  weaveRef: string;
  runnableRef: string | null;
  triggerRef: string | null;
  scorerTags: string[];
  scorerRatings: Record<string, number>;
  spanAgentName: string | null;
  spanAgentVersion: string | null;
  spanStatusCode: string | null;
}

/** A `/feedback/query` request, minus the wire names; no `fields` means every column. */
export type FeedbackQuery = ProjectTableQuery;

/** The rows `/feedback/stats` and `/feedback/payload_schema` aggregate. */
export interface FeedbackWindow {
  projectId: string;
  /** Inclusive, epoch microseconds. */
  start: number;
  /** Exclusive, epoch microseconds. */
  end: number;
  feedbackType?: string | null;
  /** Exact ref, or a prefix match when it ends in `:*`. */
  triggerRef?: string | null;
  /** Newest rows first, at most this many; absent means all, oldest first. */
  newest?: number;
}

export interface FeedbackStore {
  /**
   * Stores the rows in one transaction. A row whose id already exists in the project
   * replaces it (the latest write wins, as in the reference's ReplacingMergeTree), so a
   * retried create with a client-chosen id is harmless.
   */
  createFeedback(rows: FeedbackWrite[]): Promise<void>;
  /** Deletes `feedbackId` and stores `row`, atomically; false (and no write) when the id is unknown. */
  replaceFeedback(req: { projectId: string; feedbackId: string; row: FeedbackWrite }): Promise<boolean>;
  /** Rows keyed by the requested fields; JSON in `payload` and its paths comes back parsed. */
  queryFeedback(query: FeedbackQuery): Promise<Record<string, unknown>[]>;
  /** How many rows match the query's `$expr`, ignoring fields, sort and paging (`total_count`). */
  countFeedback(query: FeedbackQuery): Promise<number>;
  /** Deletes the listed ids of the project; returns how many existed. */
  purgeFeedback(req: { projectId: string; ids: string[] }): Promise<number>;
  /** Every feedback row of the project about one of the refs (one lookup for a page of calls). */
  feedbackForRefs(req: { projectId: string; weaveRefs: string[] }): Promise<Feedback[]>;
  /** The refs and type of every row created in a window (epoch µs, end exclusive), oldest first, for `/feedback/aggregate`. */
  feedbackRefsInWindow(req: { projectId: string; start: number; end: number }): AsyncIterable<FeedbackRefsRow>;
  /** Creation time and payload of the rows in a time window, for statistics. */
  feedbackPayloads(window: FeedbackWindow): AsyncIterable<{ createdAt: number; payload: unknown }>;
}
