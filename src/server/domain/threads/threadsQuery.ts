/**
 * The thread query as the spec answers it: defaults (`last_updated desc`), ISO bounds to
 * microseconds, wire formatting, and Weft's preview fields for the page being sent.
 */
import type { ThreadSchema, ThreadsQueryFilter, ThreadsQueryReq, ThreadsQueryStatsReq } from '../../../contract/threads.js';
import { BadRequestError } from '../../errors.js';
import type { Store, ThreadRecord, ThreadsQuery } from '../../store/Store.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';

const PREVIEW_BATCH = 200;

function bound(text: string | null | undefined, field: string): number | null {
  if (text == null) return null;
  const us = parseIsoToMicros(text);
  if (us === null) throw new BadRequestError(`filter.${field} is not a valid ISO 8601 datetime: ${text}`);
  return us;
}

/** The filter part of a thread query, resolved (reference fields, then Weft's extensions). */
function resolveFilter(projectId: string, filter: ThreadsQueryFilter | null | undefined): Omit<ThreadsQuery, 'sortBy'> {
  return {
    projectId,
    afterMicros: bound(filter?.after_datetime, 'after_datetime'),
    beforeMicros: bound(filter?.before_datetime, 'before_datetime'),
    threadIds: filter?.thread_ids ?? null,
    search: filter?.search ?? null,
    min: filter?.min ?? null,
    max: filter?.max ?? null,
    attributes: filter?.attributes ?? null,
  };
}

/** `/threads/query_stats`: the exact number of threads a filter matches. */
export async function countThreads(store: Store, req: ThreadsQueryStatsReq): Promise<{ count: number }> {
  return { count: await store.threads.countThreads({ ...resolveFilter(req.project_id, req.filter), sortBy: [] }) };
}

/** Streams the threads of a `/threads/stream_query` request. */
export async function* queryThreads(store: Store, req: ThreadsQueryReq): AsyncIterable<ThreadSchema> {
  const rows = store.threads.queryThreads({
    ...resolveFilter(req.project_id, req.filter),
    sortBy: req.sort_by?.length ? req.sort_by : [{ field: 'last_updated', direction: 'desc' }],
    limit: req.limit,
    offset: req.offset,
  });
  // Previews are looked up a batch at a time, so a long stream never holds every thread.
  let batch: ThreadRecord[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= PREVIEW_BATCH) {
      yield* await withPreviews(store, req.project_id, batch);
      batch = [];
    }
  }
  yield* await withPreviews(store, req.project_id, batch);
}

async function withPreviews(store: Store, projectId: string, rows: ThreadRecord[]): Promise<ThreadSchema[]> {
  if (rows.length === 0) return [];
  const ids = (list: (string | null)[]) => list.filter((x): x is string => x !== null);
  const previews = await store.threads.previews(projectId, {
    firstInput: ids(rows.map((r) => r.firstTurnId)),
    lastOutput: ids(rows.map((r) => r.lastTurnId)),
  });
  return rows.map((r) => ({
    thread_id: r.threadId,
    turn_count: r.turnCount,
    start_time: formatMicros(r.startTime),
    // Statistics stored before last_updated fell back to the latest start can still hold null
    // until their thread is next written; the start time is then the best answer at hand.
    last_updated: formatMicros(r.lastUpdated ?? r.startTime),
    first_turn_id: r.firstTurnId,
    last_turn_id: r.lastTurnId,
    p50_turn_duration_ms: r.p50TurnDurationMs,
    p99_turn_duration_ms: r.p99TurnDurationMs,
    finished_turn_count: r.finishedTurnCount,
    error_count: r.errorCount,
    total_tokens: r.totalTokens,
    total_cost: r.totalCost,
    first_input_preview: (r.firstTurnId && previews.firstInput.get(r.firstTurnId)) ?? null,
    last_output_preview: (r.lastTurnId && previews.lastOutput.get(r.lastTurnId)) ?? null,
  }));
}
