/**
 * ClickHouse implementation of AnnotationQueuesStore (tables in
 * migrations/v06AnnotationQueuesProviders.ts); the item reads are annotationQueueItems.ts, the
 * reviewer features annotationQueueReviews.ts. Every write is an INSERT into a ReplacingMergeTree
 * and every read uses FINAL, so answers never depend on when merges run; the item's aggregated
 * state, its completed reviews and its holder are computed at read time from the progress and
 * reservation rows.
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
import type {
  AddCallsReq,
  AddThreadsReq,
  AnnotationQueuesStore,
  QueueStatsRecord,
  ItemsQuery,
  ProgressRecord,
  ProgressResult,
  ProgressState,
  ProgressWrite,
  QueueAnswerRecord,
  QueueItemRecord,
  QueueRecord,
  QueueSortField,
  QueuesQuery,
  QueueUpdate,
  ReservationRecord,
  ReserveNextReq,
} from '../AnnotationQueuesStore.js';
import type { FeedbackStore } from '../FeedbackStore.js';
import { decideProgress, itemNotFound } from '../progressChange.js';
import { ALL_ROWS, compileItemsSelect, itemFromRow, type ItemRow } from './annotationQueueItems.js';
import {
  firstCallsOfThreads,
  pickNextItem,
  readAnswers,
  readProgress,
  readReservations,
  releaseReservations,
  supersedeAnswers,
} from './annotationQueueReviews.js';
import { num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';

/** Sortable queue fields and their columns: a whitelist, whatever the caller checked. */
const QUEUE_SORT_COLUMNS: Record<QueueSortField, string> = { id: 'id', name: 'name', created_at: 'created_at', updated_at: 'updated_at' };

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

const queueToRow = (q: QueueRecord, version: number) => ({
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
  version,
});

/**
 * `n` UUIDv7s of one millisecond, sorted: items added together keep the request's order under
 * the `id` tiebreak, since they share a creation time (as the SQLite store does).
 */
