/**
 * The SQL behind Weft's reviewer features of annotation queues: picking and reserving the next
 * item, releasing a reservation, superseding a reviewer's answers when they edit an item, the
 * first call of a thread, and the reads the results, summary and history build on. Every
 * function runs on the caller's connection, inside its transaction when it has one.
 */
import type { ProgressRecord, ProgressState, QueueAnswerRecord, ReservationRecord, ReserveNextReq } from '../AnnotationQueuesStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** Feedback the queue submit writes: an annotation, carrying the queue id. */
const QUEUE_ANSWER = "queue_id = ? AND feedback_type LIKE 'wandb.annotation.%'";

interface Candidate {
  id: string;
  created_at: number;
  mine: number;
}

/**
 * Chooses and reserves the annotator's next item (see AnnotationQueuesStore.reserveNext).
 * Runs inside the caller's write transaction, so two reviewers asking at once are served one
 * after the other and cannot both be given the last free item.
 */
export function pickNextItem(
  db: SqliteDatabase,
  req: ReserveNextReq & { reviewersPerItem: number },
): { itemId: string | null; available: number } {
  const scope = [req.projectId, req.queueId];
  db.run('DELETE FROM annotation_item_reservations WHERE project_id = ? AND queue_id = ? AND expires_at <= ?', [...scope, req.now]);
  const candidates = db.all<Candidate>(
    `WITH done AS (
       SELECT queue_item_id,
              SUM(annotation_state = 'completed') AS completed,
              MAX(annotator_id = ? AND annotation_state IN ('completed', 'skipped')) AS mine_done
       FROM annotator_queue_items_progress WHERE project_id = ? AND queue_id = ? GROUP BY queue_item_id
     ), held AS (
       SELECT queue_item_id, SUM(annotator_id != ?) AS others, MAX(annotator_id = ?) AS mine
       FROM annotation_item_reservations WHERE project_id = ? AND queue_id = ? GROUP BY queue_item_id
     )
     SELECT qi.id, qi.created_at, COALESCE(h.mine, 0) AS mine
     FROM annotation_queue_items qi
       LEFT JOIN done d ON d.queue_item_id = qi.id
       LEFT JOIN held h ON h.queue_item_id = qi.id
     WHERE qi.project_id = ? AND qi.queue_id = ? AND COALESCE(d.mine_done, 0) = 0
       AND COALESCE(d.completed, 0) + COALESCE(h.others, 0) < ?
     ORDER BY qi.created_at, qi.id`,
    [req.annotator, ...scope, req.annotator, req.annotator, ...scope, ...scope, req.reviewersPerItem],
  );
  const picked = chooseCandidate(db, req, candidates);
  db.run('DELETE FROM annotation_item_reservations WHERE project_id = ? AND queue_id = ? AND annotator_id = ?', [...scope, req.annotator]);
  if (!picked) return { itemId: null, available: 0 };
  db.run(
    `INSERT INTO annotation_item_reservations (project_id, queue_item_id, annotator_id, queue_id, expires_at) VALUES (?, ?, ?, ?, ?)`,
    [req.projectId, picked.id, req.annotator, req.queueId, req.expiresAt],
  );
  return { itemId: picked.id, available: candidates.length };
}

/** After `afterItemId` when given (wrapping), else the item the annotator already holds, else the first. */
function chooseCandidate(db: SqliteDatabase, req: ReserveNextReq, candidates: Candidate[]): Candidate | undefined {
  if (req.afterItemId) {
    const after = db.get<{ id: string; created_at: number }>(
      'SELECT id, created_at FROM annotation_queue_items WHERE project_id = ? AND queue_id = ? AND id = ?',
      [req.projectId, req.queueId, req.afterItemId],
    );
    if (after) {
      const later = candidates.find((c) => c.created_at > after.created_at || (c.created_at === after.created_at && c.id > after.id));
      return later ?? candidates.find((c) => c.id !== after.id) ?? candidates[0];
    }
  }
  return candidates.find((c) => c.mine === 1) ?? candidates[0];
}

/** Drops the annotator's reservation on an item. */
export function releaseReservation(db: SqliteDatabase, req: { projectId: string; itemId: string; annotator: string }): void {
  db.run('DELETE FROM annotation_item_reservations WHERE project_id = ? AND queue_item_id = ? AND annotator_id = ?', [
    req.projectId,
    req.itemId,
    req.annotator,
  ]);
}

/**
 * Moves the annotator's current answers on an item's call (in this queue) to the superseded
 * history, so the answers written next are the only current ones.
 */
