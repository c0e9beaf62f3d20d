/**
 * The SQL behind queue-item reads on ClickHouse: items with their aggregated state (the state of
 * the latest progress record, `unstarted` without one), their completed reviews and holder, the
 * field filters, the sort, the optional position and the state filter — in the order the SQLite
 * store applies them. Progress and reservations are read with FINAL, so no answer depends on when
 * merges run.
 */
import type { ItemSortField, ItemsQuery, QueueItemRecord, QueueSort } from '../AnnotationQueuesStore.js';
import { num, numOrNull, type Params } from './ClickHouseDatabase.js';

/** Sortable item fields and their columns: a whitelist, whatever the caller checked. */
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
export const ALL_ROWS = '18446744073709551615';

export interface ItemRow {
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

export const itemFromRow = (r: ItemRow): QueueItemRecord => ({
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
export const PROGRESS_SQL = `SELECT queue_item_id, annotator_id, annotation_state, created_at, updated_at, version
  FROM annotator_progress FINAL WHERE project_id = {p:String} AND queue_id = {q:String}`;

/** Unexpired reservations of a queue. */
export const HELD_SQL = `SELECT queue_item_id, annotator_id, expires_at FROM annotation_item_reservations FINAL
  WHERE project_id = {p:String} AND queue_id = {q:String} AND is_deleted = 0 AND expires_at > {now:Int64}`;

/**
 * One SELECT for a page of items of a (live) queue, with the aggregated state, the completed
 * reviews, the holder and the optional position, in the order the SQLite store applies them:
 * field filters, position, state filter, sort and paging.
 */
export function compileItemsSelect(q: ItemsQuery): { sql: string; params: Params } {
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
