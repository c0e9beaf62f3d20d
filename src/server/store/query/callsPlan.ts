/**
 * The plan of a whole calls query (CallsQuery): which calls match, in what order, and which
 * columns to load. See index.ts for what a backend printer must do with it.
 */
import type { CallsQuery } from '../CallsStore.js';
import { resolveCallField } from './callFields.js';
import { planExpr } from './callsExpr.js';
import { planFilter } from './callsFilter.js';
import { planSearch } from './callsSearch.js';
import { planOrder } from './callsOrder.js';
import type { CallField, Condition, FilterClause, SortKey } from './ir.js';

/** Every stored column a call read can return, in CallSchema order. */
export const CALL_COLUMNS = [
  'id',
  'project_id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'ended_at',
  'attributes',
  'inputs',
  'output',
  'exception',
  'summary',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
] as const;
export type CallColumn = (typeof CALL_COLUMNS)[number];

const ALWAYS: CallColumn[] = ['id', 'trace_id', 'project_id', 'op_name', 'started_at'];
/** `summary.weave` is computed from these, so a request for `summary` loads them too. */
const FOR_SUMMARY: CallColumn[] = ['ended_at', 'exception', 'display_name'];

/** Which columns to load for a `columns` request (null or empty → all). */
export function selectedColumns(columns: string[] | null | undefined): CallColumn[] {
  if (!columns || columns.length === 0) return [...CALL_COLUMNS];
  const wanted = new Set<string>(ALWAYS);
  for (const c of columns) {
    const top = c.split('.')[0]!;
    wanted.add(top);
    if (top === 'summary') for (const extra of FOR_SUMMARY) wanted.add(extra);
  }
  return CALL_COLUMNS.filter((c) => wanted.has(c));
}

/**
 * What a store loads for a `columns` request: selectedColumns, and `otel_dump` with the attributes
 * (an OTel call shows its span as attributes.otel_span, callRow.ts). Remembered per list: the
 * main thread asks it for the same few lists at every point read of an evaluation logger's requests.
 */
export function loadedColumns(columns: readonly string[] | null | undefined): readonly string[] {
  const key = columns?.join('\u0000') ?? '';
  let loaded = LOADED.get(key);
  if (!loaded) {
    const selected: string[] = selectedColumns(columns ? [...columns] : null);
    loaded = Object.freeze(selected.includes('attributes') ? [...selected, 'otel_dump'] : selected);
    // Lists also come from clients (calls/stream_query `columns`): remember a bounded number.
    if (LOADED.size < MAX_REMEMBERED_LISTS) LOADED.set(key, loaded);
  }
  return loaded;
}

const MAX_REMEMBERED_LISTS = 256;
const LOADED = new Map<string, readonly string[]>();

/** A top-level input name a store reads by itself (CallsStore.childInputs): letters, digits and _. */
export function inputKey(key: string): string {
  if (!/^\w+$/.test(key)) throw new Error(`Not an input name: ${JSON.stringify(key)}`);
  return key;
}

/**
 * Which calls of `projectId` match: the visible ones (their start has arrived, they are not
 * deleted) that satisfy every filter clause and the `$expr` condition.
 */
export interface CallsWhere {
  projectId: string;
  filter: FilterClause[];
  expr: Condition | null;
}

type WhereInput = Pick<CallsQuery, 'projectId' | 'filter' | 'query' | 'expandColumns'>;

/** Field resolution with the request's `expand_columns` in effect. */
const resolverFor =
  (expandColumns: readonly string[] | null | undefined) =>
  (path: string): CallField =>
    resolveCallField(path, expandColumns ?? []);

/** Plans the filter, then `$expr` (so a bad filter is reported before a bad expression). */
export function planCallsWhere(q: WhereInput): CallsWhere {
  const filter = q.filter ? planFilter(q.filter, q.projectId) : [];
  const expr = q.query ? planExpr(q.query.$expr, resolverFor(q.expandColumns)) : null;
  return { projectId: q.projectId, filter, expr };
}

/**
 * Plans `sort_by` (see callsOrder.ts). With a `search` filter, calls holding the text as a whole
 * word come first (callsSearch.ts), in the requested order within each group.
 */
export function planCallsOrder(q: Pick<CallsQuery, 'sortBy' | 'expandColumns' | 'filter'>): SortKey[] {
  const keys = planOrder(q.sortBy ?? null, resolverFor(q.expandColumns));
  const search = planSearch(q.filter?.search);
  return search ? [{ value: { k: 'searchWord', search }, direction: 'desc', nullable: false }, ...keys] : keys;
}
