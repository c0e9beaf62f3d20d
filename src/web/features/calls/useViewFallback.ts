/**
 * A calls link whose sort or filters the server refuses (an unknown field answers 403 in the
 * reference's words, 422 as a validation error) falls back to the defaults instead of showing
 * "You do not have access" over rows that never load: first the sort is dropped, then, if the
 * server still refuses, the filters. The page shows what was ignored (ViewNotice) and can
 * write the fallback into the URL.
 */
import { useEffect, useMemo, useState } from 'react';
import { HttpError } from '../../../client/index.js';
import { DEFAULT_SORT, type CallsViewState } from '../../entities/calls/callsViewState.js';

/** Statuses that mean "this request cannot be served as asked", not "try again". */
const REFUSED = new Set([400, 403, 422]);

interface Dropped {
  /** The view (sort and filters) the drops were decided for. */
  key: string;
  sort: boolean;
  clauses: boolean;
}

/** The view to request, what was dropped from the URL's view, and the patch that cleans the URL. */
export function useViewFallback(view: CallsViewState, error: Error | null) {
  const key = JSON.stringify([view.sort, view.clauses]);
  const [dropped, setDropped] = useState<Dropped>({ key, sort: false, clauses: false });
  const current = useMemo(() => (dropped.key === key ? dropped : { key, sort: false, clauses: false }), [dropped, key]);

  const sortIsDefault = view.sort.field === DEFAULT_SORT.field && view.sort.direction === DEFAULT_SORT.direction;
  const refused = error instanceof HttpError && REFUSED.has(error.status);
  useEffect(() => {
    if (!refused) return;
    if (!current.sort && !sortIsDefault) setDropped({ ...current, sort: true });
    else if (!current.clauses && view.clauses.length) setDropped({ ...current, clauses: true });
  }, [refused, current, sortIsDefault, view.clauses.length]);

  const effective = useMemo(
    () => ({ ...view, sort: current.sort ? DEFAULT_SORT : view.sort, clauses: current.clauses ? [] : view.clauses }),
    [view, current.sort, current.clauses],
  );
  const problems = [
    ...(current.sort ? [`sort “${view.sort.field}:${view.sort.direction}”`] : []),
    ...(current.clauses
      ? [`${view.clauses.length === 1 ? 'the filter' : `${view.clauses.length} filters`} (${view.clauses.map((c) => c.field).join(', ')})`]
      : []),
  ];
  const cleanPatch: Partial<CallsViewState> = {
    ...(current.sort ? { sort: DEFAULT_SORT } : {}),
    ...(current.clauses ? { clauses: [] } : {}),
  };
  // While a refused request is being replaced, its error is not the page's to show.
  const pendingFallback = refused && ((!current.sort && !sortIsDefault) || (!current.clauses && view.clauses.length > 0));
  return { effective, problems, cleanPatch, pendingFallback };
}
