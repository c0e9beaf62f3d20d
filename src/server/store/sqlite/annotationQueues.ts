/** SQLite implementation of AnnotationQueuesStore. */
import { uuidv7 } from '../../core/ids.js';
import { decideProgress, itemNotFound } from '../progressChange.js';
import type {
  AddCallsReq,
  AddThreadsReq,
  ProgressRecord,
  QueueAnswerRecord,
  ReservationRecord,
  ReserveNextReq,
  AnnotationQueuesStore,
  QueueStatsRecord,
  ItemsQuery,
  ProgressState,
  ProgressResult,
  ProgressWrite,
  QueueItemRecord,
  QueueRecord,
  QueueSortField,
  QueuesQuery,
  QueueUpdate,
} from '../AnnotationQueuesStore.js';
import { compileItemsSelect, itemFromRow, type ItemRow } from './annotationQueueItems.js';
import {
  firstCallOfThread,
  pickNextItem,
  readAnswers,
  readProgress,
  readReservations,
  releaseReservation,
  supersedeAnswers,
} from './annotationQueueReviews.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** Sortable queue fields and their columns: a whitelist, whatever the caller checked. */
const QUEUE_SORT_COLUMNS: Record<QueueSortField, string> = { id: 'id', name: 'name', created_at: 'created_at', updated_at: 'updated_at' };

const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';
const LIVE_QUEUE_SQL = 'SELECT * FROM annotation_queues WHERE project_id = ? AND id = ? AND deleted_at IS NULL';

/** Ids per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

interface QueueRow {
  project_id: string;
  id: string;
  name: string;
  description: string;
  scorer_refs: string;
  display_fields: string | null;
  reviewers_per_item: number;
  created_by: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** The call fields an item copies. */
interface CallFields {
  id: string;
  started_at: number;
  ended_at: number | null;
  op_name: string | null;
  trace_id: string | null;
}

const queueFromRow = (r: QueueRow): QueueRecord => ({
  projectId: r.project_id,
  id: r.id,
  name: r.name,
  description: r.description,
  scorerRefs: JSON.parse(r.scorer_refs) as string[],
  displayFields: r.display_fields === null ? null : (JSON.parse(r.display_fields) as string[]),
  reviewersPerItem: r.reviewers_per_item,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
});

/** `ids` in slices of CHUNK. */
function* chunks(ids: string[]): Iterable<string[]> {
  for (let i = 0; i < ids.length; i += CHUNK) yield ids.slice(i, i + CHUNK);
}

const marks = (n: string[]) => n.map(() => '?').join(', ');

/**
 * `n` UUIDv7s of one millisecond, sorted: items added together keep the request's order under
 * the `id` tiebreak, since they share a creation time.
 */
const orderedIds = (n: number, micros: number) => Array.from({ length: n }, () => uuidv7(Math.floor(micros / 1000))).sort();

