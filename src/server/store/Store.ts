/**
 * The storage seam. Every backend (SQLite now, ClickHouse later) implements `Store`, and
 * `store/conformance/` holds the one test suite all of them must pass unchanged.
 *
 * Contract for implementers:
 * - each write method applies fully or not at all; writes that must land together go in one
 *   `WriteBatch` given to `apply` (see there for what a backend without transactions promises);
 * - a write is durable when its promise resolves (the HTTP answer follows it);
 * - every read and write is scoped to the `projectId` it is given;
 * - times are epoch microseconds; the wire formatting lives in `domain/`.
 */
import type { CallSchema, CallsFilter, CallsQueryReq } from '../../contract/calls.js';
import type { Query, SortBy } from '../../contract/common.js';
import type { AnnotationQueuesStore } from './AnnotationQueuesStore.js';
import type { CostsStore } from './CostsStore.js';
import type { FeedbackStore } from './FeedbackStore.js';
import type { JobsStore } from './JobsStore.js';
import type { ProvidersStore } from './ProvidersStore.js';
import type { StatsStore } from './StatsStore.js';
import type { BatchResults, WriteBatch } from './WriteBatch.js';
import type { ObjectVersionFilter } from '../../contract/objects.js';
import type { ThreadStats } from '../core/threadStats.js';
import type { THREAD_SORT_FIELDS, ThreadRange } from '../../contract/threads.js';

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

export interface CallsStore {
  /** Applies starts and ends in order, in one transaction. */
  writeCalls(writes: CallWrite[]): Promise<void>;
  /** One call, or null when unknown, deleted, or only its end has arrived. */
  readCall(req: {
    projectId: string;
    id: string;
    includeStorageSize?: boolean;
    includeTotalStorageSize?: boolean;
  }): Promise<CallRecord | null>;
  /** Sets the display name; an unknown id is not an error. */
  updateCallDisplayName(req: { projectId: string; id: string; displayName: string }): Promise<void>;
  /** Soft-deletes the calls and all their descendants; returns how many were deleted. */
  deleteCalls(req: { projectId: string; ids: string[]; deletedAt: number }): Promise<number>;
  /** Streams matching calls in order without holding the whole result in memory. */
  queryCalls(query: CallsQuery): AsyncIterable<CallRecord>;
  /** Counts matching calls, capped at `limit` when given. */
  countCalls(query: CallsQuery): Promise<number>;
  /** Sum of storage sizes of the matching root calls' traces. */
  totalStorageSize(query: CallsQuery): Promise<number>;
}

/** A thread query, resolved: times in epoch microseconds, sort keys validated. */
export interface ThreadsQuery {
  projectId: string;
  afterMicros?: number | null;
  beforeMicros?: number | null;
  threadIds?: string[] | null;
  /** Weft: words all found in the turns' text (each a prefix), or the exact thread id. */
  search?: string | null;
  /** Weft: inclusive bounds on the statistics. */
  min?: ThreadRange | null;
  max?: ThreadRange | null;
  /** Weft: some turn's attributes hold each value (dotted keys). */
  attributes?: Record<string, string | number | boolean> | null;
  sortBy: {
    field: (typeof THREAD_SORT_FIELDS)[number];
    direction: 'asc' | 'desc';
  }[];
  limit?: number | null;
  offset?: number | null;
}

/** A thread's statistics over its live turn calls (times in epoch microseconds). */
export interface ThreadRecord extends ThreadStats {
  threadId: string;
  /** Priced usage of the turns; null when no model of it has a price. */
  totalCost: number | null;
}

export interface ThreadsStore {
  /** Threads with statistics from turn calls only, sorted, ties by thread_id ascending. */
  queryThreads(query: ThreadsQuery): AsyncIterable<ThreadRecord>;
  /** How many threads the query's filters match (sort, limit and offset ignored). */
  countThreads(query: ThreadsQuery): Promise<number>;
  /** Inputs of the given (first) turns and outputs of the given (last) turns, as JSON cut to 300 chars. */
  previews(
    projectId: string,
    ids: { firstInput: string[]; lastOutput: string[] },
  ): Promise<{ firstInput: Map<string, string | null>; lastOutput: Map<string, string | null> }>;
}