const orderedIds = (n: number, micros: number) => Array.from({ length: n }, () => uuidv7(Math.floor(micros / 1000))).sort();

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
    await this.#db.insert('annotation_queues', [queueToRow({ ...q, deletedAt: null }, await this.#queueVersion(q.projectId, q.id))]);
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
    await this.#db.insert('annotation_queues', [queueToRow(updated, await this.#queueVersion(queue.projectId, queue.id))]);
    return updated;
  }

  async deleteQueue(req: { projectId: string; queueId: string; deletedAt: number }): Promise<QueueRecord | null> {
    const queue = await this.#liveQueue(req.projectId, req.queueId);
    if (!queue) return null;
    const deleted = { ...queue, updatedAt: req.deletedAt, deletedAt: req.deletedAt };
    await this.#db.insert('annotation_queues', [queueToRow(deleted, await this.#queueVersion(queue.projectId, queue.id))]);
    return deleted;
  }

  async queueStats(req: { projectId: string; queueIds: string[] }): Promise<Map<string, QueueStatsRecord>> {
    const rows = await this.#db.all<{ id: string; total: string; completed: string; reviewed: string }>(
      `SELECT q.id AS id, ifNull(t.total, 0) AS total, ifNull(c.completed, 0) AS completed, ifNull(r.reviewed, 0) AS reviewed
       FROM (SELECT id FROM annotation_queues FINAL WHERE project_id = {p:String} AND id IN {ids:Array(String)} AND deleted_at IS NULL) AS q
       LEFT JOIN (SELECT queue_id, count() AS total FROM annotation_queue_items FINAL
                  WHERE project_id = {p:String} AND queue_id IN {ids:Array(String)} GROUP BY queue_id) AS t ON t.queue_id = q.id
       LEFT JOIN (SELECT queue_id, uniqExact(queue_item_id) AS completed FROM annotator_progress FINAL
                  WHERE project_id = {p:String} AND queue_id IN {ids:Array(String)} AND annotation_state IN ('completed', 'skipped')
                  GROUP BY queue_id) AS c ON c.queue_id = q.id
       LEFT JOIN (SELECT d.queue_id AS queue_id, countIf(d.done >= w.reviewers_per_item) AS reviewed
                  FROM (SELECT queue_id, queue_item_id, countIf(annotation_state = 'completed') AS done FROM annotator_progress FINAL
                        WHERE project_id = {p:String} AND queue_id IN {ids:Array(String)} GROUP BY queue_id, queue_item_id) AS d
                  INNER JOIN (SELECT id, reviewers_per_item FROM annotation_queues FINAL
                              WHERE project_id = {p:String} AND id IN {ids:Array(String)}) AS w ON w.id = d.queue_id
                  GROUP BY d.queue_id) AS r ON r.queue_id = q.id`,
      { p: req.projectId, ids: [...new Set(req.queueIds)] },
    );
    return new Map(rows.map((r) => [r.id, { total: num(r.total), completed: num(r.completed), reviewed: num(r.reviewed) }]));
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
    // The first add of a call wins a race: its rank is the greater. Only a race compares ranks
    // (a later add finds the call queued), so this store's clock is enough.
    const rank = Number.MAX_SAFE_INTEGER - this.#db.versions.next();
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
    const { sql, params } = compileItemsSelect(q);
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
    if (req.supersede) await supersedeAnswers(this.#db, this.#feedback, req, req.supersede.weaveRef);
    const version = await this.#db.versionAfter(
      'annotator_progress',
      'project_id = {p:String} AND queue_item_id = {i:String} AND annotator_id = {a:String}',
      { p: req.projectId, i: req.itemId, a: req.annotator },
    );
    await this.#db.insert('annotator_progress', [
      {
        project_id: req.projectId,
        queue_item_id: req.itemId,
        annotator_id: req.annotator,
        queue_id: req.queueId,
        annotation_state: next,
        created_at: createdAt ?? at,
        updated_at: at,
        version,
      },
    ]);
    // Finishing an item releases the annotator's hold on it.
    if (next !== 'in_progress')
      await releaseReservations(this.#db, req.projectId, req.queueId, [{ itemId: req.itemId, annotator: req.annotator }]);
    return { written: next };
  }

  #queueVersion(projectId: string, id: string): Promise<number> {
    return this.#db.versionAfter('annotation_queues', 'project_id = {p:String} AND id = {i:String}', { p: projectId, i: id });
  }

  async addThreads(req: AddThreadsReq): Promise<{ added: number; duplicates: number } | null> {
    if (!(await this.#liveQueue(req.projectId, req.queueId))) return null;
    const firstCalls = await firstCallsOfThreads(this.#db, req.projectId, [...new Set(req.threadIds)]);
    return this.#insertItems({ ...req, callIds: [...firstCalls.values()], threadOf: new Map([...firstCalls].map(([t, c]) => [c, t])) });
  }

  async reserveNext(req: ReserveNextReq): Promise<{ item: QueueItemRecord | null; available: number } | null> {
    const queue = await this.#liveQueue(req.projectId, req.queueId);
    if (!queue) return null;
    const picked = await pickNextItem(this.#db, { ...req, reviewersPerItem: queue.reviewersPerItem });
    if (picked.itemId === null) return { item: null, available: 0 };
    const numbered = compileItemsSelect({
      projectId: req.projectId,
      queueId: req.queueId,
      sortBy: [],
      includePosition: true,
      now: req.now,
    });
    // The position numbers the whole queue, so the id filter goes around the numbered rows.
    const [row] = await this.#db.all<ItemRow>(`SELECT * FROM (${numbered.sql}) WHERE id = {item:String}`, {
      ...numbered.params,
      item: picked.itemId,
    });
    return { item: row ? itemFromRow(row) : null, available: picked.available };
  }

  async queueProgress(req: { projectId: string; queueId: string }): Promise<ProgressRecord[] | null> {
    if (!(await this.#liveQueue(req.projectId, req.queueId))) return null;
    return readProgress(this.#db, req);
  }

  async queueAnswers(req: {
    projectId: string;
    queueId: string;
    weaveRef?: string;
    withSuperseded?: boolean;
  }): Promise<QueueAnswerRecord[]> {
    return readAnswers(this.#db, this.#feedback, req);
  }

  async queueReservations(req: { projectId: string; queueId: string; now: number }): Promise<ReservationRecord[]> {
    return readReservations(this.#db, req);
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
