/**
 * Everything that defines a calls view lives in the URL, so a copied link reproduces it:
 * `?f=[["op_name","contains","llm"]]&sort=started_at:desc&cols=op,status,inputs.q&since=-24h&roots=0&live=1`.
 * Defaults are left out of the URL to keep links short.
 */
import { useUrlView } from '../../lib/useUrlView.js';
import { OP_LABELS, type FilterClause, type FilterOp } from './filterModel.js';

/** The built-in columns, in their default order. */
export const DEFAULT_COLUMNS = [
  'op',
  'status',
  'start',
  'latency',
  'input',
  'output',
  'model',
  'tokens',
  'cost',
  'feedback',
  'scores',
] as const;

/** True for ids that name a built-in column rather than a field path. */
export function isBuiltinColumn(id: string): boolean {
  return (DEFAULT_COLUMNS as readonly string[]).includes(id);
}

/** One server-side sort key. */
export interface SortState {
  field: string;
  direction: 'asc' | 'desc';
}

/** The calls view as the URL describes it. */
export interface CallsViewState {
  clauses: FilterClause[];
  sort: SortState;
  columns: string[];
  /** Time range start: relative (`-24h`) or ISO; null = any time. */
  since: string | null;
  rootsOnly: boolean;
  live: boolean;
}

export const DEFAULT_SORT: SortState = { field: 'started_at', direction: 'desc' };

function parseClauses(raw: string | null): FilterClause[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((c): FilterClause[] =>
      Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'string' && c[1] in OP_LABELS
        ? [{ field: c[0], op: c[1] as FilterOp, value: typeof c[2] === 'string' ? c[2] : '' }]
        : [],
    );
  } catch {
    return [];
  }
}

function parseSort(raw: string | null): SortState {
  const m = raw ? /^(.+):(asc|desc)$/.exec(raw) : null;
  return m ? { field: m[1]!, direction: m[2] as 'asc' | 'desc' } : DEFAULT_SORT;
}

/** Reads the view from search params. */
export function readCallsView(params: URLSearchParams): CallsViewState {
  const cols = params.get('cols');
  return {
    clauses: parseClauses(params.get('f')),
    sort: parseSort(params.get('sort')),
    columns: cols ? cols.split(',').filter(Boolean) : [...DEFAULT_COLUMNS],
    since: params.get('since'),
    rootsOnly: params.get('roots') !== '0',
    live: params.get('live') === '1',
  };
}

/** Writes a view into search params, omitting defaults. */
export function writeCallsView(view: CallsViewState, params = new URLSearchParams()): URLSearchParams {
  const set = (key: string, value: string | null) => (value === null ? params.delete(key) : params.set(key, value));
  set('f', view.clauses.length ? JSON.stringify(view.clauses.map((c) => [c.field, c.op, c.value])) : null);
  const sort = `${view.sort.field}:${view.sort.direction}`;
  set('sort', sort === `${DEFAULT_SORT.field}:${DEFAULT_SORT.direction}` ? null : sort);
  const cols = view.columns.join(',');
  set('cols', cols === DEFAULT_COLUMNS.join(',') ? null : cols);
  set('since', view.since);
  set('roots', view.rootsOnly ? null : '0');
  set('live', view.live ? '1' : null);
  return params;
}

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useCallsView(): [CallsViewState, (patch: Partial<CallsViewState>) => void] {
  return useUrlView(readCallsView, writeCallsView);
}
