/**
 * Adding calls to a queue, a few or many thousands at once: ids are posted in batches of at
 * most 1000 (what one `POST /annotation_queues/:id/items` should carry). For "every call
 * matching the filters" the ids are paged out of `/calls/stream_query` (only the id column,
 * oldest first, so calls arriving meanwhile land after the pages already read), each page
 * posted before the next is read. Calls already in the queue are counted, not added twice.
 */
import type { CallsListReq } from '../../../entities/calls/callQueries.js';
import { api, collect } from '../../../lib/api.js';

/** Ids per request, both when reading calls and when adding them. */
export const ADD_BATCH = 1000;

/** Which calls to add: given ids, or every call a calls-list request matches. */
export type CallSource = { kind: 'ids'; ids: string[] } | { kind: 'query'; req: CallsListReq; total: number };

/** Running totals; `total` is the number of calls expected (the count when the run started). */
export interface AddProgress {
  done: number;
  total: number;
  added: number;
  duplicates: number;
}

/** Splits a list into chunks of `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Batches of call ids from a source, read lazily. */
async function* idBatches(source: CallSource, signal?: AbortSignal): AsyncGenerator<string[]> {
  if (source.kind === 'ids') {
    yield* chunk(source.ids, ADD_BATCH);
    return;
  }
  const { project_id, filter, query } = source.req;
  for (let offset = 0; ; offset += ADD_BATCH) {
    const page = await collect(
      api.callsStreamQuery(
        {
          project_id,
          filter,
          query,
          columns: ['id'],
          sort_by: [
            { field: 'started_at', direction: 'asc' },
            { field: 'id', direction: 'asc' },
          ],
          limit: ADD_BATCH,
          offset,
        },
        { signal },
      ),
    );
    if (page.length > 0) yield page.map((c) => c.id);
    if (page.length < ADD_BATCH) return;
  }
}

/** Adds the source's calls to a queue, reporting progress after each batch. */
export async function addCallsToQueue({
  projectId,
  queueId,
  source,
  displayFields,
  onProgress,
  signal,
}: {
  projectId: string;
  queueId: string;
  source: CallSource;
  displayFields: string[];
  onProgress?: (progress: AddProgress) => void;
  signal?: AbortSignal;
}): Promise<AddProgress> {
  const progress: AddProgress = { done: 0, total: source.kind === 'ids' ? source.ids.length : source.total, added: 0, duplicates: 0 };
  onProgress?.({ ...progress });
  for await (const ids of idBatches(source, signal)) {
    signal?.throwIfAborted();
    const res = await api.annotationQueueAddCalls(
      { project_id: projectId, queue_id: queueId, call_ids: ids, display_fields: displayFields },
      { signal },
    );
    progress.done += ids.length;
    progress.total = Math.max(progress.total, progress.done);
    progress.added += res.added_count;
    progress.duplicates += res.duplicates;
    onProgress?.({ ...progress });
  }
  return progress;
}
