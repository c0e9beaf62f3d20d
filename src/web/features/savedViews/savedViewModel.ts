/**
 * Saved views (docs/saved-views.md): the reference's `SavedView` object for the Calls page
 * (`view_type: "traces"`, its definition's filter, query, sort and columns) and Weft's own view
 * types for Threads and Evaluations, all with the page's exact URL search kept in
 * `definition.weft_search`, so loading a view Weft saved restores the URL exactly. Views the
 * reference's UI or SDK saved have no `weft_search`; their URL is derived from the definition.
 */
import type { Operand, Operation, Query } from '../../../contract/common.js';
import { readCallsView, writeCallsView, type CallsViewState } from '../../entities/calls/callsViewState.js';
import { compileQuery, type FilterClause, type FilterOp } from '../../entities/calls/filterModel.js';
import { pathOf, type ViewType } from './savedViewPages.js';

export { pathOf, viewTypeOf, VIEW_PAGES, type ViewPagePath, type ViewType } from './savedViewPages.js';

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A saved view as the sidebar and the pages use it. */
export interface SavedViewItem {
  objectId: string;
  label: string;
  viewType: string;
  /** The URL search (`?…` or empty) that loading the view navigates to. */
  search: string;
}

const pydantic = (name: string, fields: Json, bases = ['BaseModel']): Json => ({
  _type: name,
  ...fields,
  _class_name: name,
  _bases: bases,
});

/** The definition fields the reference reads, for a Calls page search. */
function tracesDefinition(view: CallsViewState, now: number): Json {
  return {
    filter: { trace_roots_only: view.rootsOnly },
    query: compileQuery({ clauses: view.clauses, since: view.since, now }),
    cols: null,
    columns: view.columns.map((id) => pydantic('Column', { path: id.split('.'), label: null })),
    pin: null,
    sort_by: [{ field: view.sort.field, direction: view.sort.direction }],
  };
}

/**
 * The value to save: already in the reference's dumped form (`_type`, every field, `_class_name`,
 * `_bases`), as the Python SDK's `weave.publish` sends it, so the server checks it and keeps
 * `weft_search` (a field the reference's class does not declare).
 */
export function toSavedViewValue({
  label,
  viewType,
  search,
  now,
}: {
  label: string;
  viewType: ViewType;
  search: string;
  now: number;
}): Json {
  const own = viewType === 'traces' ? tracesDefinition(readCallsView(new URLSearchParams(search)), now) : {};
  const definition = pydantic('SavedViewDefinition', {
    filter: null,
    query: null,
    cols: null,
    columns: null,
    pin: null,
    sort_by: null,
    ...own,
    page: null,
    page_size: null,
    charts: null,
    weft_search: search,
  });
  return pydantic('SavedView', { name: label, description: null, view_type: viewType, label, definition }, ['BaseObject', 'BaseModel']);
}

/** A stored SavedView value read for the sidebar; null when it is not one Weft can open. */
export function fromSavedViewValue(objectId: string, val: unknown): SavedViewItem | null {
  if (!isJson(val) || typeof val.view_type !== 'string' || !pathOf(val.view_type)) return null;
  const definition = isJson(val.definition) ? val.definition : {};
  const search =
    typeof definition.weft_search === 'string' ? definition.weft_search : val.view_type === 'traces' ? searchFromReference(definition) : '';
  return { objectId, label: typeof val.label === 'string' ? val.label : objectId, viewType: val.view_type, search };
}

