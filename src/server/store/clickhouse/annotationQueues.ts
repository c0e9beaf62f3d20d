/**
 * ClickHouse implementation of AnnotationQueuesStore (tables in migrations.ts v4). Every write is
 * an INSERT into a ReplacingMergeTree and every read uses FINAL, so answers never depend on when
 * merges run; the item's aggregated state, its completed reviews and its holder are computed at
 * read time from the progress and reservation rows.
 *
 * ClickHouse has no multi-table transaction and no row locks, so some promises are weaker than
 * on SQLite, and this is what they become:
 * - Progress is last-writer-wins. `recordProgress` reads the annotator's record, decides with
 *   the ProgressChange (data: the same rule as on SQLite, store/progressChange.ts) and inserts a
 *   new version of the record. Two writes racing on the same (item, annotator) can both pass the
 *   check (two first submits both read `none`), and the record converges to the one with the
 *   greater version (the writer's clock, strictly increasing per process). A refused change
 *   writes nothing, so a batch carrying answers stays all-or-nothing per attempt.
 * - "The latest record of an item" is the one with the greatest (updated_at, version,
 *   annotator): a writer stamps updated_at after the newest record it read, so sequential writes
 *   order as on SQLite; two racing writers may stamp the same time, and the tie-break then picks
 *   the same record for every reader.
 * - A duplicate add of a call collapses (items are keyed by call): the first add wins.
 * - `reserveNext` reads, then inserts: two reviewers asking at the same instant can be given the
 *   same last free item. Reservations are advisory (submit never checks them), so this costs at
 *   most a duplicate review.
 * - A queue update rewrites the whole row: two concurrent updates of different fields keep the
 *   later one's (last writer wins).
 * - Superseding answers (an edit) copies them to `feedback_superseded` and then purges them from
 *   feedback through the FeedbackStore, two steps; a retry of the edit converges.
 * Exact compare-and-set, if it is ever required, is KeeperMap's strict mode
 * (docs/clickhouse.md "What is weaker than SQLite") behind this same interface.
 */
