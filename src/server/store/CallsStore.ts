/** Calls: the start and end parts written, read one by one, queried, renamed and deleted (Store.ts). */
import type { CallSchema, CallsFilter } from '../../contract/calls.js';
import type { Query, SortBy } from '../../contract/common.js';

/** The start part of a call, validated and normalised by the domain layer. */
export interface CallStartWrite {
  kind: 'start';
  projectId: string;
  id: string;
  traceId: string;
  parentId: string | null;
  threadId: string | null;
  turnId: string | null;
  opName: string;
  displayName: string | null;
  startedAt: number;
  /** JSON payloads arrive serialized, so each is stringified once on the ingest path. */
  attributesJson: string;
  inputsJson: string;
  otelDumpJson: string | null;
  inputRefs: string[];
  wbUserId: string | null;
  wbRunId: string | null;
  wbRunStep: number | null;
}

/** The end part of a call. It may arrive before its start; it is then kept and merged. */
export interface CallEndWrite {
  kind: 'end';
  projectId: string;
  id: string;
  endedAt: number;
  exception: string | null;
  outputJson: string | null;
  summaryJson: string;
  outputRefs: string[];
  wbRunStepEnd: number | null;
}

export type CallWrite = CallStartWrite | CallEndWrite;

/** What a call query may ask for (the wire request, minus what the domain resolves). */
export interface CallsQuery {
  projectId: string;
  filter?: CallsFilter | null;
  query?: Query | null;
  sortBy?: SortBy[] | null;
  limit?: number | null;
  offset?: number | null;
  /** Top-level columns to load; null means all. */
  columns?: string[] | null;
  /** Columns holding refs that filters and sorts may read through (`inputs.model.name`). */
  expandColumns?: string[] | null;
  includeStorageSize?: boolean;
  includeTotalStorageSize?: boolean;
}

/** A stored call in wire form, before the domain adds `summary.weave`. */
export type CallRecord = CallSchema;

/** A child call's keys and one of its inputs (CallsStore.childInputs). */
export interface ChildInput {
  id: string;
  parent_id: string;
  op_name: string;
  /** `inputs.<key>` as JSON text; null when the call has no such input. */
  input: string | null;
}

/**
 * One span of a trace as its outline reads it (CallsStore.traceSpans): the tree's facts only,
 * never a payload (docs/trace-outline.md).
 */
export interface TraceSpanRecord {
  id: string;
  parentId: string | null;
  opName: string;
  displayName: string | null;
  /** Epoch microseconds. */
  startedAt: number;
  endedAt: number | null;
  /** The call raised (its exception is set). */
  error: boolean;
  /** `summary` as JSON text. */
  summaryJson: string | null;
}

export interface ReadCallRequest {
  projectId: string;
  id: string;
  includeStorageSize?: boolean;
  includeTotalStorageSize?: boolean;
  /** Top-level columns to load, as CallsQuery.columns; null means all. */
  columns?: readonly string[] | null;
}

export interface CallsStore {
  /** Applies starts and ends in order, in one transaction. */
  writeCalls(writes: CallWrite[]): Promise<void>;
  /** One call, or null when unknown, deleted, or only its end has arrived. */
  readCall(req: ReadCallRequest): Promise<CallRecord | null>;
  /** Sets the display name; an unknown id is not an error. */
  updateCallDisplayName(req: { projectId: string; id: string; displayName: string }): Promise<void>;
  /** Soft-deletes the calls and all their descendants; returns how many were deleted. */
  deleteCalls(req: { projectId: string; ids: string[]; deletedAt: number }): Promise<number>;
  /** Streams matching calls in order without holding the whole result in memory. */
  queryCalls(query: CallsQuery): AsyncIterable<CallRecord>;
  /**
   * The live children of the given parents, in the default order (start time, then id), with
   * one top-level input each (`key`: letters, digits and _): a light read for grouping many
   * calls by an input (eval_results/query's row keys) without parsing or loading whole calls.
   */
  childInputs(req: { projectId: string; parentIds: string[]; key: string }): Promise<ChildInput[]>;
  /** The visible spans of one trace in start order, at most `limit` (the trace outline). */
  traceSpans(req: { projectId: string; traceId: string; limit: number }): Promise<TraceSpanRecord[]>;
  /** Counts matching calls, capped at `limit` when given. */
  countCalls(query: CallsQuery): Promise<number>;
  /** Sum of storage sizes of the matching root calls' traces. */
  totalStorageSize(query: CallsQuery): Promise<number>;
}
