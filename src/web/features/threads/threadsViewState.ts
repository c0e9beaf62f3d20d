/**
 * Everything that defines a threads view lives in the URL, so a copied link reproduces it:
 * `?sort=p99_turn_duration_ms:desc,turn_count:asc&after=-24h&before=2026-11-20T10:00:00.000Z&ids=t1,t2`
 * plus the filters of threadFilters.ts (`q=refund&errors=1&turns=2-`).
 * Defaults (sort `last_updated:desc`, any time, every thread) are left out to keep links short.
 * What a link holds that cannot be read is dropped and listed in `problems`, which the page
 * shows as a notice: a bad link falls back to defaults instead of failing.
 */
import { custom, setParam, sortKeys, urlState, type SortKey } from '../../lib/urlState.js';
import { useUrlView } from '../../lib/useUrlView.js';
import { THREAD_SORT_FIELDS } from '../../../contract/threadSortFields.js';
import { resolveDateTime } from '../../entities/calls/filterModel.js';
import { NO_FILTERS, readThreadFilters, threadFilterRequest, writeThreadFilters, type ThreadFilters } from './threadFilters.js';
import type { ThreadsListReq } from './threadQueries.js';

/** A field the threads endpoint sorts by. */
export type ThreadSortField = (typeof THREAD_SORT_FIELDS)[number];

/** One server-side sort key. */
export type ThreadSort = SortKey<ThreadSortField>;

/** The threads view as the URL describes it. */
export interface ThreadsViewState {
  /** Sort keys in priority order (shift-click on a header appends one). */
  sort: ThreadSort[];
  /** Turns started strictly after this: relative (`-24h`) or ISO; null = no bound. */
  after: string | null;
  /** Turns started strictly before this: relative or ISO; null = no bound. */
  before: string | null;
  /** Exact thread ids to show; empty = all. */
  ids: string[];
  /** Content search, has-errors, ranges and attributes. */
  filters: ThreadFilters;
  /** What the URL held that could not be used (read only; never written back). */
  problems: string[];
}

/** The server's default order, used when the URL names none. */
export const DEFAULT_THREAD_SORT: readonly ThreadSort[] = [{ field: 'last_updated', direction: 'desc' }];

/** Thread ids typed or pasted as a list: commas, spaces or new lines between them. */
export function parseThreadIds(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** A time bound, relative (`-24h`) or ISO; one that does not read as a time is reported. */
const timeBound = (param: 'after' | 'before') =>
  custom<string | null>(
    param,
    (raw, report) => {
      if (!raw) return null;
      if (resolveDateTime(raw, Date.now()) !== null) return raw;
      report(raw);
      return null;
    },
    (v) => v,
  );

const fields = urlState<Omit<ThreadsViewState, 'filters' | 'problems'>>({
  sort: sortKeys('sort', DEFAULT_THREAD_SORT, THREAD_SORT_FIELDS),
  after: timeBound('after'),
  before: timeBound('before'),
  ids: custom(
    'ids',
    (raw) => parseThreadIds(raw ?? ''),
    (ids) => ids.join(','),
  ),
});

/** Reads the view from search params. */
export function readThreadsView(params: URLSearchParams): ThreadsViewState {
  const problems: string[] = [];
  const view = fields.read(params, problems);
  return { ...view, filters: readThreadFilters(params, problems), problems };
}

export { NO_FILTERS };

/** Writes a view into search params, omitting defaults. */
export function writeThreadsView(view: ThreadsViewState, params = new URLSearchParams()): URLSearchParams {
  fields.write(view, params);
  writeThreadFilters(view.filters, (key, value) => setParam(params, key, value));
  return params;
}

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useThreadsView(): [ThreadsViewState, (patch: Partial<ThreadsViewState>) => void] {
  return useUrlView(readThreadsView, writeThreadsView);
}

/** The `/threads/stream_query` request a view stands for (the list adds limit and offset). */
export function toThreadsRequest({ projectId, view, now }: { projectId: string; view: ThreadsViewState; now: number }): ThreadsListReq {
  const after = view.after ? resolveDateTime(view.after, now) : null;
  const before = view.before ? resolveDateTime(view.before, now) : null;
  const filter = {
    ...(after ? { after_datetime: after } : {}),
    ...(before ? { before_datetime: before } : {}),
    ...(view.ids.length ? { thread_ids: view.ids } : {}),
    ...threadFilterRequest(view.filters),
  };
  return {
    project_id: projectId,
    filter: Object.keys(filter).length ? filter : null,
    sort_by: view.sort.map((s) => ({ field: s.field, direction: s.direction })),
  };
}
