/**
 * The SQL behind Weft's reviewer features of annotation queues on ClickHouse: picking and
 * reserving the next item, releasing reservations, superseding a reviewer's answers when they
 * edit an item, the first call of each thread, and the reads the results, summary and history
 * build on. Queue answers are feedback rows, read and purged through the FeedbackStore, never
 * its tables. What is weaker than on SQLite is said in annotationQueues.ts.
 */
import { parseIsoToMicros } from '../../core/datetime.js';
import type { Feedback } from '../../../contract/feedback.js';
import type {
  ProgressRecord,
  ProgressState,
  ProgressWrite,
  QueueAnswerRecord,
  ReservationRecord,
  ReserveNextReq,
} from '../AnnotationQueuesStore.js';
import type { FeedbackStore } from '../FeedbackStore.js';
import { HELD_SQL, PROGRESS_SQL } from './annotationQueueItems.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

/** Feedback the queue submit writes: an annotation, carrying the queue id. */
const isQueueAnswer = (f: { feedback_type: string; queue_id: string | null }, queueId: string) =>
  f.queue_id === queueId && f.feedback_type.startsWith('wandb.annotation.');

/** A time from feedback as the FeedbackStore answers it (wire text or epoch µs). */
const micros = (v: unknown): number => (typeof v === 'string' && !/^\d+$/.test(v) ? (parseIsoToMicros(v) ?? 0) : num(v));

interface Candidate {
  id: string;
  createdAt: number;
  mine: boolean;
}

interface SupersededRow {
  id: string;
  weave_ref: string;
  wb_user_id: string | null;
  annotation_ref: string | null;
  payload: string;
  created_at: string;
  superseded_at: string;
}

/**
 * Chooses and reserves the annotator's next item (see AnnotationQueuesStore.reserveNext), and
 * drops the annotator's other holds in the queue. Reads, then inserts: see annotationQueues.ts
 * for what two reviewers asking at the same instant can get.
 */
export async function pickNextItem(
  db: ClickHouseDatabase,
  req: ReserveNextReq & { reviewersPerItem: number },
): Promise<{ itemId: string | null; available: number }> {
  const params = { p: req.projectId, q: req.queueId, a: req.annotator, now: req.now, rpi: req.reviewersPerItem };
  const candidates = (
    await db.all<{ id: string; created_at: string; mine: number }>(
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
  const picked = await chooseCandidate(db, req, candidates);
  // The annotator's other reservations in the queue go (one hold per reviewer and queue).
  const mine = await db.all<{ queue_item_id: string }>(`SELECT queue_item_id FROM (${HELD_SQL}) WHERE annotator_id = {a:String}`, params);
  await releaseReservations(
    db,
    req.projectId,
    req.queueId,
    mine.filter((r) => r.queue_item_id !== picked?.id).map((r) => ({ itemId: r.queue_item_id, annotator: req.annotator })),
  );
  if (!picked) return { itemId: null, available: 0 };
  const version = await reservationVersion(db, req.projectId, req.queueId, [picked.id], [req.annotator]);
  await db.insert('annotation_item_reservations', [
    {
      project_id: req.projectId,
      queue_id: req.queueId,
      queue_item_id: picked.id,
      annotator_id: req.annotator,
      expires_at: req.expiresAt,
      version,
      is_deleted: 0,
    },
  ]);
  return { itemId: picked.id, available: candidates.length };
}

/** After `afterItemId` when given (wrapping), else the item the annotator already holds, else the first. */
async function chooseCandidate(db: ClickHouseDatabase, req: ReserveNextReq, candidates: Candidate[]): Promise<Candidate | undefined> {
  if (req.afterItemId) {
    const after = await db.get<{ id: string; created_at: string }>(
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

/** Above every stored version of the holds of these items by these annotators. */
function reservationVersion(db: ClickHouseDatabase, projectId: string, queueId: string, items: string[], annotators: string[]) {
  return db.versionAfter(
    'annotation_item_reservations',
    'project_id = {p:String} AND queue_id = {q:String} AND queue_item_id IN {i:Array(String)} AND annotator_id IN {a:Array(String)}',
    { p: projectId, q: queueId, i: items, a: annotators },
  );
}

/** Drops reservations: a tombstone per (item, annotator), harmless where none is held. */
export async function releaseReservations(
  db: ClickHouseDatabase,
  projectId: string,
  queueId: string,
  holds: { itemId: string; annotator: string }[],
): Promise<void> {
  if (holds.length === 0) return;
  const version = await reservationVersion(
    db,
    projectId,
    queueId,
    holds.map((h) => h.itemId),
    holds.map((h) => h.annotator),
  );
  await db.insert(
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

/**
 * Moves the annotator's current answers on the item's call (in this queue) to the superseded
 * history: copied first, then purged from feedback, so a failure between the two leaves an
 * answer in both places (never in neither) and a retry converges.
 */
export async function supersedeAnswers(
  db: ClickHouseDatabase,
  feedback: FeedbackStore,
  req: ProgressWrite,
  weaveRef: string,
): Promise<void> {
  const current = (await feedback.feedbackForRefs({ projectId: req.projectId, weaveRefs: [weaveRef] })).filter(
    (f) => isQueueAnswer(f, req.queueId) && f.wb_user_id === req.annotator,
  );
  if (current.length === 0) return;
  await db.insert(
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
  await feedback.purgeFeedback({ projectId: req.projectId, ids: current.map((f) => f.id) });
}

/**
 * The call each thread's item attaches to: its first turn, or without turns its earliest root
 * call; only calls that started and are not deleted count (as the SQLite store's).
 */
export async function firstCallsOfThreads(db: ClickHouseDatabase, projectId: string, threadIds: string[]): Promise<Map<string, string>> {
  if (threadIds.length === 0) return new Map();
  const rows = await db.all<{ thread_id: string; first_id: string }>(
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

/** Every progress record of a queue, oldest change first. */
export async function readProgress(db: ClickHouseDatabase, req: { projectId: string; queueId: string }): Promise<ProgressRecord[]> {
  const rows = await db.all<{ queue_item_id: string; annotator_id: string; annotation_state: ProgressState; updated_at: string }>(
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

/** The queue's answers (optionally on one call, optionally with superseded ones), oldest first. */
export async function readAnswers(
  db: ClickHouseDatabase,
  feedback: FeedbackStore,
  req: { projectId: string; queueId: string; weaveRef?: string; withSuperseded?: boolean },
): Promise<QueueAnswerRecord[]> {
  const current: Feedback[] =
    req.weaveRef === undefined
      ? ((await feedback.queryFeedback({
          projectId: req.projectId,
          query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: req.queueId }] } },
        })) as Feedback[])
      : await feedback.feedbackForRefs({ projectId: req.projectId, weaveRefs: [req.weaveRef] });
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
    const rows = await db.all<SupersededRow>(
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

/** The queue's unexpired reservations at `now`. */
export async function readReservations(
  db: ClickHouseDatabase,
  req: { projectId: string; queueId: string; now: number },
): Promise<ReservationRecord[]> {
  const rows = await db.all<{ queue_item_id: string; annotator_id: string; expires_at: string }>(HELD_SQL, {
    p: req.projectId,
    q: req.queueId,
    now: req.now,
  });
  return rows.map((r) => ({ itemId: r.queue_item_id, annotator: r.annotator_id, expiresAt: num(r.expires_at) }));
}
