/**
 * Everything that defines a calls view lives in the URL, so a copied link reproduces it:
 * `?f=[["op_name","contains","llm"]]&q=refund&sort=started_at:desc&cols=op,status,inputs.q&since=-24h&roots=0&live=1`.
 * Defaults are left out of the URL to keep links short.
 */
import { custom, flag, list, sortKey, text, urlState, type SortKey } from '../../lib/urlState.js';
import { useUrlView } from '../../lib/useUrlView.js';
import { OP_LABELS, type FilterClause, type FilterOp } from './filterModel.js';

/** The built-in columns, in their order in the table. */
export const BUILTIN_COLUMNS = [
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

/**
 * The columns of a view that names none: they fit a 1280 px screen; the others are one click
 * away in the column chooser (docs/dashboard.md "Columns").
 */
export const DEFAULT_COLUMNS = ['op', 'status', 'latency', 'output', 'tokens', 'cost'] as const;

/** True for ids that name a built-in column rather than a field path. */
export function isBuiltinColumn(id: string): boolean {
  return (BUILTIN_COLUMNS as readonly string[]).includes(id);
}

/** `columns` with built-in `id` shown in its place among the built-ins (path columns after them). */
export function withColumn(columns: readonly string[], id: (typeof BUILTIN_COLUMNS)[number]): string[] {
  if (columns.includes(id)) return [...columns];
  const builtins = BUILTIN_COLUMNS.filter((c) => c === id || columns.includes(c));
  return [...builtins, ...columns.filter((c) => !isBuiltinColumn(c))];
}

/** One server-side sort key. */
export type SortState = SortKey;

/** The calls view as the URL describes it. */
export interface CallsViewState {
  clauses: FilterClause[];
  sort: SortState;
  columns: string[];
  /** Time range start: relative (`-24h`) or ISO; null = any time. */
  since: string | null;
  rootsOnly: boolean;
  /** Content search (`?q=`): a substring of inputs, output, attributes or exception (docs/search.md). */
  search: string | null;
  /** Include the calls Weft made itself (playground, judges, monitors, evaluate_model); hidden by default. */
  weftCalls: boolean;
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

/** Reads and writes the view in search params, omitting defaults. */
export const { read: readCallsView, write: writeCallsView } = urlState<CallsViewState>({
  clauses: custom('f', parseClauses, (clauses) => (clauses.length ? JSON.stringify(clauses.map((c) => [c.field, c.op, c.value])) : null)),
  sort: sortKey('sort', DEFAULT_SORT),
  columns: list('cols', DEFAULT_COLUMNS),
  since: text('since'),
  rootsOnly: flag('roots', true),
  search: text('q'),
  weftCalls: flag('weft'), // ?weft=1
  live: flag('live'),
});

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useCallsView(): [CallsViewState, (patch: Partial<CallsViewState>) => void] {
  return useUrlView(readCallsView, writeCallsView);
}
