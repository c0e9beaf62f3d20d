/**
 * Plans a CallsFilter (the structured filter beside `$expr`) into clauses (ir.ts
 * `FilterClause`): one per set field, ANDed; a list matches any of its values.
 *
 * When a list counts as set follows the reference (docs/reference/query-semantics.md, "Empty
 * lists"): `thread_ids` and `turn_ids` are set whenever they are not null, so an empty one
 * matches nothing; every other list is set only when it holds a value, so an empty one filters
 * nothing. A bare run id in `wb_run_ids` (no `/`) names a run of the query's own project.
 */
import type { CallsFilter } from '../../../contract/calls.js';
import { planSearch } from './callsSearch.js';
import type { FilterClause, FilterListColumn, JsonField } from './ir.js';

/** Where a call made by Weft itself carries its mark (domain/calls/weftMade.ts): `attributes.weft.source`. */
export const MADE_BY_WEFT_FIELD: JsonField = { kind: 'json', column: 'attributes', path: ['weft', 'source'] };

/** The list fields, and whether an empty list still filters (matching nothing). */
const LISTS: [FilterListColumn, keyof CallsFilter, 'emptyMatchesNothing' | 'emptyIsUnset'][] = [
  ['parent_id', 'parent_ids', 'emptyIsUnset'],
  ['trace_id', 'trace_ids', 'emptyIsUnset'],
  ['id', 'call_ids', 'emptyIsUnset'],
  ['thread_id', 'thread_ids', 'emptyMatchesNothing'],
  ['turn_id', 'turn_ids', 'emptyMatchesNothing'],
  ['wb_user_id', 'wb_user_ids', 'emptyIsUnset'],
  ['wb_run_id', 'wb_run_ids', 'emptyIsUnset'],
];

/** `projectId` is the query's project (`<entity>/<project>`), which qualifies bare run ids. */
export function planFilter(filter: CallsFilter, projectId: string): FilterClause[] {
  const out: FilterClause[] = [];
  if (filter.op_names?.length) {
    // `name:*` names every version of an op: the prefix up to and including the colon.
    const exact = filter.op_names.filter((n) => !n.endsWith(':*'));
    const prefixes = filter.op_names.filter((n) => n.endsWith(':*')).map((n) => n.slice(0, -1));
    out.push({ k: 'opNames', exact, prefixes });
  }
  for (const [column, key, empty] of LISTS) {
    const values = filter[key] as string[] | null | undefined;
    if (values == null || (values.length === 0 && empty === 'emptyIsUnset')) continue;
    out.push({ k: 'in', column, values: column === 'wb_run_id' ? values.map((id) => qualifyRunId(id, projectId)) : values });
  }
  for (const [column, refs] of [
    ['input_refs', filter.input_refs],
    ['output_refs', filter.output_refs],
  ] as const) {
    if (refs?.length) out.push({ k: 'refs', column, refs });
  }
  if (filter.trace_roots_only) out.push({ k: 'traceRoots' });
  if (filter.weft_made != null) out.push({ k: 'weftMade', made: filter.weft_made });
  const search = planSearch(filter.search);
  if (search) out.push({ k: 'search', search });
  return out;
}

/** Calls store run ids as `<entity>/<project>/<run>`; a bare `<run>` is one of the query's project. */
const qualifyRunId = (id: string, projectId: string): string => (id.includes('/') ? id : `${projectId}/${id}`);