export interface ProjectSummary {
  projectId: string;
  callCount: number;
  /** Start time of the newest call, epoch microseconds. */
  lastActivity: number | null;
}

export interface ProjectsStore {
  /** Projects that exist (something was written to them, or they were created), optionally limited to some entities. */
  listProjects(req: { entities: string[] | 'all'; projectIds?: string[] | null }): Promise<ProjectSummary[]>;
  /**
   * Bytes a project's data takes, for `/project/stats`: live calls (their JSON and text payloads,
   * as `storage_size_bytes` counts them), live object versions, stored table rows and files.
   * A part not asked for is 0 and not computed.
   */
  storageStats(req: { projectId: string; traces: boolean; objects: boolean; tables: boolean; files: boolean }): Promise<{
    trace_storage_size_bytes: number;
    objects_storage_size_bytes: number;
    tables_storage_size_bytes: number;
    files_storage_size_bytes: number;
  }>;
  /** Makes the project exist before anything is written to it (W&B `upsertModel`); idempotent. */
  createProject(projectId: string): Promise<void>;
}

export interface UserRecord {
  username: string;
  passwordHash: string | null;
  isAdmin: boolean;
  entities: string[];
  /** Where bare project names go: the first entity given, unless changed; null without entities. */
  defaultEntity: string | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  keyId: string;
  username: string;
  keyHash: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface AccountsStore {
  getUser(username: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  /** Creates the user, or updates its password/admin flag and adds entities. */
  upsertUser(user: { username: string; passwordHash?: string | null; isAdmin?: boolean; entities?: string[] }): Promise<UserRecord>;
  /** Sets the user's default entity (the caller checks that the user may use it); false when there is no such user. */
  setDefaultEntity(username: string, entity: string): Promise<boolean>;
  createApiKey(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void>;
  getApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  listApiKeys(username: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(keyId: string, at: number): Promise<boolean>;
  /** Replaces a key's stored hash (keys hashed by older versions move to the current scheme at their next use). */
  updateApiKeyHash(keyId: string, keyHash: string): Promise<void>;

  // Dashboard sessions (auth/sessions.ts); times are epoch microseconds.
  createSession(session: SessionRecord): Promise<void>;
  getSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null>;
  getSession(sessionId: string): Promise<SessionRecord | null>;
  /** The user's sessions, oldest first. */
  listSessions(username: string): Promise<SessionRecord[]>;
  touchSession(sessionId: string, lastSeenAt: number): Promise<void>;
  /** Ends one session; false when there was none. */
  deleteSession(sessionId: string): Promise<boolean>;
  /** Ends every session of the user but `exceptSessionId`; answers how many ended. */
  deleteUserSessions(username: string, exceptSessionId?: string | null): Promise<number>;
  /** Drops sessions past their absolute expiry or idle since before `idleBefore`. */
  deleteExpiredSessions(now: number, idleBefore: number): Promise<number>;
}

/** A dashboard session: the token itself is never stored, only its hash. */
export interface SessionRecord {
  sessionId: string;
  tokenHash: string;
  username: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string;
  address: string;
}

/** A new object version, hashed and serialized by the domain layer. */
export interface ObjectWrite {
  projectId: string;
  objectId: string;
  digest: string;
  kind: 'op' | 'object';
  baseObjectClass: string | null;
  leafObjectClass: string | null;
  /** The value as compact JSON text; floats keep their `1.0` form. */
  valJson: string;
  /** Length of the hashed JSON text, which the reference reports as the size. */
  sizeBytes: number;
  wbUserId: string | null;
  createdAt: number;
}

/** How a request names one version of an object: digest, `v<N>`, `latest` or an alias. */
export type VersionSelector = { digest: string } | { index: number } | { latest: true } | { alias: string };

/** A stored object version. */
export interface ObjectRecord extends Omit<ObjectWrite, 'valJson'> {
  /** Null when read with `metadataOnly`. */
  valJson: string | null;
  versionIndex: number;
  isLatest: boolean;
  deletedAt: number | null;
  /** Sorted. */
  tags: string[];
  /** The explicit aliases, sorted; the virtual `latest` is the domain's business. */
  aliases: string[];
}

export interface ObjectsQuery {
  projectId: string;
  filter?: ObjectVersionFilter | null;
  /** Ties are broken by version_index ascending; default created_at, version_index ascending. */
  sortBy?: { field: 'object_id' | 'created_at'; direction: 'asc' | 'desc' }[] | null;
  limit?: number | null;
  offset?: number | null;
  metadataOnly?: boolean;
}

export interface ObjectsStore {
  /**
   * Adds a version, unless a live version with this digest exists (then nothing changes). The
   * new version gets the next version_index and becomes the latest; a deleted digest revives.
   */
  createObject(write: ObjectWrite): Promise<void>;
  /** One version, deleted or not (see `deletedAt`), or null. */
  readObject(req: { projectId: string; objectId: string; version: VersionSelector; metadataOnly?: boolean }): Promise<ObjectRecord | null>;
  /** Live versions matching the query, in order. */
  queryObjects(query: ObjectsQuery): Promise<ObjectRecord[]>;
  /**
   * Soft-deletes the given live versions (null: all of them), drops their tags and aliases and
   * makes the newest surviving version the latest. Returns how many were deleted.
   */
  deleteObjects(req: { projectId: string; objectId: string; digests: string[] | null; deletedAt: number }): Promise<number>;
  /** Adds tags to a version (a set: adding twice is a no-op). */
  addTags(req: { projectId: string; objectId: string; digest: string; tags: string[]; createdAt: number }): Promise<void>;
  /** Removes tags from a version; absent tags are ignored. */
  removeTags(req: { projectId: string; objectId: string; digest: string; tags: string[] }): Promise<void>;
  /** Points each alias at this version, moving it off any other version of the object. */
  setAliases(req: { projectId: string; objectId: string; digest: string; aliases: string[]; createdAt: number }): Promise<void>;
  /** Removes aliases from the object; absent ones are ignored. */
  removeAliases(req: { projectId: string; objectId: string; aliases: string[] }): Promise<void>;
  /** Distinct tags in the project, sorted. */
  listTags(projectId: string): Promise<string[]>;
  /** Distinct aliases in the project, sorted. */
  listAliases(projectId: string): Promise<string[]>;
}

export interface TableRowsQuery {
  projectId: string;
  digest: string;
  /** Only rows with these digests. */
  rowDigests?: string[] | null;
  /** JSON paths (lists of keys) into the row; ties keep table order. Default: table order. */
  sortBy?: { path: string[]; direction: 'asc' | 'desc' }[] | null;
  limit?: number | null;
  offset?: number | null;
}

export interface TableRowRecord {
  digest: string;
  valJson: string;
  /** 0-based position in the table. */
  originalIndex: number;
}

export interface TablesStore {
  /** Stores the rows (once per digest) and the table as its ordered list of row digests. */
  createTable(req: {
    projectId: string;
    digest: string;
    rowDigests: string[];
    rows: { digest: string; valJson: string }[];
    createdAt: number;
  }): Promise<void>;
  /** A table's row digests in order, or null when the table is unknown. */
  readRowDigests(req: { projectId: string; digest: string }): Promise<string[] | null>;
  /** Rows of a table (none when unknown), streamed without holding the table in memory. */
  queryRows(query: TableRowsQuery): AsyncIterable<TableRowRecord>;
  /** Row counts (and summed row sizes) of the known tables among `digests`. */
  tableStats(req: {
    projectId: string;
    digests: string[];
    includeStorageSize: boolean;
  }): Promise<{ digest: string; count: number; storageSizeBytes: number | null }[]>;
  /** Row values by row digest; unknown digests are absent from the map. */
  readRows(req: { projectId: string; digests: string[] }): Promise<Map<string, string>>;
}

export interface FilesStore {
  /** Stores a file's bytes (in the given chunks) unless its digest is already stored. */
  createFile(req: { projectId: string; digest: string; name: string; chunks: Uint8Array[]; createdAt: number }): Promise<void>;
  /** The file's size in bytes, or null when unknown. */
  fileSize(req: { projectId: string; digest: string }): Promise<number | null>;
  /** The file's bytes, chunk by chunk (nothing when unknown), without holding it whole. */
  readFile(req: { projectId: string; digest: string }): AsyncIterable<Uint8Array>;
  /** Sum of the sizes of the project's files. */
  totalSize(projectId: string): Promise<number>;
}

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
  close(): Promise<void>;
}

export type { CallsQueryReq };
