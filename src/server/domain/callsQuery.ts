/**
 * The call query as the reference answers it: defaults, checks the store should not have to
 * repeat, and `summary.weave` on every row.
 */
import type { CallSchema, CallsQueryReq } from '../../contract/calls.js';
import type { Store } from '../store/Store.js';
import { withWeaveSummary } from './calls.js';

/** Streams the calls matching a `/calls/stream_query` request. */
export async function* queryCalls(store: Store, req: CallsQueryReq): AsyncIterable<CallSchema> {
  const rows = store.calls.queryCalls({
    projectId: req.project_id,
    filter: req.filter,
    query: req.query,
    sortBy: req.sort_by,
    limit: req.limit,
    offset: req.offset,
    columns: req.columns,
    includeStorageSize: req.include_storage_size ?? false,
    includeTotalStorageSize: req.include_total_storage_size ?? false,
  });
  for await (const call of rows) yield withWeaveSummary(call);
}