export class SqliteAnnotationQueuesStore implements AnnotationQueuesStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async createQueue(q: Omit<QueueRecord, 'deletedAt'>): Promise<void> {
    this.#db.transaction(() => {
      this.#db.run(PROJECT_SQL, [q.projectId, q.projectId.split('/')[0], q.createdAt]);
      this.#db.run(
        `INSERT INTO annotation_queues (project_id, id, name, description, scorer_refs, display_fields, reviewers_per_item,
           created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          q.projectId,
          q.id,
          q.name,
          q.description,
          JSON.stringify(q.scorerRefs),
          q.displayFields && JSON.stringify(q.displayFields),
          q.reviewersPerItem,
          q.createdBy,
          q.createdAt,
          q.updatedAt,
        ],
      );
    });
  }

  async *queryQueues(q: QueuesQuery): AsyncIterable<QueueRecord> {
    const where = ['project_id = ?', 'deleted_at IS NULL'];
    const params: unknown[] = [q.projectId];
    if (q.name != null) {
      // A literal substring (no LIKE wildcards); lower() folds ASCII letters only.
      where.push('instr(lower(name), lower(?)) > 0');
      params.push(q.name);
    }
    const keys = q.sortBy.map((s) => `${QUEUE_SORT_COLUMNS[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    const order = [...(keys.length ? keys : ['created_at DESC']), 'id ASC'].join(', ');
    const sql = `SELECT * FROM annotation_queues WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`;
    for await (const row of this.#db.stream<QueueRow>(sql, [...params, q.limit ?? -1, q.offset ?? 0])) {
      yield queueFromRow(row);
    }
  }

  async readQueue(req: { projectId: string; queueId: string }): Promise<QueueRecord | null> {
    return this.#liveQueue(req.projectId, req.queueId);
  }

  async updateQueue(req: QueueUpdate): Promise<QueueRecord | null> {
    return this.#db.transaction(() => {
      if (!this.#liveQueue(req.projectId, req.queueId)) return null;
      const sets = ['updated_at = ?'];
      const params: unknown[] = [req.updatedAt];
      const changes: [string, unknown][] = [
        ['name', req.name],
        ['description', req.description],
        ['scorer_refs', req.scorerRefs && JSON.stringify(req.scorerRefs)],
        ['display_fields', req.displayFields && JSON.stringify(req.displayFields)],
        ['reviewers_per_item', req.reviewersPerItem],
      ];
      for (const [column, value] of changes) {
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(value);
      }
      this.#db.run(`UPDATE annotation_queues SET ${sets.join(', ')} WHERE project_id = ? AND id = ?`, [
        ...params,
        req.projectId,
        req.queueId,
      ]);
      return this.#liveQueue(req.projectId, req.queueId);
    });
  }

  async deleteQueue(req: { projectId: string; queueId: string; deletedAt: number }): Promise<QueueRecord | null> {
    return this.#db.transaction(() => {
      const queue = this.#liveQueue(req.projectId, req.queueId);
      if (!queue) return null;
      this.#db.run('UPDATE annotation_queues SET deleted_at = ?, updated_at = ? WHERE project_id = ? AND id = ?', [
        req.deletedAt,
        req.deletedAt,
        req.projectId,
        req.queueId,
      ]);
      return { ...queue, updatedAt: req.deletedAt, deletedAt: req.deletedAt };
    });
  }

  async queueStats(req: { projectId: string; queueIds: string[] }): Promise<Map<string, QueueStatsRecord>> {
    const stats = new Map<string, QueueStatsRecord>();
    for (const ids of chunks([...new Set(req.queueIds)])) {
      const sql = `
        SELECT q.id,
          (SELECT COUNT(*) FROM annotation_queue_items i WHERE i.project_id = q.project_id AND i.queue_id = q.id) AS total,
          (SELECT COUNT(DISTINCT p.queue_item_id) FROM annotator_queue_items_progress p
             WHERE p.project_id = q.project_id AND p.queue_id = q.id AND p.annotation_state IN ('completed', 'skipped')) AS completed,
          (SELECT COUNT(*) FROM annotation_queue_items i WHERE i.project_id = q.project_id AND i.queue_id = q.id
             AND (SELECT COUNT(*) FROM annotator_queue_items_progress p
                  WHERE p.project_id = i.project_id AND p.queue_item_id = i.id AND p.annotation_state = 'completed') >= q.reviewers_per_item
          ) AS reviewed
        FROM annotation_queues q WHERE q.project_id = ? AND q.deleted_at IS NULL AND q.id IN (${marks(ids)})`;
      for (const row of this.#db.all<{ id: string; total: number; completed: number; reviewed: number }>(sql, [req.projectId, ...ids])) {
        stats.set(row.id, { total: row.total, completed: row.completed, reviewed: row.reviewed });
      }
    }
    return stats;
  }

  async addCalls(req: AddCallsReq): Promise<{ added: number; duplicates: number } | null> {
    return this.#db.transaction(() => {
      if (!this.#liveQueue(req.projectId, req.queueId)) return null;
      return this.#insertItems({ ...req, threadOf: new Map() });
    });
  }

  /** Inserts one item per call not yet queued; `threadOf` marks the calls that stand for a thread. */
  #insertItems(req: AddCallsReq & { threadOf: Map<string, string> }): { added: number; duplicates: number } {
    const wanted = [...new Set(req.callIds)];
    const queued = new Set<string>();
    const calls = new Map<string, CallFields>();
    for (const ids of chunks(wanted)) {
      const inQueue = `SELECT call_id FROM annotation_queue_items WHERE project_id = ? AND queue_id = ? AND call_id IN (${marks(ids)})`;
      for (const row of this.#db.all<{ call_id: string }>(inQueue, [req.projectId, req.queueId, ...ids])) queued.add(row.call_id);
      // Only calls whose start has arrived and that are not deleted can be annotated.
      const found = `SELECT id, started_at, ended_at, op_name, trace_id FROM calls
        WHERE project_id = ? AND id IN (${marks(ids)}) AND started_at IS NOT NULL AND deleted_at IS NULL`;
      for (const row of this.#db.all<CallFields>(found, [req.projectId, ...ids])) calls.set(row.id, row);
    }
    const fresh = wanted.filter((id) => !queued.has(id) && calls.has(id));
    const ids = orderedIds(fresh.length, req.createdAt);
    const insert = this.#db.prepare(`INSERT INTO annotation_queue_items (project_id, id, queue_id, call_id, call_started_at,
      call_ended_at, call_op_name, call_trace_id, display_fields, added_by, created_by, created_at, updated_at, thread_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const displayFields = JSON.stringify(req.displayFields);
    fresh.forEach((callId, i) => {
      const call = calls.get(callId)!;
      insert.run(
        req.projectId,
        ids[i],
        req.queueId,
        callId,
        call.started_at,
        call.ended_at,
        call.op_name ?? '',
        call.trace_id ?? '',
        displayFields,
        req.addedBy,
        req.addedBy,
        req.createdAt,
        req.createdAt,
        req.threadOf.get(callId) ?? null,
      );
    });
    return { added: fresh.length, duplicates: queued.size };
  }

  async queryItems(q: ItemsQuery): Promise<QueueItemRecord[] | null> {
    if (!this.#liveQueue(q.projectId, q.queueId)) return null;
    const { sql, params } = compileItemsSelect(q);
    return this.#db.all<ItemRow>(sql, params).map(itemFromRow);
  }

  async recordProgress(req: ProgressWrite): Promise<ProgressResult> {
    return this.#db.transaction(() => {
      if (!this.#liveItem(req.projectId, req.queueId, req.itemId)) throw itemNotFound(req.itemId, req.queueId);
      const key = [req.projectId, req.itemId];
      const mine = this.#db.get<{ annotation_state: ProgressState }>(
        'SELECT annotation_state FROM annotator_queue_items_progress WHERE project_id = ? AND queue_item_id = ? AND annotator_id = ?',
        [...key, req.annotator],
      );
      const next = decideProgress(req.change, mine?.annotation_state ?? null);
      if (next === null) return { written: null };
      // Strictly after every record of the item, so this write is "the latest" even when
      // two annotators act within the same millisecond.
      const { latest } = this.#db.get<{ latest: number | null }>(
        'SELECT MAX(updated_at) AS latest FROM annotator_queue_items_progress WHERE project_id = ? AND queue_item_id = ?',
        key,
      )!;
      const at = Math.max(req.now, (latest ?? 0) + 1);
      this.#db.run(
        `INSERT INTO annotator_queue_items_progress (project_id, queue_item_id, annotator_id, queue_id, annotation_state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id, queue_item_id, annotator_id) DO UPDATE SET annotation_state = excluded.annotation_state, updated_at = excluded.updated_at`,
        [...key, req.annotator, req.queueId, next, at, at],
      );
      if (req.supersede) supersedeAnswers(this.#db, { ...req, weaveRef: req.supersede.weaveRef });
      // Finishing an item releases the annotator's hold on it.
      if (next !== 'in_progress') releaseReservation(this.#db, req);
      return { written: next };
    });
  }

  async addThreads(req: AddThreadsReq): Promise<{ added: number; duplicates: number } | null> {
    return this.#db.transaction(() => {
      if (!this.#liveQueue(req.projectId, req.queueId)) return null;
      const firstCalls = new Map<string, string>();
      for (const threadId of new Set(req.threadIds)) {
        const call = firstCallOfThread(this.#db, req.projectId, threadId);
        if (call) firstCalls.set(threadId, call);
      }
      return this.#insertItems({ ...req, callIds: [...firstCalls.values()], threadOf: new Map([...firstCalls].map(([t, c]) => [c, t])) });
    });
  }

  async reserveNext(req: ReserveNextReq): Promise<{ item: QueueItemRecord | null; available: number } | null> {
    return this.#db.transaction(() => {
      const queue = this.#liveQueue(req.projectId, req.queueId);
      if (!queue) return null;
      const picked = pickNextItem(this.#db, { ...req, reviewersPerItem: queue.reviewersPerItem });
      if (picked.itemId === null) return { item: null, available: 0 };
      return { item: this.#readItem(req.projectId, req.queueId, picked.itemId, true), available: picked.available };
    });
  }

  async queueProgress(req: { projectId: string; queueId: string }): Promise<ProgressRecord[] | null> {
    if (!this.#liveQueue(req.projectId, req.queueId)) return null;
    return readProgress(this.#db, req);
  }

  async queueAnswers(req: {
    projectId: string;
    queueId: string;
    weaveRef?: string;
    withSuperseded?: boolean;
  }): Promise<QueueAnswerRecord[]> {
    return readAnswers(this.#db, req);
  }

  async queueReservations(req: { projectId: string; queueId: string; now: number }): Promise<ReservationRecord[]> {
    return readReservations(this.#db, req);
  }

  #liveQueue(projectId: string, queueId: string): QueueRecord | null {
    const row = this.#db.get<QueueRow>(LIVE_QUEUE_SQL, [projectId, queueId]);
    return row ? queueFromRow(row) : null;
  }

  #liveItem(projectId: string, queueId: string, itemId: string): boolean {
    const sql = `SELECT 1 FROM annotation_queue_items i JOIN annotation_queues q ON q.project_id = i.project_id AND q.id = i.queue_id
      WHERE i.project_id = ? AND i.queue_id = ? AND i.id = ? AND q.deleted_at IS NULL`;
    return this.#db.get(sql, [projectId, queueId, itemId]) !== undefined;
  }

  #readItem(projectId: string, queueId: string, itemId: string, includePosition = false): QueueItemRecord | null {
    const { sql, params } = compileItemsSelect({
      projectId,
      queueId,
      filter: includePosition ? {} : { id: itemId },
      sortBy: [],
      includePosition,
    });
    if (includePosition) {
      // The position numbers the whole queue, so the id filter goes around the numbered rows.
      const row = this.#db.get<ItemRow>(`SELECT * FROM (${sql}) WHERE id = ?`, [...params, itemId]);
      return row ? itemFromRow(row) : null;
    }
    const row = this.#db.get<ItemRow>(sql, params);
    return row ? itemFromRow(row) : null;
  }
}