export function supersedeAnswers(
  db: SqliteDatabase,
  req: { projectId: string; queueId: string; itemId: string; annotator: string; weaveRef: string; now: number },
): void {
  const where = `project_id = ? AND ${QUEUE_ANSWER} AND weave_ref = ? AND wb_user_id = ?`;
  const params = [req.projectId, req.queueId, req.weaveRef, req.annotator];
  db.run(
    `INSERT OR REPLACE INTO feedback_superseded (project_id, id, weave_ref, wb_user_id, creator, created_at, feedback_type, payload,
       annotation_ref, queue_id, queue_item_id, superseded_at)
     SELECT project_id, id, weave_ref, wb_user_id, creator, created_at, feedback_type, payload, annotation_ref, queue_id, ?, ?
     FROM feedback WHERE ${where}`,
    [req.itemId, req.now, ...params],
  );
  db.run(`DELETE FROM feedback WHERE ${where}`, params);
}

/**
 * The call an item for a thread attaches to: the thread's first turn, or without turns the
 * earliest root call of the thread. Only calls that started and are not deleted count.
 */
export function firstCallOfThread(db: SqliteDatabase, projectId: string, threadId: string): string | null {
  const live = 'project_id = ? AND thread_id = ? AND started_at IS NOT NULL AND deleted_at IS NULL';
  const turn = db.get<{ id: string }>(`SELECT id FROM calls WHERE ${live} AND turn_id = id ORDER BY started_at, id LIMIT 1`, [
    projectId,
    threadId,
  ]);
  if (turn) return turn.id;
  const root = db.get<{ id: string }>(`SELECT id FROM calls WHERE ${live} AND parent_id IS NULL ORDER BY started_at, id LIMIT 1`, [
    projectId,
    threadId,
  ]);
  return root?.id ?? null;
}

/** Every progress record in a queue. */
export function readProgress(db: SqliteDatabase, req: { projectId: string; queueId: string }): ProgressRecord[] {
  return db
    .all<{ queue_item_id: string; annotator_id: string; annotation_state: ProgressState; updated_at: number }>(
      `SELECT queue_item_id, annotator_id, annotation_state, updated_at FROM annotator_queue_items_progress
       WHERE project_id = ? AND queue_id = ? ORDER BY updated_at`,
      [req.projectId, req.queueId],
    )
    .map((r) => ({ itemId: r.queue_item_id, annotator: r.annotator_id, state: r.annotation_state, updatedAt: r.updated_at }));
}

interface AnswerRow {
  id: string;
  weave_ref: string;
  wb_user_id: string | null;
  annotation_ref: string | null;
  payload: string;
  created_at: number;
  superseded_at: number | null;
}

/** Current queue answers (optionally on one call), plus the superseded ones when asked, oldest first. */
export function readAnswers(
  db: SqliteDatabase,
  req: { projectId: string; queueId: string; weaveRef?: string; withSuperseded?: boolean },
): QueueAnswerRecord[] {
  const on = req.weaveRef === undefined ? '' : ' AND weave_ref = ?';
  const params = [req.projectId, req.queueId, ...(req.weaveRef === undefined ? [] : [req.weaveRef])];
  const columns = 'id, weave_ref, wb_user_id, annotation_ref, payload, created_at';
  let sql = `SELECT ${columns}, NULL AS superseded_at FROM feedback WHERE project_id = ? AND ${QUEUE_ANSWER}${on}`;
  if (req.withSuperseded) {
    sql += ` UNION ALL SELECT ${columns}, superseded_at FROM feedback_superseded WHERE project_id = ? AND ${QUEUE_ANSWER}${on}`;
    params.push(...params);
  }
  return db.all<AnswerRow>(`${sql} ORDER BY created_at, id`, params).map((r) => ({
    id: r.id,
    weaveRef: r.weave_ref,
    annotator: r.wb_user_id ?? '',
    annotationRef: r.annotation_ref,
    payloadJson: r.payload,
    createdAt: r.created_at,
    supersededAt: r.superseded_at,
  }));
}

/** Reservations in a queue that have not expired at `now`. */
export function readReservations(db: SqliteDatabase, req: { projectId: string; queueId: string; now: number }): ReservationRecord[] {
  return db
    .all<{ queue_item_id: string; annotator_id: string; expires_at: number }>(
      'SELECT queue_item_id, annotator_id, expires_at FROM annotation_item_reservations WHERE project_id = ? AND queue_id = ? AND expires_at > ?',
      [req.projectId, req.queueId, req.now],
    )
    .map((r) => ({ itemId: r.queue_item_id, annotator: r.annotator_id, expiresAt: r.expires_at }));
}
