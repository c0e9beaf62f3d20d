/**
 * The call query as the reference answers it: defaults, checks the store should not have to
 * repeat, `summary.weave` on every row, and feedback and costs when asked for (callExtras.ts).
 */
import type { CallSchema, CallsQueryReq } from '../../../contract/calls.js';
import type { Store } from '../../store/Store.js';
import { addCallExtrasToStream } from './callExtras.js';
import { withWeaveSummary } from './calls.js';
import { expandCallRefs, type RefCache } from './expandColumns.js';

/** Page size for expanding refs: one ref lookup per distinct ref and page (and request cache). */
const EXPAND_PAGE = 200;

/** Expands `columns` page by page, keeping the stream's order and pace. */
async function* expandStream(store: Store, projectId: string, columns: string[], calls: AsyncIterable<CallSchema>) {
  const cache: RefCache = new Map();
  let page: CallSchema[] = [];
  for await (const call of calls) {
    page.push(call);
    if (page.length >= EXPAND_PAGE) {
      yield* await expandCallRefs(store, { projectId, columns, cache }, page);
      page = [];
    }
  }
  if (page.length) yield* await expandCallRefs(store, { projectId, columns, cache }, page);
}

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
    expandColumns: req.expand_columns,
    includeStorageSize: req.include_storage_size ?? false,
    includeTotalStorageSize: req.include_total_storage_size ?? false,
  });
  const withSummary = (async function* () {
    for await (const call of rows) yield withWeaveSummary(call);
  })();
  const expand = req.expand_columns?.length && req.return_expanded_column_values !== false ? req.expand_columns : null;
  const expanded = expand ? expandStream(store, req.project_id, expand, withSummary) : withSummary;
  yield* addCallExtrasToStream(store, req.project_id, expanded, {
    includeFeedback: req.include_feedback ?? false,
    includeCosts: req.include_costs ?? false,
    includeUsernames: req.include_usernames ?? false,
  });
}
