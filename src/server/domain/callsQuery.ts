/**
 * The call query as the reference answers it: defaults, checks the store should not have to
 * repeat, `summary.weave` on every row, and feedback and costs when asked for (callExtras.ts).
 */
import type { CallSchema, CallsQueryReq } from '../../contract/calls.js';
import type { Store } from '../store/Store.js';
import { addCallExtrasToStream } from './callExtras.js';
import { withWeaveSummary } from './calls.js';

/** The stored columns a request needs: what it asks for, plus what its extras are computed from. */
function columnsToLoad(req: CallsQueryReq): string[] | null | undefined {
  if (!req.columns?.length) return req.columns;
  const extra = [
    // Costs are priced from summary.usage, so asking for them loads the summary.
    ...(req.include_costs ? ['summary'] : []),
    // Usernames are looked up from wb_user_id.
    ...(req.include_usernames ? ['wb_user_id'] : []),
  ];
  return [...req.columns, ...extra];
}

/** Streams the calls matching a `/calls/stream_query` request. */
export async function* queryCalls(store: Store, req: CallsQueryReq): AsyncIterable<CallSchema> {
  const rows = store.calls.queryCalls({
    projectId: req.project_id,
    filter: req.filter,
    query: req.query,
    sortBy: req.sort_by,
    limit: req.limit,
    offset: req.offset,
    columns: columnsToLoad(req),
    includeStorageSize: req.include_storage_size ?? false,
    includeTotalStorageSize: req.include_total_storage_size ?? false,
  });
  const withSummary = (async function* () {
    for await (const call of rows) yield withWeaveSummary(call);
  })();
  yield* addCallExtrasToStream(store, req.project_id, withSummary, {
    includeFeedback: req.include_feedback ?? false,
    includeCosts: req.include_costs ?? false,
    includeUsernames: req.include_usernames ?? false,
  });
}
