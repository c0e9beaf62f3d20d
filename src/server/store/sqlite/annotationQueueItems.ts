/**
 * The SQL behind queue-item reads: items with their aggregated state (the state of the most
 * recently updated progress record, `unstarted` without one), the field filters, the sort,
 * the optional position and the state filter — in the order the reference applies them.
 */
import type { AnnotationState } from '../../../contract/annotationQueues.js';
import type { ItemSortField, ItemsQuery, QueueItemRecord, QueueSort } from '../AnnotationQueuesStore.js';

/** Sortable item fields and their columns: a whitelist, whatever the caller checked. */
const SORT_COLUMNS: Record<ItemSortField, string> = {
  call_started_at: 'call_started_at',
  call_op_name: 'call_op_name',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

/** Exact-match filters and their columns. */
const FILTER_COLUMNS = {
  id: 'qi.id',
  call_id: 'qi.call_id',
  call_op_name: 'qi.call_op_name',
  call_trace_id: 'qi.call_trace_id',
  added_by: 'qi.added_by',
} as const;

/** The row the items query yields. */
export interface ItemRow {
  project_id: string;
  id: string;
  queue_id: string;
  call_id: string;
  call_started_at: number;
  call_ended_at: number | null;
  call_op_name: string;
  call_trace_id: string;
  display_fields: string;
  added_by: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
  annotation_state: AnnotationState;
  annotator_user_id: string | null;
  position_in_queue: number | null;
  thread_id: string | null;
  completed_reviews: number;
  reserved_by: string | null;
}

/** `ORDER BY` terms: the chosen keys (default created_at), then id ascending for a stable order. */
function orderBy(sortBy: QueueSort<ItemSortField>[]): string {
  const keys = sortBy.map((s) => `${SORT_COLUMNS[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
  return [...(keys.length ? keys : ['created_at ASC']), 'id ASC'].join(', ');
}

/**
 * One SELECT for a page of items. The caller has checked that the queue is live. Progress
 * records carry unique update times per item (see the migration), so `rn = 1` is one record.
 */
export function compileItemsSelect(q: ItemsQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [q.projectId, q.queueId, q.now ?? Date.now() * 1000, q.projectId, q.queueId];
  const where = ['qi.project_id = ?', 'qi.queue_id = ?'];
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof typeof FILTER_COLUMNS, string][]) {
    const value = q.filter?.[key];
    if (value == null) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  const order = orderBy(q.sortBy);
  // The position numbers the whole filtered queue, so it is computed before the state filter
  // and before paging (as the reference does).
  let sql = `
    WITH latest AS (
      SELECT queue_item_id, annotation_state, annotator_id,
             ROW_NUMBER() OVER (PARTITION BY queue_item_id ORDER BY updated_at DESC) AS rn
      FROM annotator_queue_items_progress WHERE project_id = ? AND queue_id = ?
    ), items AS (
      SELECT qi.*, COALESCE(l.annotation_state, 'unstarted') AS annotation_state, l.annotator_id AS annotator_user_id,
        (SELECT COUNT(*) FROM annotator_queue_items_progress p
          WHERE p.project_id = qi.project_id AND p.queue_item_id = qi.id AND p.annotation_state = 'completed') AS completed_reviews,
        (SELECT r.annotator_id FROM annotation_item_reservations r
          WHERE r.project_id = qi.project_id AND r.queue_item_id = qi.id AND r.expires_at > ?
          ORDER BY r.expires_at DESC LIMIT 1) AS reserved_by
      FROM annotation_queue_items qi LEFT JOIN latest l ON l.queue_item_id = qi.id AND l.rn = 1
      WHERE ${where.join(' AND ')}
    )
    SELECT *, ${q.includePosition ? `ROW_NUMBER() OVER (ORDER BY ${order})` : 'NULL'} AS position_in_queue FROM items`;
  const states = q.filter?.annotation_states;
  if (states?.length) {
    sql = `SELECT * FROM (${sql}) WHERE annotation_state IN (${states.map(() => '?').join(', ')})`;
    params.push(...states);
  }
  sql += ` ORDER BY ${order} LIMIT ? OFFSET ?`;
  params.push(q.limit ?? -1, q.offset ?? 0);
  return { sql, params };
}

export const itemFromRow = (r: ItemRow): QueueItemRecord => ({
  projectId: r.project_id,
  queueId: r.queue_id,
  id: r.id,
  callId: r.call_id,
  callStartedAt: r.call_started_at,
  callEndedAt: r.call_ended_at,
  callOpName: r.call_op_name,
  callTraceId: r.call_trace_id,
  displayFields: JSON.parse(r.display_fields) as string[],
  addedBy: r.added_by,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  annotationState: r.annotation_state,
  annotatorUserId: r.annotator_user_id,
  positionInQueue: r.position_in_queue,
  threadId: r.thread_id,
  completedReviews: r.completed_reviews,
  reservedBy: r.reserved_by,
});