import { uuidv7 } from '../../core/ids.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import type {
  AddCallsReq,
  AddThreadsReq,
  AnnotationQueuesStore,
  ItemSortField,
  ItemsQuery,
  ProgressRecord,
  ProgressResult,
  ProgressState,
  ProgressWrite,
  QueueAnswerRecord,
  QueueItemRecord,
  QueueRecord,
  QueueSort,
  QueueSortField,
  QueuesQuery,
  QueueUpdate,
  ReservationRecord,
  ReserveNextReq,
} from '../AnnotationQueuesStore.js';
import type { Feedback } from '../../../contract/feedback.js';
import type { FeedbackStore } from '../FeedbackStore.js';
import { decideProgress, itemNotFound } from '../progressChange.js';
import { nextVersion, num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';

/** Sortable fields and their columns: whitelists, whatever the caller checked. */
const QUEUE_SORT_COLUMNS: Record<QueueSortField, string> = { id: 'id', name: 'name', created_at: 'created_at', updated_at: 'updated_at' };
const ITEM_SORT_COLUMNS: Record<ItemSortField, string> = {
  call_started_at: 'call_started_at',
  call_op_name: 'call_op_name',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

/** Exact-match item filters and their columns. */
const ITEM_FILTERS = {
  id: 'id',
  call_id: 'call_id',
  call_op_name: 'call_op_name',
  call_trace_id: 'call_trace_id',
  added_by: 'added_by',
} as const;

/** No LIMIT: ClickHouse has no "all", so the largest UInt64. */
const ALL_ROWS = '18446744073709551615';

/** Feedback the queue submit writes: an annotation, carrying the queue id. */
const isQueueAnswer = (f: { feedback_type: string; queue_id: string | null }, queueId: string) =>
  f.queue_id === queueId && f.feedback_type.startsWith('wandb.annotation.');

const QUEUE_COLUMNS =
  'project_id, id, name, description, scorer_refs, display_fields, reviewers_per_item, created_by, created_at, updated_at, deleted_at';
const LIVE_QUEUE_SQL = `SELECT ${QUEUE_COLUMNS} FROM annotation_queues FINAL WHERE project_id = {p:String} AND id = {q:String} AND deleted_at IS NULL`;

interface QueueRow {
  project_id: string;
  id: string;
  name: string;
  description: string;
  scorer_refs: string;
  display_fields: string | null;
  reviewers_per_item: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const queueFromRow = (r: QueueRow): QueueRecord => ({
  projectId: r.project_id,
  id: r.id,
  name: r.name,
  description: r.description,
  scorerRefs: JSON.parse(r.scorer_refs) as string[],
  displayFields: r.display_fields === null ? null : (JSON.parse(r.display_fields) as string[]),
  reviewersPerItem: num(r.reviewers_per_item),
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
  deletedAt: numOrNull(r.deleted_at),
});

const queueToRow = (q: QueueRecord) => ({
  project_id: q.projectId,
  id: q.id,
  name: q.name,
  description: q.description,
  scorer_refs: JSON.stringify(q.scorerRefs),
  display_fields: q.displayFields && JSON.stringify(q.displayFields),
  reviewers_per_item: q.reviewersPerItem,
  created_by: q.createdBy,
  created_at: q.createdAt,
  updated_at: q.updatedAt,
  deleted_at: q.deletedAt,
  version: nextVersion(),
});

interface ItemRow {
  project_id: string;
  queue_id: string;
  id: string;
  call_id: string;
  call_started_at: string;
  call_ended_at: string | null;
  call_op_name: string;
  call_trace_id: string;
  display_fields: string;
  added_by: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  thread_id: string | null;
  annotation_state: QueueItemRecord['annotationState'];
  annotator_user_id: string | null;
  completed_reviews: string;
  reserved_by: string | null;
  position_in_queue: string | null;
}

const itemFromRow = (r: ItemRow): QueueItemRecord => ({
  projectId: r.project_id,
  queueId: r.queue_id,
  id: r.id,
  callId: r.call_id,
  callStartedAt: num(r.call_started_at),
  callEndedAt: numOrNull(r.call_ended_at),
  callOpName: r.call_op_name,
  callTraceId: r.call_trace_id,
  displayFields: JSON.parse(r.display_fields) as string[],
  addedBy: r.added_by,
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
  annotationState: r.annotation_state,
  annotatorUserId: r.annotator_user_id,
  positionInQueue: numOrNull(r.position_in_queue),
  threadId: r.thread_id,
  completedReviews: num(r.completed_reviews),
  reservedBy: r.reserved_by,
});

const ITEM_COLUMNS = [
  'project_id',
  'queue_id',
  'id',
  'call_id',
  'call_started_at',
  'call_ended_at',
  'call_op_name',
  'call_trace_id',
  'display_fields',
  'added_by',
  'created_by',
  'created_at',
  'updated_at',
  'thread_id',
];

/** `ORDER BY` terms: the chosen keys (default created_at), then id ascending for a stable order. */
function itemOrder(sortBy: QueueSort<ItemSortField>[]): string {
  const keys = sortBy.map((s) => `${ITEM_SORT_COLUMNS[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
  return [...(keys.length ? keys : ['created_at ASC']), 'id ASC'].join(', ');
}

/** The progress records of a queue, one per (item, annotator). */
const PROGRESS_SQL = `SELECT queue_item_id, annotator_id, annotation_state, created_at, updated_at, version
  FROM annotator_progress FINAL WHERE project_id = {p:String} AND queue_id = {q:String}`;

/** Unexpired reservations of a queue. */
const HELD_SQL = `SELECT queue_item_id, annotator_id, expires_at FROM annotation_item_reservations FINAL
  WHERE project_id = {p:String} AND queue_id = {q:String} AND is_deleted = 0 AND expires_at > {now:Int64}`;

/**
 * One SELECT for a page of items of a (live) queue, with the aggregated state, the completed
 * reviews, the holder and the optional position, in the order the SQLite store applies them:
 * field filters, position, state filter, sort and paging.
 */
function itemsSelect(q: ItemsQuery): { sql: string; params: Params } {
  const params: Params = { p: q.projectId, q: q.queueId, now: q.now ?? Date.now() * 1000 };
  const where = ['project_id = {p:String}', 'queue_id = {q:String}'];
  for (const [key, column] of Object.entries(ITEM_FILTERS) as [keyof typeof ITEM_FILTERS, string][]) {
    const value = q.filter?.[key];
    if (value == null) continue;
    where.push(`${column} = {f_${key}:String}`);
    params[`f_${key}`] = value;
  }
  const order = itemOrder(q.sortBy);
  let sql = `
    WITH
      latest AS (
        SELECT queue_item_id,
          argMax(annotation_state, (updated_at, version, annotator_id)) AS state,
          argMax(annotator_id, (updated_at, version, annotator_id)) AS annotator,
          countIf(annotation_state = 'completed') AS completed
        FROM (${PROGRESS_SQL}) GROUP BY queue_item_id
      ),
      held AS (SELECT queue_item_id, argMax(annotator_id, (expires_at, annotator_id)) AS holder FROM (${HELD_SQL}) GROUP BY queue_item_id),
      items AS (
        SELECT ${ITEM_COLUMNS.map((c) => `qi.${c} AS ${c}`).join(', ')},
          ifNull(l.state, 'unstarted') AS annotation_state, l.annotator AS annotator_user_id,
          ifNull(l.completed, 0) AS completed_reviews, h.holder AS reserved_by
        FROM (SELECT * FROM annotation_queue_items FINAL WHERE ${where.join(' AND ')}) AS qi
        LEFT JOIN latest AS l ON l.queue_item_id = qi.id
        LEFT JOIN held AS h ON h.queue_item_id = qi.id
      )
    SELECT *, ${q.includePosition ? `row_number() OVER (ORDER BY ${order})` : 'CAST(NULL AS Nullable(UInt64))'} AS position_in_queue FROM items`;
  const states = q.filter?.annotation_states;
  if (states?.length) {
    sql = `SELECT * FROM (${sql}) WHERE annotation_state IN {states:Array(String)}`;
    params.states = states;
  }
  sql += ` ORDER BY ${order} LIMIT {lim:UInt64} OFFSET {off:UInt64}`;
  params.lim = q.limit ?? ALL_ROWS;
  params.off = q.offset ?? 0;
  return { sql, params };
}

/**
 * `n` UUIDv7s of one millisecond, sorted: items added together keep the request's order under
 * the `id` tiebreak, since they share a creation time (as the SQLite store does).
 */
const orderedIds = (n: number, micros: number) => Array.from({ length: n }, () => uuidv7(Math.floor(micros / 1000))).sort();

/** A time from feedback as the FeedbackStore answers it (wire text or epoch µs). */
const micros = (v: unknown): number => (typeof v === 'string' && !/^\d+$/.test(v) ? (parseIsoToMicros(v) ?? 0) : num(v));

interface SupersededRow {
  id: string;
  weave_ref: string;
  wb_user_id: string | null;
  annotation_ref: string | null;
  payload: string;
  created_at: string;
  superseded_at: string;
}

export class ClickHouseAnnotationQueuesStore implements AnnotationQueuesStore {
  readonly #db: ClickHouseDatabase;
  /**
   * Queue answers are feedback rows: written, read and purged through the feedback store, never
   * its tables, so this store does not depend on how feedback is laid out. A getter, so the two
   * sub-stores can be built in any order.
   */
  readonly #feedbackStore: () => FeedbackStore;
  constructor(db: ClickHouseDatabase, feedback: () => FeedbackStore) {
    this.#db = db;
    this.#feedbackStore = feedback;
  }

  get #feedback(): FeedbackStore {
    return this.#feedbackStore();
  }

  async createQueue(q: Omit<QueueRecord, 'deletedAt'>): Promise<void> {
    await this.#db.insert('projects', [{ project_id: q.projectId, entity: q.projectId.split('/')[0], created_at: q.createdAt }]);
    await this.#db.insert('annotation_queues', [queueToRow({ ...q, deletedAt: null })]);
  }

  async *queryQueues(q: QueuesQuery): AsyncIterable<QueueRecord> {
    const where = ['project_id = {p:String}', 'deleted_at IS NULL'];
    const params: Params = { p: q.projectId, lim: q.limit ?? ALL_ROWS, off: q.offset ?? 0 };
    if (q.name != null) {
      // A literal substring, ASCII letters folded: SQLite's instr(lower(..)) semantics.
      where.push('positionCaseInsensitive(name, {n:String}) > 0');
      params.n = q.name;
    }
    const keys = q.sortBy.map((s) => `${QUEUE_SORT_COLUMNS[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    const order = [...(keys.length ? keys : ['created_at DESC']), 'id ASC'].join(', ');
    const sql = `SELECT ${QUEUE_COLUMNS} FROM annotation_queues FINAL WHERE ${where.join(' AND ')}
      ORDER BY ${order} LIMIT {lim:UInt64} OFFSET {off:UInt64}`;
    for await (const row of this.#db.stream<QueueRow>(sql, params)) yield queueFromRow(row);
  }

  async readQueue(req: { projectId: string; queueId: string }): Promise<QueueRecord | null> {
    return this.#liveQueue(req.projectId, req.queueId);
  }

  async updateQueue(req: QueueUpdate): Promise<QueueRecord | null> {
    const queue = await this.#liveQueue(req.projectId, req.queueId);
    if (!queue) return null;
    const updated: QueueRecord = {
      ...queue,
      name: req.name ?? queue.name,
      description: req.description ?? queue.description,
      scorerRefs: req.scorerRefs ?? queue.scorerRefs,
      displayFields: req.displayFields ?? queue.displayFields,
      reviewersPerItem: req.reviewersPerItem ?? queue.reviewersPerItem,
      updatedAt: req.updatedAt,
    };
    await this.#db.insert('annotation_queues', [queueToRow(updated)]);
    return updated;
  }

  async deleteQueue(req: { projectId: string; queueId: string; deletedAt: number }): Promise<QueueRecord | null> {
    const queue = await this.#liveQueue(req.projectId, req.queueId);
    if (!queue) return null;
    const deleted = { ...queue, updatedAt: req.deletedAt, deletedAt: req.deletedAt };
    await this.#db.insert('annotation_queues', [queueToRow(deleted)]);
    return deleted;
  }

  async queueStats(req: { projectId: string; queueIds: string[] }): Promise<Map<string, { total: number; completed: number }>> {
    const rows = await this.#db.all<{ id: string; total: string; completed: string }>(
      `SELECT q.id AS id, ifNull(t.total, 0) AS total, ifNull(c.completed, 0) AS completed
       FROM (SELECT id FROM annotation_queues FINAL WHERE project_id = {p:String} AND id IN {ids:Array(String)} AND deleted_at IS NULL) AS q
       LEFT JOIN (SELECT queue_id, count() AS total FROM annotation_queue_items FINAL
                  WHERE project_id = {p:String} AND queue_id IN {ids:Array(String)} GROUP BY queue_id) AS t ON t.queue_id = q.id
       LEFT JOIN (SELECT queue_id, uniqExact(queue_item_id) AS completed FROM annotator_progress FINAL
                  WHERE project_id = {p:String} AND queue_id IN {ids:Array(String)} AND annotation_state IN ('completed', 'skipped')
                  GROUP BY queue_id) AS c ON c.queue_id = q.id`,
      { p: req.projectId, ids: [...new Set(req.queueIds)] },
    );
    return new Map(rows.map((r) => [r.id, { total: num(r.total), completed: num(r.completed) }]));
  }

  async addCalls(req: AddCallsReq): Promise<{ added: number; duplicates: number } | null> {
    if (!(await this.#liveQueue(req.projectId, req.queueId))) return null;
    return this.#insertItems({ ...req, threadOf: new Map() });
  }

  /** Inserts one item per call not yet queued; `threadOf` marks the calls that stand for a thread. */
  async #insertItems(req: AddCallsReq & { threadOf: Map<string, string> }): Promise<{ added: number; duplicates: number }> {
    const wanted = [...new Set(req.callIds)];
    const params = { p: req.projectId, q: req.queueId, ids: wanted };
    const queued = new Set(
      (
        await this.#db.all<{ call_id: string }>(
          `SELECT call_id FROM annotation_queue_items FINAL WHERE project_id = {p:String} AND queue_id = {q:String} AND call_id IN {ids:Array(String)}`,
          params,
        )
      ).map((r) => r.call_id),
    );
    // Only calls whose start has arrived and that are not deleted can be annotated.
    const calls = new Map(
      (
        await this.#db.all<{ id: string; started_at: string; ended_at: string | null; op_name: string | null; trace_id: string | null }>(
          `SELECT id, started_at, ended_at, op_name, trace_id FROM calls FINAL
           PREWHERE project_id = {p:String} AND id IN {ids:Array(String)} WHERE started_at IS NOT NULL AND deleted_at IS NULL`,
          params,
        )
      ).map((r) => [r.id, r]),
    );
    const fresh = wanted.filter((id) => !queued.has(id) && calls.has(id));
    const ids = orderedIds(fresh.length, req.createdAt);
    // The first add of a call wins a race: its rank is the greater.
    const rank = Number.MAX_SAFE_INTEGER - nextVersion();
    await this.#db.insert(
      'annotation_queue_items',
      fresh.map((callId, i) => {
        const call = calls.get(callId)!;
        return {
          project_id: req.projectId,
          queue_id: req.queueId,
          call_id: callId,
          id: ids[i],
          call_started_at: num(call.started_at),
          call_ended_at: numOrNull(call.ended_at),
          call_op_name: call.op_name ?? '',
          call_trace_id: call.trace_id ?? '',
          display_fields: JSON.stringify(req.displayFields),
          added_by: req.addedBy,
          created_by: req.addedBy,
          created_at: req.createdAt,
          updated_at: req.createdAt,
          thread_id: req.threadOf.get(callId) ?? null,
          rank,
        };
      }),
    );
    return { added: fresh.length, duplicates: queued.size };
  }

  async queryItems(q: ItemsQuery): Promise<QueueItemRecord[] | null> {
    if (!(await this.#liveQueue(q.projectId, q.queueId))) return null;
    const { sql, params } = itemsSelect(q);
    return (await this.#db.all<ItemRow>(sql, params)).map(itemFromRow);
  }

  /**
   * The check of a progress write, nothing written: throws its 404 or its refusal. Store.apply
   * runs it for every progress write of a batch before writing anything.
   */
  async checkProgress(req: ProgressWrite): Promise<void> {
    await this.#decide(req);
  }

  async #decide(req: ProgressWrite): Promise<{ next: ProgressState | null; createdAt: number | null }> {
    if (!(await this.#liveItem(req.projectId, req.queueId, req.itemId))) throw itemNotFound(req.itemId, req.queueId);
    const mine = await this.#db.get<{ annotation_state: ProgressState; created_at: string }>(
      `SELECT annotation_state, created_at FROM annotator_progress FINAL
       WHERE project_id = {p:String} AND queue_item_id = {i:String} AND annotator_id = {a:String}`,
      { p: req.projectId, i: req.itemId, a: req.annotator },
    );
    return { next: decideProgress(req.change, mine?.annotation_state ?? null), createdAt: mine ? num(mine.created_at) : null };
  }

  async recordProgress(req: ProgressWrite): Promise<ProgressResult> {
    const { next, createdAt } = await this.#decide(req);
    if (next === null) return { written: null };
    // After every record of the item this writer can see, so sequential writes order as on SQLite.
    const latest = await this.#db.get<{ latest: string | null }>(
      `SELECT max(updated_at) AS latest FROM annotator_progress FINAL WHERE project_id = {p:String} AND queue_item_id = {i:String}`,
      { p: req.projectId, i: req.itemId },
    );
    const at = Math.max(req.now, (numOrNull(latest?.latest) ?? 0) + 1);
    if (req.supersede) await this.#supersede(req, req.supersede.weaveRef);
    await this.#db.insert('annotator_progress', [
      {
        project_id: req.projectId,
        queue_item_id: req.itemId,
        annotator_id: req.annotator,
        queue_id: req.queueId,
        annotation_state: next,
        created_at: createdAt ?? at,
        updated_at: at,
        version: nextVersion(),
      },
    ]);
    // Finishing an item releases the annotator's hold on it.
    if (next !== 'in_progress') await this.#release(req.projectId, req.queueId, [{ itemId: req.itemId, annotator: req.annotator }]);
    return { written: next };
  }

  /**
   * Moves the annotator's current answers on the item's call (in this queue) to the superseded
   * history: copied first, then purged from feedback, so a failure between the two leaves an
   * answer in both places (never in neither) and a retry converges.
   */
  async #supersede(req: ProgressWrite, weaveRef: string): Promise<void> {
    const current = (await this.#feedback.feedbackForRefs({ projectId: req.projectId, weaveRefs: [weaveRef] })).filter(
      (f) => isQueueAnswer(f, req.queueId) && f.wb_user_id === req.annotator,
    );
    if (current.length === 0) return;
    await this.#db.insert(
      'feedback_superseded',
      current.map((f) => ({
        project_id: req.projectId,
        id: f.id,
        weave_ref: f.weave_ref,
        wb_user_id: f.wb_user_id,
        creator: f.creator,
        created_at: micros(f.created_at),
        feedback_type: f.feedback_type,
        payload: JSON.stringify(f.payload),
        annotation_ref: f.annotation_ref,
        queue_id: req.queueId,
        queue_item_id: req.itemId,
        superseded_at: req.now,
      })),
    );
    await this.#feedback.purgeFeedback({ projectId: req.projectId, ids: current.map((f) => f.id) });
  }

  async addThreads(req: AddThreadsReq): Promise<{ added: number; duplicates: number } | null> {
    if (!(await this.#liveQueue(req.projectId, req.queueId))) return null;
    const firstCalls = await this.#firstCallsOfThreads(req.projectId, [...new Set(req.threadIds)]);
    return this.#insertItems({ ...req, callIds: [...firstCalls.values()], threadOf: new Map([...firstCalls].map(([t, c]) => [c, t])) });
  }

  /**
   * The call each thread's item attaches to: its first turn, or without turns its earliest root
   * call; only calls that started and are not deleted count (as the SQLite store's).
   */
  async #firstCallsOfThreads(projectId: string, threadIds: string[]): Promise<Map<string, string>> {
    if (threadIds.length === 0) return new Map();
    const rows = await this.#db.all<{ thread_id: string; first_id: string }>(
      `SELECT thread_id, argMin(id, (if(ifNull(turn_id = id, 0), 0, 1), started_at, id)) AS first_id
       FROM calls FINAL
       WHERE project_id = {p:String} AND thread_id IN {t:Array(String)} AND started_at IS NOT NULL AND deleted_at IS NULL
         AND (turn_id = id OR parent_id IS NULL)
       GROUP BY thread_id`,
      { p: projectId, t: threadIds },
    );
    const found = new Map(rows.map((r) => [r.thread_id, r.first_id]));
    // In the request's order, which the new items' ids keep.
    return new Map(threadIds.flatMap((t) => (found.has(t) ? [[t, found.get(t)!] as const] : [])));
  }

  async reserveNext(req: ReserveNextReq): Promise<{ item: QueueItemRecord | null; available: number } | null> {
    const queue = await this.#liveQueue(req.projectId, req.queueId);
    if (!queue) return null;
    const params = { p: req.projectId, q: req.queueId, a: req.annotator, now: req.now, rpi: queue.reviewersPerItem };
    const candidates = (
      await this.#db.all<{ id: string; created_at: string; mine: number }>(
        `WITH
           done AS (
             SELECT queue_item_id, countIf(annotation_state = 'completed') AS completed,
               max(annotator_id = {a:String} AND annotation_state IN ('completed', 'skipped')) AS mine_done
             FROM (${PROGRESS_SQL}) GROUP BY queue_item_id
           ),
           held AS (
             SELECT queue_item_id, countIf(annotator_id != {a:String}) AS others, max(annotator_id = {a:String}) AS mine
             FROM (${HELD_SQL}) GROUP BY queue_item_id
           )
         SELECT qi.id AS id, qi.created_at AS created_at, toUInt8(ifNull(h.mine, 0)) AS mine
         FROM (SELECT id, created_at FROM annotation_queue_items FINAL WHERE project_id = {p:String} AND queue_id = {q:String}) AS qi
           LEFT JOIN done AS d ON d.queue_item_id = qi.id
           LEFT JOIN held AS h ON h.queue_item_id = qi.id
         WHERE ifNull(d.mine_done, 0) = 0 AND ifNull(d.completed, 0) + ifNull(h.others, 0) < {rpi:UInt32}
         ORDER BY qi.created_at, qi.id`,
        params,
      )
    ).map((c) => ({ id: c.id, createdAt: num(c.created_at), mine: num(c.mine) === 1 }));
    const picked = await this.#chooseCandidate(req, candidates);
    // The annotator's other reservations in the queue go (one hold per reviewer and queue).
    const mine = await this.#db.all<{ queue_item_id: string }>(
      `SELECT queue_item_id FROM (${HELD_SQL}) WHERE annotator_id = {a:String}`,
      params,
    );
    await this.#release(
      req.projectId,
      req.queueId,
      mine.filter((r) => r.queue_item_id !== picked?.id).map((r) => ({ itemId: r.queue_item_id, annotator: req.annotator })),
    );
    if (!picked) return { item: null, available: 0 };
    await this.#db.insert('annotation_item_reservations', [
      {
        project_id: req.projectId,
        queue_id: req.queueId,
        queue_item_id: picked.id,
        annotator_id: req.annotator,
        expires_at: req.expiresAt,
        version: nextVersion(),
        is_deleted: 0,
      },
    ]);
    const numbered = itemsSelect({ projectId: req.projectId, queueId: req.queueId, sortBy: [], includePosition: true, now: req.now });
    // The position numbers the whole queue, so the id filter goes around the numbered rows.
    const [row] = await this.#db.all<ItemRow>(`SELECT * FROM (${numbered.sql}) WHERE id = {item:String}`, {
      ...numbered.params,
      item: picked.id,
    });
    return { item: row ? itemFromRow(row) : null, available: candidates.length };
  }

  /** After `afterItemId` when given (wrapping), else the item the annotator already holds, else the first. */
  async #chooseCandidate(
    req: ReserveNextReq,
    candidates: { id: string; createdAt: number; mine: boolean }[],
  ): Promise<{ id: string; createdAt: number; mine: boolean } | undefined> {
    if (req.afterItemId) {
      const after = await this.#db.get<{ id: string; created_at: string }>(
        `SELECT id, created_at FROM annotation_queue_items FINAL WHERE project_id = {p:String} AND queue_id = {q:String} AND id = {i:String}`,
        { p: req.projectId, q: req.queueId, i: req.afterItemId },
      );
      if (after) {
        const at = num(after.created_at);
        const later = candidates.find((c) => c.createdAt > at || (c.createdAt === at && c.id > after.id));
        return later ?? candidates.find((c) => c.id !== after.id) ?? candidates[0];
      }
    }
    return candidates.find((c) => c.mine) ?? candidates[0];
  }

  /** Drops reservations: a tombstone per (item, annotator), harmless where none is held. */
  async #release(projectId: string, queueId: string, holds: { itemId: string; annotator: string }[]): Promise<void> {
    const version = nextVersion();
    await this.#db.insert(
      'annotation_item_reservations',
      holds.map((h) => ({
        project_id: projectId,
        queue_id: queueId,
        queue_item_id: h.itemId,
        annotator_id: h.annotator,
        expires_at: 0,
        version,
        is_deleted: 1,
      })),
    );
  }

  async queueProgress(req: { projectId: string; queueId: string }): Promise<ProgressRecord[] | null> {
    if (!(await this.#liveQueue(req.projectId, req.queueId))) return null;
    const rows = await this.#db.all<{ queue_item_id: string; annotator_id: string; annotation_state: ProgressState; updated_at: string }>(
      `SELECT queue_item_id, annotator_id, annotation_state, updated_at FROM (${PROGRESS_SQL}) ORDER BY updated_at, version, annotator_id`,
      { p: req.projectId, q: req.queueId },
    );
    return rows.map((r) => ({
      itemId: r.queue_item_id,
      annotator: r.annotator_id,
      state: r.annotation_state,
      updatedAt: num(r.updated_at),
    }));
  }

  async queueAnswers(req: {
    projectId: string;
    queueId: string;
    weaveRef?: string;
    withSuperseded?: boolean;
  }): Promise<QueueAnswerRecord[]> {
    const current: Feedback[] =
      req.weaveRef === undefined
        ? ((await this.#feedback.queryFeedback({
            projectId: req.projectId,
            query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: req.queueId }] } },
          })) as Feedback[])
        : await this.#feedback.feedbackForRefs({ projectId: req.projectId, weaveRefs: [req.weaveRef] });
    const answers: QueueAnswerRecord[] = current
      .filter((f) => isQueueAnswer(f, req.queueId))
      .map((f) => ({
        id: f.id,
        weaveRef: f.weave_ref,
        annotator: f.wb_user_id ?? '',
        annotationRef: f.annotation_ref,
        payloadJson: typeof f.payload === 'string' ? f.payload : JSON.stringify(f.payload),
        createdAt: micros(f.created_at),
        supersededAt: null,
      }));
    if (req.withSuperseded) {
      const rows = await this.#db.all<SupersededRow>(
        `SELECT id, weave_ref, wb_user_id, annotation_ref, payload, created_at, superseded_at FROM feedback_superseded FINAL
         WHERE project_id = {p:String} AND queue_id = {q:String} AND startsWith(feedback_type, 'wandb.annotation.')
           ${req.weaveRef === undefined ? '' : 'AND weave_ref = {w:String}'}`,
        { p: req.projectId, q: req.queueId, w: req.weaveRef ?? '' },
      );
      for (const r of rows) {
        answers.push({
          id: r.id,
          weaveRef: r.weave_ref,
          annotator: r.wb_user_id ?? '',
          annotationRef: r.annotation_ref,
          payloadJson: r.payload,
          createdAt: num(r.created_at),
          supersededAt: num(r.superseded_at),
        });
      }
    }
    return answers.sort((x, y) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  }

  async queueReservations(req: { projectId: string; queueId: string; now: number }): Promise<ReservationRecord[]> {
    const rows = await this.#db.all<{ queue_item_id: string; annotator_id: string; expires_at: string }>(HELD_SQL, {
      p: req.projectId,
      q: req.queueId,
      now: req.now,
    });
    return rows.map((r) => ({ itemId: r.queue_item_id, annotator: r.annotator_id, expiresAt: num(r.expires_at) }));
  }

  async #liveQueue(projectId: string, queueId: string): Promise<QueueRecord | null> {
    const row = await this.#db.get<QueueRow>(LIVE_QUEUE_SQL, { p: projectId, q: queueId });
    return row ? queueFromRow(row) : null;
  }

  async #liveItem(projectId: string, queueId: string, itemId: string): Promise<boolean> {
    if (!(await this.#liveQueue(projectId, queueId))) return false;
    const row = await this.#db.get(
      `SELECT 1 FROM annotation_queue_items FINAL WHERE project_id = {p:String} AND queue_id = {q:String} AND id = {i:String}`,
      { p: projectId, q: queueId, i: itemId },
    );
    return row !== null;
  }
}
