/**
 * Plans a CallsFilter (the structured filter beside `$expr`) into clauses (ir.ts
 * `FilterClause`): one per set field, ANDed; a list matches any of its values; an empty or
 * absent list sets nothing.
 */
import type { CallsFilter } from '../../../contract/calls.js';
import type { FilterClause, FilterListColumn } from './ir.js';

const LISTS: [FilterListColumn, keyof CallsFilter][] = [
  ['parent_id', 'parent_ids'],
  ['trace_id', 'trace_ids'],
  ['id', 'call_ids'],
  ['thread_id', 'thread_ids'],
  ['turn_id', 'turn_ids'],
  ['wb_user_id', 'wb_user_ids'],
  ['wb_run_id', 'wb_run_ids'],
];

export function planFilter(filter: CallsFilter): FilterClause[] {
  const out: FilterClause[] = [];
  if (filter.op_names?.length) {
    // `name:*` names every version of an op: the prefix up to and including the colon.
    const exact = filter.op_names.filter((n) => !n.endsWith(':*'));
    const prefixes = filter.op_names.filter((n) => n.endsWith(':*')).map((n) => n.slice(0, -1));
    out.push({ k: 'opNames', exact, prefixes });
  }
  for (const [column, key] of LISTS) {
    const values = filter[key] as string[] | null | undefined;
    if (values && values.length > 0) out.push({ k: 'in', column, values });
  }
  for (const [column, refs] of [
    ['input_refs', filter.input_refs],
    ['output_refs', filter.output_refs],
  ] as const) {
    if (refs?.length) out.push({ k: 'refs', column, refs });
  }
  if (filter.trace_roots_only) out.push({ k: 'traceRoots' });
  return out;
}