/** A Calls page search from a definition the reference saved: its sort, columns, roots filter and simple query clauses. */
export function searchFromReference(definition: Json): string {
  const view = readCallsView(new URLSearchParams());
  const filter = isJson(definition.filter) ? definition.filter : {};
  if (typeof filter.trace_roots_only === 'boolean') view.rootsOnly = filter.trace_roots_only;
  const sort = Array.isArray(definition.sort_by) ? definition.sort_by.find(isJson) : undefined;
  if (sort && typeof sort.field === 'string' && (sort.direction === 'asc' || sort.direction === 'desc')) {
    view.sort = { field: sort.field, direction: sort.direction };
  }
  if (Array.isArray(definition.columns)) {
    const ids = definition.columns.filter(isJson).flatMap((c) => (Array.isArray(c.path) && c.path.length ? [c.path.join('.')] : []));
    if (ids.length) view.columns = ids;
  }
  const query = isJson(definition.query) ? (definition.query as Query) : null;
  if (query) {
    const { clauses, since } = clausesFromQuery(query);
    view.clauses = clauses;
    view.since = since;
  }
  const params = writeCallsView(view, new URLSearchParams()).toString();
  return params ? `?${params}` : '';
}

const fieldOf = (operand: Operand | undefined): string | null => {
  const o: unknown = operand;
  if (!isJson(o)) return null;
  if (typeof o.$getField === 'string') return o.$getField;
  if (isJson(o.$convert)) return fieldOf(o.$convert.input as Operand);
  return null;
};
const literalOf = (operand: Operand | undefined): string | null => {
  const o: unknown = operand;
  if (!isJson(o) || !('$literal' in o)) return null;
  const v = o.$literal;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
};

/** The clauses of the simple shapes the filter builder and the reference's SDK write; others are left out. */
export function clausesFromQuery(query: Query): { clauses: FilterClause[]; since: string | null } {
  const expr = query.$expr as Operation;
  const ops = isJson(expr) && Array.isArray((expr as Json).$and) ? ((expr as { $and: Operation[] }).$and ?? []) : [expr];
  const clauses: FilterClause[] = [];
  let since: string | null = null;
  const pair = (args: unknown, op: FilterOp, negate?: FilterOp) => {
    if (!Array.isArray(args)) return null;
    const field = fieldOf(args[0] as Operand);
    const value = literalOf(args[1] as Operand);
    return field !== null && value !== null ? { field, op: negate ?? op, value } : null;
  };
  for (const op of ops) {
    if (!isJson(op)) continue;
    const o = op as Json;
    let clause: FilterClause | null = null;
    if (isJson(o.$contains)) {
      const field = fieldOf(o.$contains.input as Operand);
      const value = literalOf(o.$contains.substr as Operand);
      clause = field !== null && value !== null ? { field, op: 'contains', value } : null;
    } else if (o.$eq) clause = pair(o.$eq, 'eq');
    else if (o.$gt) clause = pair(o.$gt, 'gt');
    else if (o.$gte) {
      const c = pair(o.$gte, 'gte');
      if (c && c.field === 'started_at' && since === null) since = c.value;
      else clause = c;
    } else if (Array.isArray(o.$not) && isJson(o.$not[0])) {
      const inner = o.$not[0] as Json;
      clause = inner.$eq
        ? pair(inner.$eq, 'eq', 'neq')
        : inner.$gte
          ? pair(inner.$gte, 'gte', 'lt')
          : inner.$gt
            ? pair(inner.$gt, 'gt', 'lte')
            : null;
    } else if (Array.isArray(o.$in)) {
      const field = fieldOf(o.$in[0] as Operand);
      const values = Array.isArray(o.$in[1]) ? (o.$in[1] as Operand[]).map(literalOf) : [];
      clause = field !== null && values.length && values.every((v) => v !== null) ? { field, op: 'in', value: values.join(', ') } : null;
    }
    if (clause) clauses.push(clause);
  }
  return { clauses, since };
}

/** The project's default view per view type, as stored in the `weft-default-views` object. */
export type DefaultViews = Partial<Record<ViewType, string | null>>;
export const DEFAULT_VIEWS_OBJECT = 'weft-default-views';

/** Whether the current search is the view's (the sidebar marks it). */
export function isCurrentView(view: SavedViewItem, search: string): boolean {
  const norm = (s: string) => (s === '?' ? '' : s);
  return norm(view.search) === norm(search);
}
